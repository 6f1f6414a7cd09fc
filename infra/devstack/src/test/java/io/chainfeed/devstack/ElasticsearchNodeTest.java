package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElasticsearchNodeTest {

    @TempDir
    Path tmp;

    @Test
    void settingsAreSingleNodeLoopbackWithoutSecurityOrDiskThresholds() {
        Map<String, String> s = ElasticsearchNode.settings("c1", Path.of("/r"), 19200, 19300,
                ElasticsearchNode.Discovery.SINGLE, false);
        assertThat(s).containsEntry("cluster.name", "c1")
            .containsEntry("path.data", "/r/data")
            .containsEntry("path.logs", "/r/logs")
            .containsEntry("network.host", "127.0.0.1")
            .containsEntry("http.port", "19200")
            .containsEntry("transport.port", "19300")
            .containsEntry("discovery.type", "single-node")
            .containsEntry("xpack.security.enabled", "false")
            .containsEntry("cluster.routing.allocation.disk.threshold_enabled", "false")
            .containsEntry("xpack.ml.enabled", "false");
    }

    @Test
    void aClusterMemberSeedsFromItsPeersAndBootstrapsOnlyOnItsFirstStart() {
        ElasticsearchNode.Discovery discovery = new ElasticsearchNode.Discovery("n2",
                java.util.List.of("127.0.0.1:45030", "127.0.0.1:45031"), java.util.List.of("n1", "n2"));
        Map<String, String> first = ElasticsearchNode.settings("c1", Path.of("/r"), 45021, 45031, discovery, false);
        assertThat(first).containsEntry("node.name", "n2")
            .containsEntry("discovery.seed_hosts", "127.0.0.1:45030,127.0.0.1:45031")
            .containsEntry("cluster.initial_master_nodes", "n1,n2")
            .doesNotContainKey("discovery.type");
        assertThat(ElasticsearchNode.settings("c1", Path.of("/r"), 45021, 45031, discovery, true))
            .containsEntry("discovery.seed_hosts", "127.0.0.1:45030,127.0.0.1:45031")
            .doesNotContainKey("cluster.initial_master_nodes");
    }

    @Test
    void heapAndExtraJavaOpts() {
        ElasticsearchNode node = ElasticsearchNode.builder(tmp, tmp)
            .heap("256m")
            .javaOpts(java.util.List.of("-Dx=y"))
            .build();
        assertThat(node.javaOpts()).containsExactly("-Xms256m", "-Xmx256m", "-XX:-AlwaysPreTouch",
                "-Djna.tmpdir=" + tmp.toAbsolutePath().resolve("tmp"), "-Dx=y");
    }

    @Test
    void missingDistributionIsNamedWithTheBuildCommand() {
        ElasticsearchNode node = ElasticsearchNode.builder(tmp.resolve("no-es"), tmp.resolve("run")).build();
        assertThatThrownBy(node::start).hasMessageContaining("no Elasticsearch distribution")
            .hasMessageContaining("mvn -B -pl infra -am install");
    }

    @Test
    void pluginZipIsInstalledOnceAndReplacedWhenItChanges() throws IOException {
        Path home = tmp.resolve("es");
        Files.createDirectories(home.resolve("plugins"));
        Path zip = tmp.resolve("p.zip");
        writePluginZip(zip, "1.0");

        ElasticsearchNode.installPlugin(home, zip);
        Path installed = home.resolve("plugins/english-analysis");
        assertThat(installed.resolve("stable-plugin-descriptor.properties")).content().contains("version=1.0");
        assertThat(installed.resolve("english-analysis-1.0.jar")).exists();
        long modified = Files.getLastModifiedTime(installed.resolve("english-analysis-1.0.jar")).toMillis();

        ElasticsearchNode.installPlugin(home, zip);
        assertThat(Files.getLastModifiedTime(installed.resolve("english-analysis-1.0.jar")).toMillis())
            .isEqualTo(modified);

        writePluginZip(zip, "1.1");
        ElasticsearchNode.installPlugin(home, zip);
        assertThat(installed.resolve("stable-plugin-descriptor.properties")).content().contains("version=1.1");
        try (var leftovers = Files.list(home)) {
            assertThat(leftovers.map(p -> p.getFileName().toString())).containsExactly("plugins");
        }
    }

    @Test
    void aPluginWithoutDescriptorIsRefused() throws IOException {
        Path home = tmp.resolve("es");
        Files.createDirectories(home.resolve("plugins"));
        Path dir = tmp.resolve("not-a-plugin");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("x.jar"), "x");
        assertThatThrownBy(() -> ElasticsearchNode.installPlugin(home, dir)).hasMessageContaining("descriptor");
    }

    private static void writePluginZip(Path zip, String version) throws IOException {
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            entry(out, "stable-plugin-descriptor.properties", "name=english-analysis\nversion=" + version
                    + "\ndescription=d\njava.version=17\nelasticsearch.version=8.19.21\n");
            entry(out, "english-analysis-1.0.jar", "not really a jar");
        }
    }

    private static void entry(ZipOutputStream out, String name, String content) throws IOException {
        out.putNextEntry(new ZipEntry(name));
        OutputStream stream = out;
        stream.write(content.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }

}
