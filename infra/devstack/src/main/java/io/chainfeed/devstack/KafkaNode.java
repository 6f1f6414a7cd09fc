package io.chainfeed.devstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker (KRaft, combined broker + controller) run as a child
 * JVM from the broker jars in {@code infra/devstack/target/kafka-lib}, listening on
 * 127.0.0.1. The run directory holds {@code server.properties}, {@code log4j.properties},
 * the log dirs ({@code data/}) and the logs ({@code logs/server.log},
 * {@code logs/kafka.out}).
 *
 * <p>
 * By default the broker is tuned for one node: replication factor 1 for the internal
 * topics (transactions included, since Kafka Streams runs {@code exactly_once_v2}), no
 * topic auto-creation, no initial rebalance delay. As a member of a local cluster
 * ({@link Builder#member}) it takes its node id, the controller quorum's voters, the
 * cluster id every member is formatted with, and the replication factor and
 * {@code min.insync.replicas} for new topics and the internal ones.
 *
 * <pre>{@code
 * try (KafkaNode kafka = KafkaNode.builder(libDir, runDir).port(0).build().start()) {
 *     String bootstrap = kafka.bootstrapServers();
 * }
 * }</pre>
 */
public final class KafkaNode extends LocalNode<KafkaNode> {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaNode.class);

    /** Default broker port of the embedded default. */
    public static final int DEFAULT_PORT = 19092;

    /** Default controller port of the embedded default. */
    public static final int DEFAULT_CONTROLLER_PORT = 19093;
    static final String PID_FILE = "kafka.pid";
    static final String SERVER_PROPERTIES = "server.properties";

    private final Path libDir;

    private final int numPartitions;

    private final Membership membership;

    private final Map<String, String> overrides;

    /**
     * A broker's place in a KRaft cluster whose members are all combined broker +
     * controller nodes.
     *
     * @param nodeId {@code node.id}, 1..n
     * @param quorumVoters {@code controller.quorum.voters}, e.g.
     * {@code 1@127.0.0.1:29010,2@127.0.0.1:29011}, or null for this node alone
     * @param clusterId the id {@code kafka-storage format} gives every member's log dir
     * (base64 UUID), or null for a random one (a single node)
     * @param replicationFactor default replication factor of new topics and of the
     * offsets and transaction state topics
     * @param minInsyncReplicas {@code min.insync.replicas}, also the transaction state
     * log's min ISR
     */
    public record Membership(int nodeId, String quorumVoters, String clusterId, int replicationFactor,
            int minInsyncReplicas) {

        /** This node alone: node id 1, replication factor 1. */
        public static final Membership SINGLE = new Membership(1, null, null, 1, 1);

        /**
         * @throws IllegalArgumentException when the replication factor is below 1 or min
         * ISR is not in 1..rf
         */
        public Membership {
            if (replicationFactor < 1 || minInsyncReplicas < 1 || minInsyncReplicas > replicationFactor) {
                throw new IllegalArgumentException("need 1 <= min.insync.replicas (" + minInsyncReplicas
                        + ") <= replication factor (" + replicationFactor + ")");
            }
        }
    }

    private KafkaNode(Builder b) {
        super("Kafka", PID_FILE, b);
        this.libDir = b.libDir.toAbsolutePath().normalize();
        this.overrides = Map.copyOf(b.overrides);
        this.numPartitions = b.numPartitions;
        this.membership = b.membership;
    }

    /**
     * Starts building a node.
     * @param libDir the broker jars, e.g. {@code infra/devstack/target/kafka-lib}
     * @param runDir where the configs, data and logs go
     */
    public static Builder builder(Path libDir, Path runDir) {
        return new Builder(libDir, runDir);
    }

    /**
     * Stops an earlier run's broker for this run dir (from its pid file, or found by its
     * command line), e.g. after the JVM that started it was killed with SIGKILL.
     * @param runDir the run dir of the earlier run
     * @return the number of processes stopped
     */
    public static int stopStale(Path runDir) throws IOException {
        Path dir = runDir.toAbsolutePath().normalize();
        String config = dir.resolve(SERVER_PROPERTIES).toString();
        return Processes.stopStale("Kafka", List.of(dir.resolve(PID_FILE)),
                cmd -> cmd.contains("kafka.Kafka") && cmd.contains(config));
    }

    /**
     * Writes the configs, formats the log dir (KRaft) on first use and starts the broker.
     */
    @Override
    protected synchronized Process launch() throws IOException {
        beginLaunch(this::requireLibs, () -> stopStale(runDir), new String[] { "Kafka broker", "Kafka controller" },
                "broker and controller port");
        int port = port();
        int controllerPort = controllerPort();

        Files.createDirectories(runDir);
        Path data = runDir.resolve("data");
        Path logs = runDir.resolve("logs");
        if (!keepData) {
            Processes.deleteTree(data);
        }
        // The broker's logs roll (log4j RollingFileAppender) and survive restarts; only
        // the data is wiped
        // for a fresh broker.
        Files.createDirectories(logs);
        Path serverProperties = runDir.resolve(SERVER_PROPERTIES);
        Files.writeString(serverProperties,
                render(serverProperties(port, controllerPort, data, numPartitions, membership, overrides)));
        Path log4j = runDir.resolve("log4j.properties");
        Files.writeString(log4j, log4jProperties(logs.resolve("server.log")));
        format(serverProperties, logs);

        List<String> command = new ArrayList<>(
                List.of(Processes.javaExecutable().toString(), "-Xms" + heap, "-Xmx" + heap,
                        // The flags of kafka-run-class.sh.
                        "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-XX:InitiatingHeapOccupancyPercent=35",
                        "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true",
                        "-Dlog4j.configuration=" + log4j.toUri(), "-Dkafka.logs.dir=" + logs, "-cp", libDir + "/*",
                        "kafka.Kafka", serverProperties.toString()));
        LOG.info("starting Kafka node {} on 127.0.0.1:{} (controller {}, heap {}), run dir {}", membership.nodeId(),
                port, controllerPort, heap, runDir);
        return startTracked(new ProcessBuilder(command), logs.resolve("kafka.out"));
    }

    /**
     * The broker configuration, in order.
     * @param port broker port
     * @param controllerPort controller port
     * @param dataDir the log dir
     * @param numPartitions default partition count
     * @param member node id, quorum and replication ({@link Membership#SINGLE} for one
     * node)
     * @param overrides extra or overriding properties, applied last
     */
    static Map<String, String> serverProperties(int port, int controllerPort, Path dataDir, int numPartitions,
            Membership member, Map<String, String> overrides) {
        String rf = Integer.toString(member.replicationFactor());
        String minIsr = Integer.toString(member.minInsyncReplicas());
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(member.nodeId()));
        p.put("controller.quorum.voters", member.quorumVoters() != null ? member.quorumVoters()
                : member.nodeId() + "@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dataDir.toString());
        p.put("num.partitions", Integer.toString(numPartitions));
        // A write is acknowledged (acks=all) once min.insync.replicas replicas have it; a
        // replica that
        // missed writes never becomes leader (that would drop acknowledged records).
        p.put("default.replication.factor", rf);
        p.put("min.insync.replicas", minIsr);
        p.put("unclean.leader.election.enable", "false");
        // Topics are created by TopicSetup (and Kafka Streams for its internal ones),
        // never by a typo.
        p.put("auto.create.topics.enable", "false");
        // The internal topics (consumer offsets; transactions, since Kafka Streams runs
        // exactly_once_v2) are
        // replicated as the data is. Fewer partitions than the default 50 keep their
        // creation (first
        // consumer group, first transaction) quick.
        for (String internal : List.of("offsets.topic", "transaction.state.log")) {
            p.put(internal + ".replication.factor", rf);
            p.put(internal + ".num.partitions", "10");
        }
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("group.initial.rebalance.delay.ms", "0");
        // Two cores shared by everything.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("background.threads", "4");
        p.putAll(overrides);
        return p;
    }

    /** The first line of the files written here. */
    private static final String WRITTEN_BY = "# written by " + KafkaNode.class.getName() + " at each start\n";

    /**
     * Renders properties as a {@code key=value} file (values here never need escaping).
     */
    static String render(Map<String, String> properties) {
        StringBuilder out = new StringBuilder(WRITTEN_BY);
        properties.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    /**
     * A log4j 1 configuration (reload4j) writing to one file that rolls at 10 MB, keeping
     * 5 old files ({@code server.log.1} .. {@code .5}); without it the broker logs
     * nothing.
     */
    static String log4jProperties(Path logFile) {
        return WRITTEN_BY + """
                log4j.rootLogger=INFO, file
                log4j.appender.file=org.apache.log4j.RollingFileAppender
                log4j.appender.file.File=%s
                log4j.appender.file.Append=true
                log4j.appender.file.MaxFileSize=10MB
                log4j.appender.file.MaxBackupIndex=5
                log4j.appender.file.layout=org.apache.log4j.PatternLayout
                log4j.appender.file.layout.ConversionPattern=[%%d] %%p %%m (%%c)%%n
                log4j.logger.kafka.request.logger=WARN
                log4j.logger.state.change.logger=WARN
                log4j.logger.kafka.controller=INFO
                log4j.logger.kafka.log.LogCleaner=INFO
                log4j.logger.org.apache.kafka.clients=WARN
                """.formatted(logFile);
    }

    private void requireLibs() {
        boolean hasBroker;
        try (var files = Files.list(libDir)) {
            hasBroker = files.anyMatch(f -> f.getFileName().toString().startsWith("kafka_2.13-"));
        }
        catch (IOException e) {
            hasBroker = false;
        }
        if (!hasBroker) {
            throw new IllegalStateException("no Kafka broker jars in " + libDir
                    + "; build them with: mvn -B -pl infra -am install -DskipTests");
        }
    }

    private void format(Path serverProperties, Path logs) throws IOException {
        // A log dir kept from an earlier run is already formatted with its own cluster
        // id; formatting it
        // again with a new id fails even with --ignore-formatted ("Invalid cluster.id"),
        // so it starts as is.
        if (Files.exists(runDir.resolve("data").resolve("meta.properties"))) {
            LOG.debug("{} is already formatted; keeping its cluster id", runDir.resolve("data"));
            return;
        }
        long t0 = System.nanoTime();
        Path out = logs.resolve("storage-format.out");
        List<String> command = List.of(Processes.javaExecutable().toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Dlog4j.configuration=" + runDir.resolve("log4j.properties").toUri(), "-cp",
                libDir + "/*", "kafka.tools.StorageTool", "format", "-t",
                membership.clusterId() != null ? membership.clusterId() : Uuid.randomUuid().toString(), "-c",
                serverProperties.toString(), "--ignore-formatted");
        Process format = new ProcessBuilder(command).directory(runDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
        try {
            if (!format.waitFor(60, TimeUnit.SECONDS)) {
                format.destroyForcibly();
                throw new IllegalStateException(
                        "Kafka StorageTool format did not finish in 60 s" + Processes.tails(20, out));
            }
        }
        catch (InterruptedException e) {
            format.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while formatting the Kafka log dir", e);
        }
        if (format.exitValue() != 0) {
            throw new IllegalStateException(
                    "Kafka StorageTool format failed with exit code " + format.exitValue() + Processes.tails(20, out));
        }
        LOG.debug("formatted {} in {} ms", runDir.resolve("data"), (System.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Ready: the broker port takes connections, then an admin client sees the broker in
     * the cluster metadata.
     */
    @Override
    protected void awaitReady(Process launched, long t0) {
        // A quiet TCP probe first: an admin client logs a warning for every refused
        // connection.
        pollUntilReady(launched, t0, "Kafka listening on " + bootstrapServers(),
                () -> Processes.canConnect("127.0.0.1", port(), Duration.ofMillis(500)) ? Optional.empty()
                        : Optional.of("connection refused"));
        Map<String, Object> config = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                5000);
        try (Admin admin = Admin.create(config)) {
            pollUntilReady(launched, t0, "Kafka broker in the cluster metadata on " + bootstrapServers(),
                    () -> admin.describeCluster(new DescribeClusterOptions().timeoutMs(5000))
                        .nodes()
                        .get(6, TimeUnit.SECONDS)
                        .isEmpty() ? Optional.of("no broker in the cluster metadata") : Optional.empty());
        }
    }

    @Override
    protected String logTails() {
        Path logs = runDir.resolve("logs");
        return Processes.tails(30, logs.resolve("kafka.out"), logs.resolve("server.log"));
    }

    /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port();
    }

    /** The broker port (the chosen one when the builder asked for 0). */
    public int port() {
        return mainPort();
    }

    /** The controller port (the chosen one when the builder asked for 0). */
    public int controllerPort() {
        return secondPort();
    }

    /** Builder of {@link KafkaNode}; start timeout 120 s unless set. */
    public static final class Builder extends LocalNode.Builder<Builder, KafkaNode> {

        private final Path libDir;

        private int numPartitions = 3;

        private Membership membership = Membership.SINGLE;

        private final Map<String, String> overrides = new LinkedHashMap<>();

        private Builder(Path libDir, Path runDir) {
            super(runDir, DEFAULT_PORT, DEFAULT_CONTROLLER_PORT, Duration.ofSeconds(120));
            this.libDir = Objects.requireNonNull(libDir, "libDir");
        }

        /** Broker port on 127.0.0.1 (default 19092); 0 picks a free one. */
        public Builder port(int port) {
            return mainPort(port);
        }

        /** Controller port on 127.0.0.1 (default 19093); 0 picks a free one. */
        public Builder controllerPort(int port) {
            return secondPort(port);
        }

        /** Default partition count of topics created without one (default 3). */
        public Builder numPartitions(int partitions) {
            if (partitions < 1) {
                throw new IllegalArgumentException("partitions must be >= 1");
            }
            this.numPartitions = partitions;
            return this;
        }

        /**
         * This broker's place in a cluster (default {@link Membership#SINGLE}: a node
         * alone).
         */
        public Builder member(Membership member) {
            this.membership = Objects.requireNonNull(member, "member");
            return this;
        }

        /** Extra or overriding broker properties. */
        public Builder property(String key, String value) {
            this.overrides.put(key, value);
            return this;
        }

        @Override
        public KafkaNode build() {
            return new KafkaNode(this);
        }

    }

}
