package io.chainfeed.devstack;

import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.TopicSetup;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;

import io.chainfeed.platform.auth.HashedKeys;
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
 * io.chainfeed.devstack.Stack}). Run-dir layout: {@code kafka/}, {@code elasticsearch/}, {@code logs/<service>.log}
 * (rolling) and {@code logs/<service>.out}, {@code pids/}, {@code streams-state/<service>/}, {@code admin-key},
 * {@code webhook-master.key}, {@code control.sock}. The data in it (Kafka logs, Elasticsearch data, streams
 * state, keys) is kept across runs unless {@code --fresh}; processes left by a killed earlier run are stopped
 * first. Services that exit unexpectedly are restarted ({@link RestartPolicy}); {@link StackControl} takes
 * requests to restart one.
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
    private final List<ServiceProcess> services = new ArrayList<>();
    private volatile boolean closed;
    private KafkaNode kafka;
    private ElasticsearchNode elasticsearch;
    private String bootstrapServers;
    private URI esUri;
    private String adminKeyHash;
    private DemoPartnerSite demo;
    private StackControl control;
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
        Path run = runDir.toAbsolutePath().normalize();
        Path project = projectDir.toAbsolutePath().normalize();
        Map<String, ServiceSpec> specs = serviceSpecs(project);
        if (!noServices) {
            requireJars(specs);
        }
        hook = Processes.addShutdownHook("chainfeed-stack-stop", this::close);
        try {
            Files.createDirectories(run);
            stopStaleProcesses(run, specs);
            if (fresh) {
                wipe(run);
            }
            checkPorts();
            startInfrastructure(run, project);
            setUpTopicsAndIndex();
            if (!noServices) {
                adminKeyHash = HashedKeys.hash(AdminKey.readOrCreate(run));
                startServices(run, specs);
                if (!noDemo) {
                    startDemo(run);
                }
                control = StackControl.listen(run, this);
                register(control);
            }
        } catch (IOException | RuntimeException | Error e) {
            close();
            throw e;
        }
        printBanner(run, Duration.ofNanos(System.nanoTime() - t0));
        return this;
    }

    /** What {@code --fresh} deletes: everything a run keeps for the next one, except the logs. */
    private void wipe(Path run) throws IOException {
        LOG.info("--fresh: deleting the data kept in {}", run);
        Processes.deleteTree(run.resolve("kafka").resolve("data"));
        Processes.deleteTree(run.resolve("elasticsearch").resolve("data"));
        Processes.deleteTree(run.resolve("streams-state"));
        Files.deleteIfExists(run.resolve(AdminKey.FILE));
        Files.deleteIfExists(run.resolve("webhook-master.key"));
        Files.deleteIfExists(run.resolve(DEMO_KEY_FILE));
    }

    record ServiceSpec(String name, Path jar, int port, List<String> extraArgs) {
    }

    Map<String, ServiceSpec> serviceSpecs(Path project) {
        String version = BUILD.getProperty("project.version");
        Map<String, ServiceSpec> specs = new LinkedHashMap<>();
        // Start order: streams (consumes), then ingest (loads the corpus), then api (serves).
        specs.put("streams", new ServiceSpec("streams", jar(project, "streams", version), streamsPort, List.of()));
        specs.put("ingest", new ServiceSpec("ingest", jar(project, "ingest", version), ingestPort,
                List.of("--chainfeed.ingest.load-corpus=true")));
        // The api asks streams for the chain as of a past instant (interactive queries on its port).
        specs.put("api", new ServiceSpec("api", jar(project, "api", version), apiPort,
                List.of("--chainfeed.api.streams.base-url=http://127.0.0.1:" + streamsPort)));
        return specs;
    }

    private static Path jar(Path project, String module, String version) {
        return project.resolve(module).resolve("target").resolve("chainfeed-" + module + "-" + version + "-exec.jar");
    }

    private static void requireJars(Map<String, ServiceSpec> specs) {
        List<String> missing = specs.values().stream().filter(s -> !Files.isRegularFile(s.jar()))
                .map(s -> s.jar().toString()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("missing service jar(s): " + String.join(", ", missing)
                    + ". Build them from the project dir with: mvn -B -DskipTests install"
                    + " (or start only Kafka and Elasticsearch with --no-services)");
        }
    }

    private void stopStaleProcesses(Path run, Map<String, ServiceSpec> specs) throws IOException {
        for (ServiceSpec spec : specs.values()) {
            ServiceProcess.stopStale(spec.name(), spec.jar(), run, pidFile(run, spec.name()));
        }
        if (externalKafka == null) {
            KafkaNode.stopStale(run.resolve("kafka"));
        }
        if (externalEs == null) {
            ElasticsearchNode.stopStale(run.resolve("elasticsearch"));
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

    private void startInfrastructure(Path run, Path project) throws IOException {
        CompletableFuture<KafkaNode> kafkaStart = CompletableFuture.completedFuture(null);
        CompletableFuture<ElasticsearchNode> esStart = CompletableFuture.completedFuture(null);
        if (externalKafka == null) {
            KafkaNode node = KafkaNode.builder(kafkaLib != null ? kafkaLib : project.resolve("infra/devstack/target/kafka-lib"),
                            run.resolve("kafka"))
                    .port(kafkaPort).controllerPort(kafkaControllerPort).heap(kafkaHeap).numPartitions(partitions)
                    .keepData(true).startTimeout(Duration.ofSeconds(startTimeoutSeconds)).shutdownHook(false).build();
            register(node);
            kafka = node;
            kafkaStart = CompletableFuture.supplyAsync(() -> startUnchecked(node::start));
        }
        if (externalEs == null) {
            Path home = esHome != null ? esHome
                    : project.resolve("infra/devstack/target/elasticsearch/elasticsearch-" + BUILD.getProperty("elasticsearch.version"));
            ElasticsearchNode node = ElasticsearchNode.builder(home, run.resolve("elasticsearch"))
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

    private void startServices(Path run, Map<String, ServiceSpec> specs) throws IOException {
        // streams-state is kept: a restarted Kafka Streams instance resumes from its local stores.
        List<ServiceProcess> launched = new ArrayList<>();
        for (ServiceSpec spec : specs.values()) {
            ServiceProcess service = new ServiceProcess(spec.name(), spec.jar(),
                    serviceJvmOptions(),
                    serviceArgs(run, spec), spec.port(), run.resolve("logs").resolve(spec.name() + ".log"),
                    pidFile(run, spec.name()));
            register(service);
            services.add(service);
            service.start();
            launched.add(service);
            if (launched.size() < specs.size()) {
                service.awaitHealthy(Duration.ofSeconds(staggerSeconds), false);
            }
        }
        for (ServiceProcess service : launched) {
            service.awaitHealthy(Duration.ofSeconds(healthTimeoutSeconds), true);
        }
    }

    /**
     * JVM options of each service: the heap, the serial collector (one GC thread on a small machine),
     * and, with {@code --quick-jit}, C1 only (faster start, lower steady-state throughput).
     */
    List<String> serviceJvmOptions() {
        List<String> options = new ArrayList<>(List.of("-Xmx" + serviceHeap, "-XX:+UseSerialGC"));
        if (quickJit) {
            options.add("-XX:TieredStopAtLevel=1");
        }
        return options;
    }

    /** The command-line arguments of one service. */
    List<String> serviceArgs(Path run, ServiceSpec spec) {
        List<String> args = new ArrayList<>(List.of("--server.port=" + spec.port(),
                // The embedded default is a local stack: services listen on loopback only.
                "--server.address=127.0.0.1",
                "--spring.kafka.bootstrap-servers=" + bootstrapServers,
                "--spring.elasticsearch.uris=" + esUri,
                // One state dir per service: two Streams instances must never share one.
                "--chainfeed.streams.state-dir=" + run.resolve("streams-state").resolve(spec.name())));
        if (spec.name().equals("api") && adminKeyHash != null) {
            // The admin key of this run (for ./chainfeed keys and the demo page), next to any configured ones.
            String configured = System.getenv("CHAINFEED_API_ADMINKEYHASHES");
            args.add("--chainfeed.api.admin-key-hashes=" + (configured == null || configured.isBlank() ? ""
                    : configured + ",") + adminKeyHash);
        }
        if (spec.name().equals("api")) {
            // Seals webhook signing secrets; one per run dir, never in the repository. An
            // environment CHAINFEED_WEBHOOKS_MASTERKEY takes precedence over the file.
            args.add("--chainfeed.webhooks.master-key-file=" + webhookMasterKeyFile(run));
        }
        args.addAll(spec.extraArgs());
        return args;
    }

    /**
     * Issues a publishable partner key for the demo page's origin through the api's admin endpoint and
     * serves the page on loopback, on {@code --demo-port}.
     */
    private void startDemo(Path run) throws IOException {
        String pageOrigin = "http://localhost:" + demoPort;
        URI api = URI.create("http://localhost:" + apiPort);
        String token;
        try {
            token = demoToken(run, new AdminKeysClient(URI.create("http://127.0.0.1:" + apiPort), AdminKey.read(run)),
                    pageOrigin);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while issuing the demo page's key", e);
        }
        if (token.isEmpty()) {
            throw new IllegalStateException("the api issued no token for the demo page's key");
        }
        DemoPartnerSite site = DemoPartnerSite.start(java.net.InetAddress.getLoopbackAddress(), demoPort, api, token,
                pageOrigin);
        register(site);
        demo = site;
    }

    /** File in the run dir keeping the demo page's partner key ({@code <id> <token>}) across runs. */
    static final String DEMO_KEY_FILE = "demo-partner.key";

    /**
     * The demo page's partner key: the one an earlier run issued, while the api still lists it as not
     * revoked; else a new one (kept in {@value #DEMO_KEY_FILE}, owner read/write only).
     */
    private static String demoToken(Path run, AdminKeysClient keys, String pageOrigin)
            throws IOException, InterruptedException {
        Path file = run.resolve(DEMO_KEY_FILE);
        if (Files.isRegularFile(file)) {
            String[] kept = Files.readString(file).strip().split("\\s+");
            if (kept.length == 2) {
                for (com.fasterxml.jackson.databind.JsonNode key : keys.list()) {
                    if (kept[0].equals(key.path("id").asText())) {
                        return kept[1];
                    }
                }
            }
        }
        com.fasterxml.jackson.databind.JsonNode created = keys.create("PARTNER", "demo partner page",
                List.of(pageOrigin), 600);
        String token = created.path("token").asText();
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, created.path("id").asText() + " " + token + "\n");
        return token;
    }

    /**
     * The webhook master key of a run dir: {@code <run>/webhook-master.key}, base64 of 32 random bytes,
     * made on first use (owner read/write only where the file system has POSIX permissions) and kept
     * across starts, so subscriptions kept on an external Kafka can still sign.
     *
     * @param run the run dir
     * @return the key file
     * @throws java.io.UncheckedIOException if it cannot be written
     */
    static Path webhookMasterKeyFile(Path run) {
        Path file = run.resolve("webhook-master.key");
        if (Files.isRegularFile(file)) {
            return file;
        }
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        try {
            Files.createDirectories(run);
            try {
                Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException e) {
                Files.createFile(file);
            }
            Files.writeString(file, java.util.Base64.getEncoder().encodeToString(key) + "\n");
            return file;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot write the webhook master key " + file, e);
        }
    }

    private static Path pidFile(Path run, String name) {
        return run.resolve("pids").resolve(name + ".pid");
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
    public java.util.Optional<KafkaNode> kafkaNode() {
        return java.util.Optional.ofNullable(kafka);
    }

    /** The embedded Elasticsearch node, or empty with {@code --external-es}. */
    public java.util.Optional<ElasticsearchNode> elasticsearchNode() {
        return java.util.Optional.ofNullable(elasticsearch);
    }

    /** Names of the supervised services, in start order. */
    public List<String> serviceNames() {
        return services.stream().map(ServiceProcess::name).toList();
    }

    /**
     * The running JVM of a service, e.g. to inject a fault.
     *
     * @param name {@code streams}, {@code ingest} or {@code api}
     * @return its process, or empty while it is down
     * @throws IllegalArgumentException for an unknown name
     */
    public java.util.Optional<ProcessHandle> serviceProcess(String name) {
        return java.util.Optional.ofNullable(service(name).handle()).filter(ProcessHandle::isAlive);
    }

    /**
     * How many times the supervisor restarted a service after it exited unexpectedly.
     *
     * @param name the service
     * @return the count since this stack started
     */
    public int serviceRestarts(String name) {
        return service(name).restarts();
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
        return service(name).restart(timeout);
    }

    private ServiceProcess service(String name) {
        return services.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no service named '" + name + "'; the services are "
                        + serviceNames()));
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
