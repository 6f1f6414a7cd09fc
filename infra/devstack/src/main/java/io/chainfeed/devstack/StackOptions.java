package io.chainfeed.devstack;

import io.chainfeed.devstack.keys.AdminKey;
import io.chainfeed.platform.auth.HashedKeys;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * The launcher's command-line options ({@link Stack} mixes them in through picocli) and
 * what follows from them with their defaults, for a single stack or a {@code --cluster}:
 * the run dir, where everything listens ({@link StackLayout}), the settings of Kafka and
 * Elasticsearch ({@link StackInfrastructure.Settings}), the services to launch
 * ({@link StackServices}) and what they run with ({@link StackServices.Wiring}), and the
 * check that the ports they claim are free. Reads the build's versions from
 * {@code infra-build.properties} on the class path. Starts nothing; not thread-safe while
 * picocli sets the fields.
 */
final class StackOptions {

    private static final Logger LOG = LoggerFactory.getLogger(StackOptions.class);

    private static final Properties BUILD = buildInfo();

    @Option(names = "--run-dir",
            description = "Run dir: configs, data, logs (default: .run; .run-cluster with" + " --cluster).")
    Path runDir;

    @Option(names = "--project-dir",
            description = "Project checkout holding the built jars (default: ${DEFAULT-VALUE}).")
    Path projectDir = Path.of(".");

    @Option(names = "--kafka-port", description = "Kafka broker port (default: ${DEFAULT-VALUE}).")
    int kafkaPort = KafkaNode.DEFAULT_PORT;

    @Option(names = "--kafka-controller-port", description = "Kafka controller port (default: ${DEFAULT-VALUE}).")
    int kafkaControllerPort = KafkaNode.DEFAULT_CONTROLLER_PORT;

    @Option(names = "--es-port", description = "Elasticsearch HTTP port (default: ${DEFAULT-VALUE}).")
    int esPort = 19200;

    @Option(names = "--es-transport-port", description = "Elasticsearch transport port (default: ${DEFAULT-VALUE}).")
    int esTransportPort = 19300;

    @Option(names = "--api-port", description = "api HTTP port (default: ${DEFAULT-VALUE}).")
    int apiPort = 8080;

    @Option(names = "--ingest-port", description = "ingest HTTP port (default: ${DEFAULT-VALUE}).")
    int ingestPort = 8081;

    @Option(names = "--streams-port", description = "streams HTTP (actuator) port (default: ${DEFAULT-VALUE}).")
    int streamsPort = 8082;

    @Option(names = "--cluster", description = "Run a local cluster instead of one of everything: three Kafka brokers"
            + " (KRaft, each broker and controller; replication factor 3, min.insync.replicas 2), three Elasticsearch"
            + " nodes (the reads index with one replica) and two instances of each service, on the ports of"
            + " --port-base (default 29000), with its data in --run-dir (default .run-cluster).")
    boolean cluster;

    @Option(names = "--port-base", description = "Lay every port out from this one: brokers at +0.., controllers"
            + " +10.., Elasticsearch HTTP +20.. and transport +30.., streams +40.., ingest +50.., api +60.., demo +70"
            + " (overrides the single port options; so that a stack runs beside another).")
    Integer portBase;

    @Option(names = "--fresh", description = "Start empty: delete the Kafka logs, Elasticsearch data, streams state,"
            + " admin key and webhook master key an earlier run kept in the run dir (logs are kept).")
    boolean fresh;

    @Option(names = "--no-services", description = "Start only Kafka and Elasticsearch (and set up topics and index).")
    boolean noServices;

    @Option(names = "--demo-port", description = "Port of the demo partner page, another origin embedding the widgets"
            + " (default: ${DEFAULT-VALUE}).")
    int demoPort = 8090;

    @Option(names = "--no-demo", description = "Do not serve the demo partner page.")
    boolean noDemo;

    @Option(names = "--no-history", description = "Do not load the bundled history of constraint signals since 2023"
            + " (loaded by default, idempotently like the corpus).")
    boolean noHistory;

    @Option(names = "--external-kafka", paramLabel = "HOST:PORT",
            description = "Use this Kafka (bootstrap servers) instead of starting one.")
    String externalKafka;

    @Option(names = "--external-es", paramLabel = "URL[,URL...]",
            description = "Use this Elasticsearch (one or more node URLs) instead of starting one.")
    String externalEs;

    @Option(names = "--es-home",
            description = "Unpacked Elasticsearch (default: <project-dir>/infra/devstack/target/elasticsearch/elasticsearch-<version>).")
    Path esHome;

    @Option(names = "--kafka-lib",
            description = "Kafka broker jars (default: <project-dir>/infra/devstack/target/kafka-lib).")
    Path kafkaLib;

    @Option(names = "--es-heap", description = "Heap of each Elasticsearch node (default: 512m; 384m with --cluster).")
    String esHeap;

    @Option(names = "--kafka-heap", description = "Heap of each Kafka broker (default: 512m; 256m with --cluster).")
    String kafkaHeap;

    @Option(names = "--service-heap", description = "Heap of each service JVM (default: 320m; 256m with --cluster).")
    String serviceHeap;

    @Option(names = "--api-jvm-options", paramLabel = "OPTIONS",
            description = "More options for the api's JVM, separated by spaces, after the common ones"
                    + " (so they win), e.g. \"-Xmn192m -Xlog:gc:file=/tmp/api-gc.log\" (default: none).")
    String apiJvmOptions;

    @Option(names = "--quick-jit", description = "Run the services with the C1 compiler only: they start"
            + " sooner but process records more slowly (for test stacks, not for benchmarks).")
    boolean quickJit;

    @Option(names = "--api-warmup", description = "How long the api warms its JIT on the public's own requests"
            + " before it reports ready, e.g. 30s; 0s: not at all (default: 30s; 0s with --quick-jit).")
    String apiWarmup;

    @Option(names = "--partitions", description = "Partitions of the keyed data topics (default: 3; 6 with --cluster).")
    Integer partitions;

    @Option(names = "--replication-factor",
            description = "Replication factor of created topics (default: 1; 3 with" + " --cluster).")
    Short replicationFactor;

    @Option(names = "--stagger-seconds", description = "A service starts when the previous one is healthy, or after"
            + " this many seconds (default: ${DEFAULT-VALUE}).")
    int staggerSeconds = 20;

    @Option(names = "--start-timeout-seconds", description = "How long Kafka and Elasticsearch may each take to"
            + " start (default: 180; 480 with --cluster, whose eleven JVMs start together).")
    Integer startTimeoutSeconds;

    @Option(names = "--health-timeout-seconds",
            description = "How long each service may take to be healthy" + " (default: 180; 480 with --cluster).")
    Integer healthTimeoutSeconds;

    /**
     * @return the run dir, absolute ({@code --run-dir}; {@code .run}, or
     * {@code .run-cluster} with {@code --cluster})
     */
    Path runDir() {
        Path dir = runDir != null ? runDir : Path.of(cluster ? ".run-cluster" : ".run");
        return dir.toAbsolutePath().normalize();
    }

    /**
     * @return where everything listens: from {@code --port-base} (the cluster's default
     * 29000), else the port options
     */
    StackLayout layout() {
        if (cluster) {
            return StackLayout.cluster(portBase != null ? portBase : 29000);
        }
        return portBase != null ? StackLayout.fromBase(portBase, 1, 1, 1) : StackLayout.single(kafkaPort,
                kafkaControllerPort, esPort, esTransportPort, streamsPort, ingestPort, apiPort, demoPort);
    }

    /**
     * Checks that every port these options claim on loopback is free (Kafka's and
     * Elasticsearch's unless external, the services' and the demo page's unless left
     * out), naming the option that moves it; warns about ports in the kernel's ephemeral
     * range.
     * @throws IllegalStateException naming a taken port and its option
     */
    void requirePortsFree() {
        StackLayout layout = layout();
        int[] ephemeral = Processes.ephemeralPorts();
        List<Integer> risky = layout.portsBetween(ephemeral[0], ephemeral[1], !noServices, !noDemo);
        if (!risky.isEmpty()) {
            LOG.warn("ports {} lie in the kernel's ephemeral port range {}-{}: a client connecting to one while its"
                    + " server is down or starting can be given it as its own source port (a TCP self-connect) and"
                    + " keep the server from binding it; choose ports below {} (--port-base)", risky, ephemeral[0],
                    ephemeral[1], ephemeral[0]);
        }
        if (cluster || portBase != null) {
            layout.allPorts(!noServices, !noDemo).forEach((port, what) -> {
                boolean kafkaPort = what.startsWith("Kafka");
                boolean esPort = what.startsWith("Elasticsearch");
                if (!(kafkaPort && externalKafka != null) && !(esPort && externalEs != null)) {
                    Processes.requireFree(port, what, "--port-base");
                }
            });
            return;
        }
        if (externalKafka == null) {
            Processes.requireFree(kafkaPort, "Kafka broker", "--kafka-port");
            Processes.requireFree(kafkaControllerPort, "Kafka controller", "--kafka-controller-port");
        }
        if (externalEs == null) {
            Processes.requireFree(esPort, "Elasticsearch HTTP", "--es-port");
            Processes.requireFree(esTransportPort, "Elasticsearch transport", "--es-transport-port");
        }
        if (!noServices && !noDemo) {
            Processes.requireFree(demoPort, "demo partner page", "--demo-port");
        }
        if (!noServices) {
            Processes.requireFree(streamsPort, "streams", "--streams-port");
            Processes.requireFree(ingestPort, "ingest", "--ingest-port");
            Processes.requireFree(apiPort, "api", "--api-port");
        }
    }

    /**
     * @param project the project checkout, absolute
     * @return the settings Kafka and Elasticsearch start with (jars, heaps, topics, start
     * timeout, external endpoints)
     */
    StackInfrastructure.Settings infrastructureSettings(Path project) {
        Path home = esHome != null ? esHome : project
            .resolve("infra/devstack/target/elasticsearch/elasticsearch-" + BUILD.getProperty("elasticsearch.version"));
        return new StackInfrastructure.Settings(
                kafkaLib != null ? kafkaLib : project.resolve("infra/devstack/target/kafka-lib"), home,
                orDefault(kafkaHeap, "512m", "256m"), orDefault(esHeap, "512m", "384m"), partitions(),
                replicationFactor(), cluster ? 2 : 1, cluster ? 1 : 0,
                Duration.ofSeconds(orDefault(startTimeoutSeconds, 180, 480)), externalKafka, externalEs);
    }

    /**
     * @return how long a service may wait for the previous one to be healthy before it
     * starts anyway ({@code --stagger-seconds})
     */
    Duration stagger() {
        return Duration.ofSeconds(staggerSeconds);
    }

    /**
     * @return how long each service may take to be healthy
     * ({@code --health-timeout-seconds}; 180 s, 480 s with {@code --cluster})
     */
    Duration healthTimeout() {
        return Duration.ofSeconds(orDefault(healthTimeoutSeconds, 180, 480));
    }

    /** An option's value, or its default for a single stack or a cluster. */
    private <T> T orDefault(T value, T single, T ofCluster) {
        return value != null ? value : cluster ? ofCluster : single;
    }

    private int partitions() {
        return partitions != null ? partitions : cluster ? 6 : 3;
    }

    private short replicationFactor() {
        return replicationFactor != null ? replicationFactor : (short) (cluster ? 3 : 1);
    }

    /**
     * @param project the project checkout holding the built jars
     * @return the services of these options, in start order (not started)
     */
    StackServices serviceSpecs(Path project) {
        // On a cluster each store gets a warm copy on another instance, for a quick
        // fail-over.
        return StackServices.of(project, BUILD.getProperty("project.version"), layout(),
                cluster ? List.of("--chainfeed.streams.standby-replicas=1") : List.of(), !noHistory);
    }

    /**
     * What the services connect to and run with; makes the run's admin key on first use.
     * @param run the run dir
     * @param bootstrapServers Kafka's bootstrap servers, or null before Kafka started
     * @param elasticsearchUris Elasticsearch's node URLs, or null before it started
     * @return the wiring
     * @throws IOException if the admin key cannot be read or written
     */
    StackServices.Wiring wiring(RunDir run, String bootstrapServers, String elasticsearchUris) throws IOException {
        List<String> clusterArgs = cluster ? List.of("--chainfeed.kafka.partitions=" + partitions(),
                "--chainfeed.kafka.replication-factor=" + replicationFactor()) : List.of();
        return new StackServices.Wiring(bootstrapServers, elasticsearchUris,
                HashedKeys.hash(AdminKey.readOrCreate(run.root())), orDefault(serviceHeap, "320m", "256m"), quickJit,
                apiWarmup != null ? apiWarmup : quickJit ? "0s" : "30s", clusterArgs,
                apiJvmOptions == null || apiJvmOptions.isBlank() ? List.of()
                        : List.of(apiJvmOptions.trim().split("\\s+")));
    }

    private static Properties buildInfo() {
        Properties props = new Properties();
        try (InputStream in = StackOptions.class.getResourceAsStream("infra-build.properties")) {
            if (in == null) {
                throw new IllegalStateException("infra-build.properties missing from the class path");
            }
            props.load(in);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props;
    }

}
