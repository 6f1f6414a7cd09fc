package io.chainfeed.devstack;

import io.chainfeed.devstack.demo.DemoPartnerKey;
import io.chainfeed.devstack.demo.DemoPartnerSite;
import io.chainfeed.devstack.keys.AdminKey;
import io.chainfeed.devstack.keys.AdminKeysClient;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The embedded default: starts a real Kafka (KRaft) and a real Elasticsearch on loopback,
 * creates the topics and the reads index, then the streams, ingest and api services
 * (Spring Boot fat jars, as child JVMs), issues a partner key and serves a demo partner
 * page on another port (unless {@code --no-demo}), prints the URLs and blocks. Ctrl-C
 * (SIGINT) or SIGTERM, to the launcher or to its whole process group, stops everything it
 * started in reverse order (the services, then Kafka, then Elasticsearch; its children
 * run in sessions of their own, so a signal to the group reaches the launcher only); a
 * second one forces (SIGKILL). Kafka, Elasticsearch and the services are supervised, each
 * by a {@link Supervisor}: restarted after an unexpected exit.
 *
 * <p>
 * Run it from the project dir after {@code mvn -B -DskipTests install}: <pre>
 * java -jar infra/devstack/target/chainfeed-devstack-0.1.0-SNAPSHOT-launcher.jar [--no-services] [--help]
 * </pre> (equivalently
 * {@code java -cp 'infra/devstack/target/chainfeed-devstack-0.1.0-SNAPSHOT-launcher.jar:infra/devstack/target/infra-lib/*'
 * io.chainfeed.devstack.Stack}). This class holds the start order, the banner and the
 * stop; {@link StackOptions} the options, their defaults and which ports they claim;
 * {@link RunDir} says where a run keeps its files (the data in it is kept across runs
 * unless {@code --fresh}; processes left by a killed earlier run are stopped first),
 * {@link StackServices} what each service JVM runs with. Services that exit unexpectedly
 * are restarted ({@link RestartPolicy}); {@link StackControl} takes requests to restart
 * one.
 *
 * <p>
 * With {@code --cluster} the same launcher runs a local cluster
 * ({@link StackLayout#cluster}): three KRaft brokers, three Elasticsearch nodes and two
 * instances of each service, started by {@link StackInfrastructure} and
 * {@link StackServices} as the single stack is; docs/cluster.md says what changes.
 */
@Command(name = "chainfeed-stack", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs Kafka, Elasticsearch and the chainfeed services on this machine.")
public final class Stack implements Callable<Integer>, AutoCloseable {

    static {
        // Before the first logger exists: slf4j-simple reads these once (the launcher's
        // own class path only).
        setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
    }

    private static final Logger LOG = LoggerFactory.getLogger(Stack.class);

    /** The options, set by picocli ({@link #main}, {@link #fromArgs}). */
    @Mixin
    final StackOptions options = new StackOptions();

    private final List<AutoCloseable> started = new ArrayList<>();

    private final StackStop stop = new StackStop();

    private final AtomicInteger stopSignals = new AtomicInteger();

    private volatile boolean closed;

    private StackInfrastructure infra;

    /** The services, once {@link #start} has read the options (none before). */
    private volatile StackServices services = new StackServices(Map.of());

    private DemoPartnerSite demo;

    private Thread hook;

    private final PrintStream console;

    /**
     * A stack with the default options; set them through picocli ({@link #main}) or
     * {@link #fromArgs}.
     */
    public Stack() {
        this(System.out);
    }

    Stack(PrintStream console) {
        this.console = console;
    }

    /**
     * Parses command-line options into a stack that is not started yet (for tests and
     * embedding).
     * @param args the same options as {@link #main}
     */
    public static Stack fromArgs(String... args) {
        Stack stack = new Stack();
        new CommandLine(stack).parseArgs(args);
        return stack;
    }

    /**
     * Starts everything, prints the URLs and blocks until the JVM is stopped (Ctrl-C /
     * SIGTERM).
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
        handleStopSignals();
        start();
        new CountDownLatch(1).await();
        return 0;
    }

    /**
     * Takes SIGINT and SIGTERM from the JVM's default handling: the first marks the stop
     * as begun at once (so that no supervisor restarts a child the same signal ended,
     * when the whole process group was signalled) and exits, which runs the shutdown hook
     * that stops everything in order; a second one while that runs kills every child with
     * SIGKILL and halts.
     */
    // sun.misc.Signal (jdk.unsupported): the JDK's only handler for SIGINT/SIGTERM
    @SuppressWarnings("restriction")
    private void handleStopSignals() {
        for (String name : List.of("INT", "TERM")) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), this::onStopSignal);
            }
            catch (IllegalArgumentException e) {
                LOG.debug("cannot handle SIG{} (the JVM runs with -Xrs?): {}", name, e.getMessage());
            }
        }
    }

    @SuppressWarnings("restriction")
    private void onStopSignal(sun.misc.Signal signal) {
        int exitCode = 128 + signal.getNumber();
        if (stopSignals.incrementAndGet() == 1) {
            stop.begin();
            LOG.info("SIG{} received: stopping the services (api, ingest, streams), then Kafka, then Elasticsearch;"
                    + " Ctrl-C again forces", signal.getName());
            // System.exit blocks until the shutdown hooks are done: not on the signal's
            // thread.
            Thread exit = new Thread(() -> System.exit(exitCode), "chainfeed-stack-exit");
            exit.start();
            return;
        }
        LOG.warn("SIG{} received again: killing every process of the stack (SIGKILL)", signal.getName());
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        Runtime.getRuntime().halt(exitCode);
    }

    /**
     * Starts Kafka and Elasticsearch (in parallel, unless external), sets up topics and
     * the reads index, and starts the services (unless {@code --no-services}). On failure
     * everything started so far is stopped.
     * @return this stack, running
     * @throws IllegalStateException on a missing jar, a taken port, or a component that
     * does not start
     */
    public Stack start() throws IOException {
        long t0 = System.nanoTime();
        RunDir run = new RunDir(runDir());
        Path project = options.projectDir.toAbsolutePath().normalize();
        StackLayout layout = layout();
        infra = new StackInfrastructure(layout, options.infrastructureSettings(project));
        services = serviceSpecs(project);
        if (!options.noServices) {
            services.requireJars();
        }
        hook = Processes.addShutdownHook("chainfeed-stack-stop", this::close);
        try {
            Files.createDirectories(run.root());
            stopStaleProcesses(run);
            if (options.fresh) {
                run.deleteKeptData();
            }
            options.requirePortsFree();
            infra.start(run, this::register, stop);
            infra.setUpTopicsAndIndex();
            if (!options.noServices) {
                services.start(run, wiring(run), options.stagger(), options.healthTimeout(), this::register, stop);
                SearchWarmUp.warm(apiUri(), Duration.ofSeconds(30));
                if (!options.noDemo) {
                    startDemo(run);
                }
            }
            register(StackControl.listen(run.root(), this));
        }
        catch (IOException | RuntimeException | Error e) {
            close();
            throw e;
        }
        printBanner(run.root(), layout, Duration.ofNanos(System.nanoTime() - t0));
        return this;
    }

    /** Where everything listens ({@link StackOptions#layout}). */
    StackLayout layout() {
        return options.layout();
    }

    /** The services of this stack's options, in start order (not started). */
    StackServices serviceSpecs(Path project) {
        return options.serviceSpecs(project);
    }

    /**
     * What the services connect to and run with; makes this run's admin key on first use.
     */
    StackServices.Wiring wiring(RunDir run) throws IOException {
        return options.wiring(run, bootstrapServers(), elasticsearchUris());
    }

    private void stopStaleProcesses(RunDir run) throws IOException {
        services.stopStale(run);
        StackLayout layout = layout();
        int brokers = layout.kafkaPorts().size();
        int esNodes = layout.esHttpPorts().size();
        for (int i = 1; options.externalKafka == null && i <= brokers; i++) {
            KafkaNode.stopStale(run.kafka(i, brokers));
        }
        for (int i = 1; options.externalEs == null && i <= esNodes; i++) {
            ElasticsearchNode.stopStale(run.elasticsearch(i, esNodes));
        }
    }

    /**
     * Issues a publishable partner key for the demo page's origin through the api's admin
     * endpoint and serves the page on loopback, on {@code --demo-port}.
     */
    private void startDemo(RunDir run) throws IOException {
        int demoPort = layout().demoPort();
        String pageOrigin = "http://localhost:" + demoPort;
        String token;
        try {
            token = DemoPartnerKey.token(run.root(), new AdminKeysClient(apiUri(), AdminKey.read(run.root())),
                    pageOrigin);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while issuing the demo page's key", e);
        }
        DemoPartnerSite site = DemoPartnerSite.start(InetAddress.getLoopbackAddress(), demoPort,
                URI.create("http://localhost:" + apiPort()), token, pageOrigin);
        register(site);
        demo = site;
    }

    private synchronized void register(AutoCloseable component) {
        if (closed) {
            throw new IllegalStateException("stack is stopping");
        }
        started.add(component);
    }

    private void printBanner(Path run, StackLayout layout, Duration took) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nchainfeed is up in %.1f s%n", took.toMillis() / 1000.0));
        if (!options.noServices) {
            int api = apiPort();
            out.append(String
                .format("  web      http://localhost:%d/ (search), http://localhost:%d/chain (chain map)%n", api, api));
            Map<String, String> paths = Map.of("api", "/api/v1/search?q=rdma", "ingest", "/ingest/v1/pages", "streams",
                    "/actuator/health");
            for (String service : List.of("api", "ingest", "streams")) {
                List<Integer> ports = layout.servicePorts().get(service);
                for (int i = 0; i < ports.size(); i++) {
                    out.append(String.format("  %-8s http://localhost:%d%s%n", layout.instanceName(service, i),
                            ports.get(i), paths.get(service)));
                }
            }
            if (demo != null) {
                out.append(String.format(
                        "  demo     http://localhost:%d/ (a partner page on another origin embedding the widgets;"
                                + " http://127.0.0.1:%d/ is an origin its key does not allow)%n",
                        demo.port(), demo.port()));
            }
            out.append(String.format(
                    "  restart  ./chainfeed restart %s%s (one part; a part that exits is restarted"
                            + " on its own; ./chainfeed status says what each is doing)%n",
                    parts().stream().map(Supervisor::name).collect(Collectors.joining("|")),
                    options.cluster ? " --run-dir " + run : ""));
            out.append(
                    String.format("  keys     ./chainfeed keys create --kind partner --origin https://partner.example"
                            + " --label NAME (admin key in %s)%n", run.resolve(AdminKey.FILE)));
        }
        out.append(String.format("  ES       %s%s%n", infra.elasticsearchUris(),
                StackInfrastructure.readyAfter(infra.elasticsearchNodes())));
        out.append(String.format("  Kafka    %s%s%n", infra.bootstrapServers(),
                StackInfrastructure.readyAfter(infra.brokers())));
        out.append(String.format("  run dir  %s (logs in %s)%n", run, run.resolve("logs")));
        out.append("Press Ctrl-C to stop.\n");
        console.print(out);
        console.flush();
    }

    /**
     * Kafka's bootstrap servers (the embedded brokers' or the external ones,
     * comma-separated), once started.
     */
    public String bootstrapServers() {
        return infra == null ? null : infra.bootstrapServers();
    }

    /**
     * Elasticsearch's HTTP endpoint (the first embedded node's or external URL), once
     * started.
     */
    public URI elasticsearchUri() {
        return infra == null ? null : StackInfrastructure.first(infra.elasticsearchUris());
    }

    /** Every Elasticsearch HTTP endpoint, comma-separated, once started. */
    public String elasticsearchUris() {
        return infra == null ? null : infra.elasticsearchUris();
    }

    private int apiPort() {
        return layout().servicePorts().get("api").get(0);
    }

    /** The (first) api's base URI ({@code http://127.0.0.1:<api port>}). */
    public URI apiUri() {
        return serviceUri(layout().instanceName("api", 0));
    }

    /** The (first) ingest service's base URI. */
    public URI ingestUri() {
        return serviceUri(layout().instanceName("ingest", 0));
    }

    /** The (first) streams service's base URI (actuator). */
    public URI streamsUri() {
        return serviceUri(layout().instanceName("streams", 0));
    }

    /**
     * The base URI of one service instance.
     * @param name e.g. {@code api}, or {@code api-2} on a cluster
     * @return {@code http://127.0.0.1:<its port>}
     * @throws IllegalArgumentException for an unknown name
     */
    public URI serviceUri(String name) {
        StackLayout layout = layout();
        for (String service : StackLayout.SERVICES) {
            List<Integer> ports = layout.servicePorts().get(service);
            for (int i = 0; i < ports.size(); i++) {
                if (layout.instanceName(service, i).equals(name)) {
                    return URI.create("http://127.0.0.1:" + ports.get(i));
                }
            }
        }
        throw new IllegalArgumentException("no service instance named '" + name + "'");
    }

    /**
     * The run dir, absolute ({@code --run-dir}; {@code .run}, or {@code .run-cluster}
     * with {@code --cluster}).
     */
    public Path runDir() {
        return options.runDir();
    }

    /** The (first) embedded Kafka broker, or empty with {@code --external-kafka}. */
    public Optional<KafkaNode> kafkaNode() {
        return infra == null ? Optional.empty() : infra.firstBroker();
    }

    /**
     * The embedded Kafka brokers by node id (one, or three with {@code --cluster}); empty
     * when external.
     */
    public List<KafkaNode> kafkaNodes() {
        return infra == null ? List.of() : infra.brokers();
    }

    /** The (first) embedded Elasticsearch node, or empty with {@code --external-es}. */
    public Optional<ElasticsearchNode> elasticsearchNode() {
        return infra == null ? Optional.empty() : infra.firstElasticsearchNode();
    }

    /**
     * The embedded Elasticsearch nodes (one, or two with {@code --cluster}); empty when
     * external.
     */
    public List<ElasticsearchNode> elasticsearchNodes() {
        return infra == null ? List.of() : infra.elasticsearchNodes();
    }

    /** Names of the supervised services, in start order. */
    public List<String> serviceNames() {
        return services.names();
    }

    /**
     * The running JVM of a service, e.g. to inject a fault.
     * @param name {@code streams}, {@code ingest} or {@code api}
     * @return its process, or empty while it is down
     * @throws IllegalArgumentException for an unknown name
     */
    public Optional<ProcessHandle> serviceProcess(String name) {
        return services.process(name);
    }

    /**
     * How many times the supervisor restarted a service after it exited unexpectedly.
     * @param name the service
     * @return the count since this stack started
     */
    public int serviceRestarts(String name) {
        return services.restarts(name);
    }

    /**
     * Restarts one service or one embedded Kafka broker or Elasticsearch node (SIGTERM,
     * then a new process) and waits until it is healthy.
     * @param name the service ({@code streams}, {@code ingest}, {@code api}) or node
     * ({@code kafka}, {@code elasticsearch}; {@code kafka-2}, {@code elasticsearch-2} on
     * a cluster)
     * @param timeout how long a service may take to be healthy (a node has its start
     * timeout)
     * @return how long the restart took
     * @throws IllegalArgumentException for an unknown name
     * @throws IllegalStateException when it does not become healthy in time, or the stack
     * is stopping
     * @throws IOException when the process cannot be launched
     */
    public Duration restartService(String name, Duration timeout) throws IOException {
        return part(name)
            .orElseThrow(() -> new IllegalArgumentException("no service named '" + name + "'; the parts are "
                    + parts().stream().map(Supervisor::name).toList()))
            .restart(timeout);
    }

    /**
     * What each part of the stack is doing: every embedded broker and node, then every
     * service, each with its state ({@code up}, {@code starting}, {@code restarting},
     * {@code crash loop}, ...) and why.
     * @return part name to status, in start order
     */
    public Map<String, SupervisedStatus> status() {
        Map<String, SupervisedStatus> status = new LinkedHashMap<>();
        parts().forEach(s -> status.put(s.name(), s.status()));
        return status;
    }

    /**
     * How many times the supervisor restarted a Kafka broker or an Elasticsearch node
     * after it exited unexpectedly.
     * @param name {@code kafka} or {@code elasticsearch} (a cluster's: {@code kafka-2},
     * ...)
     * @return the count since this stack started
     * @throws IllegalArgumentException for an unknown name
     */
    public int nodeRestarts(String name) {
        return (infra == null ? List.<Supervisor>of() : infra.supervisors()).stream()
            .filter(s -> s.name().equals(name))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no node named '" + name + "'"))
            .restarts();
    }

    /** The supervised parts: the embedded brokers and nodes, then the services. */
    private List<Supervisor> parts() {
        List<Supervisor> parts = new ArrayList<>(infra == null ? List.of() : infra.supervisors());
        parts.addAll(services.supervisors());
        return parts;
    }

    private Optional<Supervisor> part(String name) {
        return parts().stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /**
     * Stops everything this stack started, in reverse order: the demo page and the
     * services (api, ingest, streams), then Kafka, then Elasticsearch. Nothing is
     * restarted from the first moment of the stop.
     */
    @Override
    public void close() {
        stop.begin();
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
            }
            catch (Exception e) {
                LOG.warn("stopping {} failed: {}", toStop.get(i), e.toString());
            }
        }
        Processes.removeShutdownHook(hook);
        if (!toStop.isEmpty()) {
            LOG.info("chainfeed stack stopped in {} ms", (System.nanoTime() - t0) / 1_000_000);
        }
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

}
