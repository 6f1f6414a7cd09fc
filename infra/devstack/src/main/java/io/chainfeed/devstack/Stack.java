package io.chainfeed.devstack;

import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.TopicSetup;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;

import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.devstack.demo.DemoPartnerKey;
import io.chainfeed.devstack.demo.DemoPartnerSite;
import io.chainfeed.devstack.keys.AdminKey;
import io.chainfeed.devstack.keys.AdminKeysClient;
import io.chainfeed.schemas.Topics;
import org.apache.http.HttpHost;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded default: starts a real Kafka (KRaft) and a real Elasticsearch on loopback, creates the
 * topics and the reads index, then the streams, ingest and api services (Spring Boot fat jars, as child
 * JVMs), issues a partner key and serves a demo partner page on another port (unless {@code --no-demo}),
 * prints the URLs and blocks. Ctrl-C (SIGINT) or SIGTERM stops everything it started, in reverse
 * order.
 *
 * <p>Run it from the project dir after {@code mvn -B -DskipTests install}:
 * <pre>
 * java -jar infra/devstack/target/chainfeed-devstack-0.1.0-SNAPSHOT-launcher.jar [--no-services] [--help]
 * </pre>
 * (equivalently {@code java -cp 'infra/devstack/target/chainfeed-devstack-0.1.0-SNAPSHOT-launcher.jar:infra/devstack/target/infra-lib/*'
 * io.chainfeed.devstack.Stack}). This class holds the options and the start order; {@link RunDir} says where
 * a run keeps its files (the data in it is kept across runs unless {@code --fresh}; processes left by a
 * killed earlier run are stopped first), {@link StackServices} what each service JVM runs with. Services that
 * exit unexpectedly are restarted ({@link RestartPolicy}); {@link StackControl} takes requests to restart one.
 */
@Command(name = "chainfeed-stack", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs Kafka, Elasticsearch and the chainfeed services on this machine.")
public final class Stack implements Callable<Integer>, AutoCloseable {
    static {
        // Before the first logger exists: slf4j-simple reads these once (the launcher's own class path only).
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
    }

    private static final Logger LOG = LoggerFactory.getLogger(Stack.class);
    private static final Properties BUILD = buildInfo();

    @Option(names = "--run-dir", description = "Run dir: configs, data, logs (default: ${DEFAULT-VALUE}).")
    Path runDir = Path.of(".run");

    @Option(names = "--project-dir", description = "Project checkout holding the built jars (default: ${DEFAULT-VALUE}).")
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

    @Option(names = "--external-kafka", paramLabel = "HOST:PORT",
            description = "Use this Kafka (bootstrap servers) instead of starting one.")
    String externalKafka;

    @Option(names = "--external-es", paramLabel = "URL", description = "Use this Elasticsearch instead of starting one.")
    URI externalEs;

    @Option(names = "--es-home", description = "Unpacked Elasticsearch (default: <project-dir>/infra/devstack/target/elasticsearch/elasticsearch-<version>).")
    Path esHome;

    @Option(names = "--kafka-lib", description = "Kafka broker jars (default: <project-dir>/infra/devstack/target/kafka-lib).")
    Path kafkaLib;

    @Option(names = "--es-heap", description = "Elasticsearch heap (default: ${DEFAULT-VALUE}).")
    String esHeap = "512m";

    @Option(names = "--kafka-heap", description = "Kafka heap (default: ${DEFAULT-VALUE}).")
    String kafkaHeap = "512m";

    @Option(names = "--service-heap", description = "Heap of each service JVM (default: ${DEFAULT-VALUE}).")
    String serviceHeap = "320m";

    @Option(names = "--quick-jit", description = "Run the services with the C1 compiler only: they start"
            + " sooner but process records more slowly (for test stacks, not for benchmarks).")
    boolean quickJit;

    @Option(names = "--partitions", description = "Partitions of the keyed data topics (default: ${DEFAULT-VALUE}).")
    int partitions = 3;

    @Option(names = "--replication-factor", description = "Replication factor of created topics (default: ${DEFAULT-VALUE}).")
    short replicationFactor = 1;

    @Option(names = "--stagger-seconds", description = "A service starts when the previous one is healthy, or after"
            + " this many seconds (default: ${DEFAULT-VALUE}).")
    int staggerSeconds = 20;

    @Option(names = "--start-timeout-seconds", description = "How long Kafka and Elasticsearch may each take to"
            + " start (default: ${DEFAULT-VALUE}).")
    int startTimeoutSeconds = 180;

    @Option(names = "--health-timeout-seconds", description = "How long each service may take to be healthy"
            + " (default: ${DEFAULT-VALUE}).")
    int healthTimeoutSeconds = 180;


    private final List<AutoCloseable> started = new ArrayList<>();
    private volatile boolean closed;
    private KafkaNode kafka;
    private ElasticsearchNode elasticsearch;
    private String bootstrapServers;
    private URI esUri;
    /** The services, once {@link #start} has read the options (none before). */
    private volatile StackServices services = new StackServices(Map.of());
    private DemoPartnerSite demo;
    private Thread hook;
    private final PrintStream console;

    /** A stack with the default options; set them through picocli ({@link #main}) or {@link #fromArgs}. */
    public Stack() {
        this(System.out);
    }

    Stack(PrintStream console) {
        this.console = console;
    }

    /**
     * Parses command-line options into a stack that is not started yet (for tests and embedding).
     *
     * @param args the same options as {@link #main}
     */
    public static Stack fromArgs(String... args) {
        Stack stack = new Stack();
        new CommandLine(stack).parseArgs(args);
        return stack;
    }

    /**
     * Starts everything, prints the URLs and blocks until the JVM is stopped (Ctrl-C / SIGTERM).
     *
     * @param args options; {@code --help} lists them
     */
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new Stack());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            LOG.error("chainfeed stack failed: {}", e.getMessage());
            LOG.debug("details", e);
            return 1;
        });
        int code = cli.execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
    /** Runs the command: start, then block (stopping happens in the shutdown hook). */
    @Override
    public Integer call() throws Exception {
        start();
        new CountDownLatch(1).await();
        return 0;
    }

    /**
     * Starts Kafka and Elasticsearch (in parallel, unless external), sets up topics and the reads index, and
     * starts the services (unless {@code --no-services}). On failure everything started so far is stopped.
     *
     * @return this stack, running
     * @throws IllegalStateException on a missing jar, a taken port, or a component that does not start
     */
    public Stack start() throws IOException {
        long t0 = System.nanoTime();
        RunDir run = new RunDir(runDir);
        Path project = projectDir.toAbsolutePath().normalize();
        services = serviceSpecs(project);
        if (!noServices) {
            services.requireJars();
        }
        hook = Processes.addShutdownHook("chainfeed-stack-stop", this::close);
        try {
            Files.createDirectories(run.root());
            stopStaleProcesses(run);
            if (fresh) {
                run.deleteKeptData();
            }
            checkPorts();
            startInfrastructure(run, project);
            setUpTopicsAndIndex();
            if (!noServices) {
                services.start(run, wiring(run), Duration.ofSeconds(staggerSeconds),
                        Duration.ofSeconds(healthTimeoutSeconds), this::register);
                if (!noDemo) {
                    startDemo(run);
                }
                register(StackControl.listen(run.root(), this));
            }
        } catch (IOException | RuntimeException | Error e) {
            close();
            throw e;
        }
        printBanner(run.root(), Duration.ofNanos(System.nanoTime() - t0));
        return this;
    }

    /** The services of this stack's options, in start order (not started). */
    StackServices serviceSpecs(Path project) {
        return StackServices.of(project, BUILD.getProperty("project.version"), streamsPort, ingestPort, apiPort);
    }

    /** What the services connect to and run with; makes this run's admin key on first use. */
    StackServices.Wiring wiring(RunDir run) throws IOException {
        return new StackServices.Wiring(bootstrapServers, esUri, HashedKeys.hash(AdminKey.readOrCreate(run.root())),
                serviceHeap, quickJit);
    }

    private void stopStaleProcesses(RunDir run) throws IOException {
        services.stopStale(run);
        if (externalKafka == null) {
            KafkaNode.stopStale(run.kafka());
        }
        if (externalEs == null) {
            ElasticsearchNode.stopStale(run.elasticsearch());
        }
    }

    private void checkPorts() {
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

    private void startInfrastructure(RunDir run, Path project) throws IOException {
        CompletableFuture<KafkaNode> kafkaStart = CompletableFuture.completedFuture(null);
        CompletableFuture<ElasticsearchNode> esStart = CompletableFuture.completedFuture(null);
        if (externalKafka == null) {
            KafkaNode node = KafkaNode.builder(kafkaLib != null ? kafkaLib : project.resolve("infra/devstack/target/kafka-lib"),
                            run.kafka())
                    .port(kafkaPort).controllerPort(kafkaControllerPort).heap(kafkaHeap).numPartitions(partitions)
                    .keepData(true).startTimeout(Duration.ofSeconds(startTimeoutSeconds)).shutdownHook(false).build();
            register(node);
            kafka = node;
            kafkaStart = CompletableFuture.supplyAsync(() -> startUnchecked(node::start));
        }
        if (externalEs == null) {
            Path home = esHome != null ? esHome
                    : project.resolve("infra/devstack/target/elasticsearch/elasticsearch-" + BUILD.getProperty("elasticsearch.version"));
            ElasticsearchNode node = ElasticsearchNode.builder(home, run.elasticsearch())
                    .httpPort(esPort).transportPort(esTransportPort).heap(esHeap).keepData(true)
                    .startTimeout(Duration.ofSeconds(startTimeoutSeconds)).shutdownHook(false).build();
            register(node);
            elasticsearch = node;
            esStart = CompletableFuture.supplyAsync(() -> startUnchecked(node::start));
        }
        try {
            CompletableFuture.allOf(kafkaStart, esStart).join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        }
        bootstrapServers = kafka != null ? kafka.bootstrapServers() : externalKafka;
        esUri = elasticsearch != null ? elasticsearch.httpUri() : externalEs;
    }

    private interface IoSupplier<T> {
        T get() throws IOException;
    }

    private static <T> T startUnchecked(IoSupplier<T> start) {
        try {
            return start.get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void setUpTopicsAndIndex() throws IOException {
        TopicSetup.ensure(bootstrapServers, Topics.all(partitions), replicationFactor);
        try (RestClient client = RestClient.builder(HttpHost.create(esUri.toString())).build()) {
            IndexSetup.waitForYellow(client, Duration.ofSeconds(60));
            IndexSetup.ensureReadsIndex(client);
        }
    }

    /**
     * Issues a publishable partner key for the demo page's origin through the api's admin endpoint and
     * serves the page on loopback, on {@code --demo-port}.
     */
    private void startDemo(RunDir run) throws IOException {
        String pageOrigin = "http://localhost:" + demoPort;
        String token;
        try {
            token = DemoPartnerKey.token(run.root(), new AdminKeysClient(apiUri(), AdminKey.read(run.root())), pageOrigin);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while issuing the demo page's key", e);
        }
        DemoPartnerSite site = DemoPartnerSite.start(InetAddress.getLoopbackAddress(), demoPort,
                URI.create("http://localhost:" + apiPort), token, pageOrigin);
        register(site);
        demo = site;
    }

    private synchronized void register(AutoCloseable component) {
        if (closed) {
            throw new IllegalStateException("stack is stopping");
        }
        started.add(component);
    }

    private void printBanner(Path run, Duration took) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nchainfeed is up in %.1f s%n", took.toMillis() / 1000.0));
        if (!noServices) {
            out.append(String.format("  web      http://localhost:%d/ (search), http://localhost:%d/chain (chain map)%n",
                    apiPort, apiPort));
            out.append(String.format("  api      http://localhost:%d/api/v1/search?q=rdma%n", apiPort));
            out.append(String.format("  ingest   http://localhost:%d/ingest/v1/pages%n", ingestPort));
            out.append(String.format("  streams  http://localhost:%d/actuator/health%n", streamsPort));
            if (demo != null) {
                out.append(String.format("  demo     http://localhost:%d/ (a partner page on another origin embedding the widgets;"
                        + " http://127.0.0.1:%d/ is an origin its key does not allow)%n", demo.port(), demo.port()));
            }
            out.append("  restart  ./chainfeed restart streams|ingest|api (one service; a service that exits is restarted"
                    + " on its own)\n");
            out.append(String.format("  keys     ./chainfeed keys create --kind partner --origin https://partner.example"
                    + " --label NAME (admin key in %s)%n", run.resolve(AdminKey.FILE)));
        }
        out.append(String.format("  ES       %s%s%n", esUri,
                elasticsearch != null ? String.format(" (ready in %.1f s)", elasticsearch.readyAfter().toMillis() / 1000.0) : " (external)"));
        out.append(String.format("  Kafka    %s%s%n", bootstrapServers,
                kafka != null ? String.format(" (ready in %.1f s)", kafka.readyAfter().toMillis() / 1000.0) : " (external)"));
        out.append(String.format("  run dir  %s (logs in %s)%n", run, run.resolve("logs")));
        out.append("Press Ctrl-C to stop.\n");
        console.print(out);
        console.flush();
    }

    /** Kafka's bootstrap servers (the embedded broker's or the external one), once started. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Elasticsearch's HTTP endpoint (the embedded node's or the external one), once started. */
    public URI elasticsearchUri() {
        return esUri;
    }

    /** The api's base URI ({@code http://127.0.0.1:<api port>}). */
    public URI apiUri() {
        return URI.create("http://127.0.0.1:" + apiPort);
    }

    /** The ingest service's base URI. */
    public URI ingestUri() {
        return URI.create("http://127.0.0.1:" + ingestPort);
    }

    /** The streams service's base URI (actuator). */
    public URI streamsUri() {
        return URI.create("http://127.0.0.1:" + streamsPort);
    }

    /** The run dir, absolute. */
    public Path runDir() {
        return runDir.toAbsolutePath().normalize();
    }

    /** The embedded Kafka node, or empty with {@code --external-kafka}. */
    public Optional<KafkaNode> kafkaNode() {
        return Optional.ofNullable(kafka);
    }

    /** The embedded Elasticsearch node, or empty with {@code --external-es}. */
    public Optional<ElasticsearchNode> elasticsearchNode() {
        return Optional.ofNullable(elasticsearch);
    }

    /** Names of the supervised services, in start order. */
    public List<String> serviceNames() {
        return services.names();
    }

    /**
     * The running JVM of a service, e.g. to inject a fault.
     *
     * @param name {@code streams}, {@code ingest} or {@code api}
     * @return its process, or empty while it is down
     * @throws IllegalArgumentException for an unknown name
     */
    public Optional<ProcessHandle> serviceProcess(String name) {
        return services.process(name);
    }

    /**
     * How many times the supervisor restarted a service after it exited unexpectedly.
     *
     * @param name the service
     * @return the count since this stack started
     */
    public int serviceRestarts(String name) {
        return services.restarts(name);
    }

    /**
     * Restarts one service (SIGTERM, then a new JVM) and waits until it is healthy.
     *
     * @param name    the service
     * @param timeout how long it may take to be healthy
     * @return how long the restart took
     * @throws IllegalArgumentException for an unknown name
     * @throws IllegalStateException    when it does not become healthy in time
     * @throws IOException              when the JVM cannot be launched
     */
    public Duration restartService(String name, Duration timeout) throws IOException {
        return services.restart(name, timeout);
    }

    /** Stops everything this stack started, in reverse order (services, then Elasticsearch, then Kafka). */
    @Override
    public void close() {
        List<AutoCloseable> toStop;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toStop = new ArrayList<>(started);
        }
        long t0 = System.nanoTime();
        for (int i = toStop.size() - 1; i >= 0; i--) {
            try {
                toStop.get(i).close();
            } catch (Exception e) {
                LOG.warn("stopping {} failed: {}", toStop.get(i), e.toString());
            }
        }
        Processes.removeShutdownHook(hook);
        if (!toStop.isEmpty()) {
            LOG.info("chainfeed stack stopped in {} ms", (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private static Properties buildInfo() {
        Properties props = new Properties();
        try (InputStream in = Stack.class.getResourceAsStream("infra-build.properties")) {
            if (in == null) {
                throw new IllegalStateException("infra-build.properties missing from the class path");
            }
            props.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return props;
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
