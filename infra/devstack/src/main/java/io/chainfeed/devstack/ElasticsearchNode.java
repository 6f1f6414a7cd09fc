package io.chainfeed.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Elasticsearch node (the unpacked {@code integ-test-zip} distribution) run as a
 * child process on 127.0.0.1, with its own data, logs, tmp and config copy under a run
 * directory: a single-node cluster by default, or a member of a local cluster
 * ({@link Builder#discovery}: seed hosts and, for the first start, the initial master
 * nodes).
 *
 * <p>
 * Elasticsearch refuses to run as root: when this JVM runs as uid 0, the run directory is
 * handed to an unprivileged uid (default 1999, no passwd entry needed) and the node is
 * started through {@code setpriv --reuid=U --regid=U --clear-groups}. Readiness is
 * {@code GET /_cluster/health?
 * wait_for_status=yellow}; never use the client's {@code info()} or {@code ping()}, which
 * answer 405 on this distribution.
 *
 * <pre>{@code
 * try (ElasticsearchNode es = ElasticsearchNode.builder(esHome, runDir).build().start()) {
 *     URI uri = es.httpUri();
 * }
 * }</pre>
 */
public final class ElasticsearchNode extends LocalNode<ElasticsearchNode> {

    private static final Logger LOG = LoggerFactory.getLogger(ElasticsearchNode.class);

    /** File in the run dir holding the pid of the launcher process of the current run. */
    static final String PID_FILE = "elasticsearch-launcher.pid";

    /**
     * File in the run dir written by Elasticsearch itself ({@code -p}), holding the
     * server pid.
     */
    static final String SERVER_PID_FILE = "elasticsearch-server.pid";

    private static final String OUTPUT_FILE = "elasticsearch.out";

    private final Path esHome;

    private final int unprivilegedUid;

    private final String clusterName;

    private final List<Path> plugins;

    private final List<String> extraJavaOpts;

    private final Discovery discovery;

    /**
     * How a node finds its cluster.
     *
     * @param nodeName {@code node.name}
     * @param seedHosts {@code discovery.seed_hosts} (transport addresses
     * {@code host:port}); empty for a single-node cluster
     * ({@code discovery.type=single-node})
     * @param initialMasterNodes {@code cluster.initial_master_nodes}: the node names that
     * bootstrap a new cluster; given only while the node has no cluster state yet, as
     * Elasticsearch asks (a formed cluster must not be bootstrapped again)
     */
    public record Discovery(String nodeName, List<String> seedHosts, List<String> initialMasterNodes) {

        /** A single-node cluster whose node is {@code n1}. */
        public static final Discovery SINGLE = new Discovery("n1", List.of(), List.of());

        /** Copies the lists. */
        public Discovery {
            Objects.requireNonNull(nodeName, "nodeName");
            seedHosts = List.copyOf(seedHosts);
            initialMasterNodes = List.copyOf(initialMasterNodes);
        }
    }

    private ElasticsearchNode(Builder b) {
        super("Elasticsearch", PID_FILE, b);
        this.esHome = b.esHome.toAbsolutePath().normalize();
        this.unprivilegedUid = b.unprivilegedUid;
        this.clusterName = b.clusterName;
        this.plugins = List.copyOf(b.plugins);
        this.extraJavaOpts = List.copyOf(b.extraJavaOpts);
        this.discovery = b.discovery;
    }

    /**
     * Starts building a node.
     * @param esHome the unpacked distribution, e.g.
     * {@code infra/devstack/target/elasticsearch/elasticsearch-8.19.21}
     * @param runDir where data, logs, tmp and the config copy go; data is wiped at each
     * start unless {@link Builder#keepData}, logs are kept (Elasticsearch rolls them
     * itself)
     */
    public static Builder builder(Path esHome, Path runDir) {
        return new Builder(esHome, runDir);
    }

    /**
     * Stops an earlier run's Elasticsearch processes for this run dir (from its pid
     * files, or found by their command line), e.g. after the JVM that started them was
     * killed with SIGKILL.
     * @param runDir the run dir of the earlier run
     * @return the number of processes stopped
     */
    public static int stopStale(Path runDir) throws IOException {
        Path dir = runDir.toAbsolutePath().normalize();
        String marker = dir + "/";
        return Processes.stopStale("Elasticsearch", List.of(dir.resolve(PID_FILE), dir.resolve(SERVER_PID_FILE)),
                cmd -> cmd.contains("org.elasticsearch.") && cmd.contains(marker));
    }

    @Override
    protected synchronized Process launch() throws IOException {
        beginLaunch(this::requireDistribution, () -> stopStale(runDir),
                new String[] { "Elasticsearch HTTP", "Elasticsearch transport" }, "http and transport port");
        installPlugins();
        prepareRunDir();

        int uid = Processes.currentUid();
        boolean dropRoot = uid == 0;
        if (dropRoot) {
            requireReachableBy(unprivilegedUid);
            Processes.chownTree(runDir, unprivilegedUid);
        }
        List<String> command = new ArrayList<>();
        if (dropRoot) {
            command.addAll(List.of("setpriv", "--reuid=" + unprivilegedUid, "--regid=" + unprivilegedUid,
                    "--clear-groups", "--"));
        }
        command.add(esHome.resolve("bin/elasticsearch").toString());
        command.addAll(List.of("-p", runDir.resolve(SERVER_PID_FILE).toString()));
        settings().forEach((key, value) -> command.add("-E" + key + "=" + value));

        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        env.put("ES_JAVA_HOME", System.getProperty("java.home"));
        env.put("ES_PATH_CONF", runDir.resolve("config").toString());
        env.put("ES_TMPDIR", runDir.resolve("tmp").toString());
        env.put("ES_JAVA_OPTS", String.join(" ", javaOpts()));
        LOG.info("starting Elasticsearch on http://127.0.0.1:{} (transport {}, heap {}{}), run dir {}", httpPort(),
                transportPort(), heap, dropRoot ? ", as uid " + unprivilegedUid : "", runDir);
        return startTracked(pb, runDir.resolve(OUTPUT_FILE));
    }

    /** The settings passed as {@code -E key=value}, in order. */
    Map<String, String> settings() {
        // Elasticsearch keeps its cluster state under path.data/_state once the node has
        // joined a cluster.
        boolean bootstrapped = Files.isDirectory(runDir.resolve("data").resolve("_state"));
        return settings(clusterName, runDir, httpPort(), transportPort(), discovery, bootstrapped);
    }

    /**
     * The node settings.
     * @param bootstrapped whether the node has cluster state from an earlier start (then
     * the initial master nodes are left out)
     */
    static Map<String, String> settings(String clusterName, Path runDir, int httpPort, int transportPort,
            Discovery discovery, boolean bootstrapped) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("cluster.name", clusterName);
        s.put("node.name", discovery.nodeName());
        s.put("path.data", runDir.resolve("data").toString());
        s.put("path.logs", runDir.resolve("logs").toString());
        // Loopback only: the bootstrap checks stay warnings (vm.max_map_count, file
        // descriptors).
        s.put("network.host", "127.0.0.1");
        s.put("http.port", Integer.toString(httpPort));
        s.put("transport.port", Integer.toString(transportPort));
        if (discovery.seedHosts().isEmpty()) {
            s.put("discovery.type", "single-node");
        }
        else {
            s.put("discovery.seed_hosts", String.join(",", discovery.seedHosts()));
            if (!bootstrapped && !discovery.initialMasterNodes().isEmpty()) {
                s.put("cluster.initial_master_nodes", String.join(",", discovery.initialMasterNodes()));
            }
        }
        s.put("xpack.security.enabled", "false");
        // A nearly full disk would otherwise block writes (429) and leave new indices
        // unassigned (red).
        s.put("cluster.routing.allocation.disk.threshold_enabled", "false");
        s.put("xpack.ml.enabled", "false");
        return s;
    }

    /** The JVM options given through {@code ES_JAVA_OPTS}. */
    List<String> javaOpts() {
        List<String> opts = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap,
                // Elasticsearch pre-touches the whole heap by default: slower start and a
                // larger RSS.
                "-XX:-AlwaysPreTouch",
                // The unprivileged uid has no passwd entry, so user.home is "?" and JNA
                // would create
                // "?/.cache/JNA" under the logs dir (the server's working dir).
                "-Djna.tmpdir=" + runDir.resolve("tmp")));
        opts.addAll(extraJavaOpts);
        return opts;
    }

    private void requireDistribution() {
        if (!Files.isExecutable(esHome.resolve("bin/elasticsearch"))) {
            throw new IllegalStateException("no Elasticsearch distribution at " + esHome
                    + " (bin/elasticsearch missing); build it with: mvn -B -pl infra -am install -DskipTests");
        }
    }

    private void requireReachableBy(int uid) throws IOException {
        Optional<String> problem = Processes.othersCannotReach(esHome.resolve("bin/elasticsearch"),
                EnumSet.of(PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE));
        if (problem.isEmpty()) {
            problem = Processes.othersCannotReach(esHome.resolve("lib"),
                    EnumSet.of(PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE));
        }
        if (problem.isEmpty()) {
            // runDir itself is chowned to the uid; only its ancestors must be searchable.
            problem = Processes.othersCannotReach(runDir.getParent(), EnumSet.of(PosixFilePermission.OTHERS_EXECUTE));
        }
        problem.ifPresent(p -> {
            throw new IllegalStateException("Elasticsearch runs as uid " + uid + " (it refuses root) but " + p
                    + "; move the run dir / distribution or chmod o+rx");
        });
    }

    private void prepareRunDir() throws IOException {
        Files.createDirectories(runDir);
        List<String> wiped = keepData ? List.of("tmp", "config") : List.of("data", "tmp", "config");
        for (String sub : wiped) {
            Processes.deleteTree(runDir.resolve(sub));
        }
        for (String sub : List.of("data", "logs", "tmp")) {
            Files.createDirectories(runDir.resolve(sub));
        }
        Processes.copyTree(esHome.resolve("config"), runDir.resolve("config"));
    }

    private void installPlugins() throws IOException {
        for (Path plugin : plugins) {
            installPlugin(esHome, plugin.toAbsolutePath().normalize());
        }
    }

    /**
     * Installs a plugin (a zip or an unpacked dir, with
     * {@code plugin-descriptor.properties} or {@code stable-plugin-descriptor.properties}
     * at its root) into {@code esHome/plugins/<name>}, unless the same descriptor is
     * already there. The copy goes to a temp dir first and is then moved into place.
     */
    static void installPlugin(Path esHome, Path plugin) throws IOException {
        // Staged next to plugins/ (same file system for the atomic move), not inside it:
        // a node starting
        // meanwhile would take a half-copied dir there for a plugin.
        Path staging = Files.createTempDirectory(esHome, ".plugin-install-");
        try {
            if (Files.isDirectory(plugin)) {
                Processes.deleteTree(staging);
                Processes.copyTree(plugin, staging);
            }
            else {
                unzip(plugin, staging);
            }
            Path descriptor = Files.exists(staging.resolve("plugin-descriptor.properties"))
                    ? staging.resolve("plugin-descriptor.properties")
                    : staging.resolve("stable-plugin-descriptor.properties");
            if (!Files.exists(descriptor)) {
                throw new IllegalArgumentException(plugin + " has no plugin-descriptor.properties"
                        + " or stable-plugin-descriptor.properties at its root");
            }
            Properties props = new Properties();
            try (InputStream in = Files.newInputStream(descriptor)) {
                props.load(in);
            }
            String name = Objects.requireNonNull(props.getProperty("name"), "name in " + descriptor).trim();
            Path target = esHome.resolve("plugins").resolve(name);
            Path installedDescriptor = target.resolve(descriptor.getFileName().toString());
            if (Files.exists(installedDescriptor) && Files.mismatch(installedDescriptor, descriptor) == -1L) {
                LOG.debug("plugin {} already installed in {}", name, target);
                return;
            }
            Processes.deleteTree(target);
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            LOG.info("installed Elasticsearch plugin {} from {}", name, plugin);
        }
        finally {
            Processes.deleteTree(staging);
        }
    }

    private static void unzip(Path zip, Path into) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                Path target = into.resolve(entry.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("zip entry outside the target dir: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                }
                else {
                    Files.createDirectories(target.getParent());
                    Files.copy(in, target);
                }
            }
        }
    }

    /** Ready: {@code GET /_cluster/health?wait_for_status=yellow} answers 200. */
    @Override
    protected void awaitReady(Process launched, long t0) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest
            .newBuilder(URI.create(httpUri() + "/_cluster/health?wait_for_status=yellow&timeout=1s"))
            .timeout(Duration.ofSeconds(3))
            .GET()
            .build();
        pollUntilReady(launched, t0, "yellow Elasticsearch on " + httpUri(), () -> {
            if (!Processes.canConnect("127.0.0.1", httpPort(), Duration.ofMillis(500))) {
                return Optional.of("connection refused"); // no HTTP before it listens
            }
            HttpResponse<String> response = http.send(health, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.empty()
                    : Optional.of("HTTP " + response.statusCode() + " " + response.body());
        });
    }

    @Override
    protected String logTails() {
        return Processes.tails(30, runDir.resolve(OUTPUT_FILE), runDir.resolve("logs").resolve(clusterName + ".log"));
    }

    /** The HTTP port (the chosen one when the builder asked for 0). */
    public int httpPort() {
        return mainPort();
    }

    /** The HTTP endpoint, {@code http://127.0.0.1:<port>}. */
    public URI httpUri() {
        return URI.create("http://127.0.0.1:" + httpPort());
    }

    /** The transport port (the chosen one when the builder asked for 0). */
    public int transportPort() {
        return secondPort();
    }

    /**
     * Builder of {@link ElasticsearchNode}; free ports and a start timeout of 180 s
     * unless set.
     */
    public static final class Builder extends LocalNode.Builder<Builder, ElasticsearchNode> {

        private Discovery discovery = Discovery.SINGLE;

        private final Path esHome;

        private int unprivilegedUid = 1999;

        private String clusterName = "chainfeed";

        private final List<Path> plugins = new ArrayList<>();

        private final List<String> extraJavaOpts = new ArrayList<>();

        private Builder(Path esHome, Path runDir) {
            super(runDir, 0, 0, Duration.ofSeconds(180));
            this.esHome = Objects.requireNonNull(esHome, "esHome");
        }

        /** How the node finds its cluster (default {@link Discovery#SINGLE}). */
        public Builder discovery(Discovery discovery) {
            this.discovery = Objects.requireNonNull(discovery, "discovery");
            return this;
        }

        /** HTTP port on 127.0.0.1; 0 (the default) picks a free one. */
        public Builder httpPort(int port) {
            return mainPort(port);
        }

        /** Transport port on 127.0.0.1; 0 (the default) picks a free one. */
        public Builder transportPort(int port) {
            return secondPort(port);
        }

        /**
         * The uid that runs Elasticsearch when this JVM runs as root (default 1999; no
         * passwd entry needed).
         */
        public Builder unprivilegedUid(int uid) {
            if (uid <= 0) {
                throw new IllegalArgumentException("uid must be > 0, got " + uid);
            }
            this.unprivilegedUid = uid;
            return this;
        }

        /** Cluster name (default "chainfeed"). */
        public Builder clusterName(String name) {
            this.clusterName = Objects.requireNonNull(name);
            return this;
        }

        /**
         * Plugins (zips or unpacked dirs) installed into the distribution's plugins dir
         * before start.
         */
        public Builder plugins(List<Path> pluginZipsOrDirs) {
            this.plugins.addAll(pluginZipsOrDirs);
            return this;
        }

        /** Extra JVM options appended to ES_JAVA_OPTS. */
        public Builder javaOpts(List<String> opts) {
            this.extraJavaOpts.addAll(opts);
            return this;
        }

        @Override
        public ElasticsearchNode build() {
            return new ElasticsearchNode(this);
        }

    }

}
