package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackTest {
    @TempDir
    Path tmp;

    @Test
    void missingServiceJarsAreNamedBeforeAnythingStarts() {
        Stack stack = Stack.fromArgs("--project-dir", tmp.toString(), "--run-dir", tmp.resolve("run").toString());
        assertThatThrownBy(stack::start)
                .hasMessageContaining("streams/target/chainfeed-streams-0.1.0-SNAPSHOT-exec.jar")
                .hasMessageContaining("api/target/chainfeed-api-0.1.0-SNAPSHOT-exec.jar")
                .hasMessageContaining("mvn -B -DskipTests install")
                .hasMessageContaining("--no-services");
        assertThat(tmp.resolve("run")).doesNotExist();
    }

    @Test
    void aTakenPortFailsFastNamingTheOption() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(Processes.LOOPBACK, 0));
            int port = taken.getLocalPort();
            Stack stack = Stack.fromArgs("--no-services", "--project-dir", tmp.toString(),
                    "--run-dir", tmp.resolve("run").toString(), "--es-port", Integer.toString(port),
                    "--es-transport-port", "0", "--kafka-port", "0", "--kafka-controller-port", "0");
            assertThatThrownBy(stack::start).hasMessageContaining("port " + port)
                    .hasMessageContaining("--es-port");
            // Fast means before anything was started (no timing: the cores are shared): neither node got
            // as far as laying out its run dir.
            assertThat(tmp.resolve("run").resolve("elasticsearch")).doesNotExist();
            assertThat(tmp.resolve("run").resolve("kafka")).doesNotExist();
        }
    }

    @Test
    void serviceArgumentsPointAtKafkaAndElasticsearchWithOwnStateDirs() throws IOException {
        Stack stack = Stack.fromArgs("--api-port", "9080", "--streams-port", "9082", "--quick-jit",
                "--service-heap", "256m");
        Map<String, StackServices.ServiceSpec> specs = stack.serviceSpecs(Path.of("/p")).specs();
        StackServices.ServiceSpec api = specs.get("api");
        assertThat(api.jar()).isEqualTo(Path.of("/p/api/target/chainfeed-api-0.1.0-SNAPSHOT-exec.jar"));
        assertThat(api.port()).isEqualTo(9080);
        assertThat(api.extraArgs()).as("the api asks this run's streams for the chain as of an instant")
                .containsExactly("--chainfeed.api.streams.base-url=http://127.0.0.1:9082");
        assertThat(specs.get("ingest").extraArgs()).containsExactly("--chainfeed.ingest.load-corpus=true");
        assertThat(specs.keySet()).containsExactly("streams", "ingest", "api");

        RunDir run = new RunDir(Files.createDirectories(tmp.resolve("run")));
        StackServices.Wiring wiring = stack.wiring(run);
        assertThat(StackServices.jvmOptions(wiring)).containsExactly("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1");
        assertThat(StackServices.args(run, specs.get("streams"), wiring))
                .contains("--chainfeed.streams.state-dir=" + run.root().resolve("streams-state").resolve("streams"))
                .noneMatch(a -> a.startsWith("--chainfeed.api."));
        assertThat(StackServices.args(run, api, wiring)).contains("--server.port=9080", "--server.address=127.0.0.1")
                .anyMatch(a -> a.startsWith("--chainfeed.api.admin-key-hashes=") && a.endsWith(wiring.adminKeyHash()));
    }

    @Test
    void theApiGetsAWebhookMasterKeyFileKeptInTheRunDir() throws IOException {
        Path run = tmp.resolve("run-keys");
        Path file = new RunDir(run).webhookMasterKeyFile();
        String key = Files.readString(file).strip();
        assertThat(java.util.Base64.getDecoder().decode(key)).hasSize(32);
        assertThat(Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        assertThat(new RunDir(run).webhookMasterKeyFile()).isEqualTo(file);
        assertThat(Files.readString(file).strip()).as("kept across starts").isEqualTo(key);
        assertThat(new RunDir(tmp.resolve("other-run")).webhookMasterKeyFile()).isNotEqualTo(file);

        Stack stack = Stack.fromArgs("--api-port", "9080");
        Map<String, StackServices.ServiceSpec> specs = stack.serviceSpecs(Path.of("/p")).specs();
        StackServices.Wiring wiring = stack.wiring(new RunDir(run));
        assertThat(StackServices.args(new RunDir(run), specs.get("api"), wiring))
                .contains("--chainfeed.webhooks.master-key-file=" + file);
        assertThat(StackServices.args(new RunDir(run), specs.get("ingest"), wiring))
                .noneMatch(a -> a.contains("webhooks"));
    }
}
