package io.chainfeed.devstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The service JVMs of a stack (streams, ingest, api, started in that order, one or more
 * instances of each): what each runs with (jar, port, JVM options, Spring arguments) and,
 * once started, their supervised processes.
 */
final class StackServices {

    /**
     * One service to launch.
     *
     * @param name {@code streams}, {@code ingest} or {@code api}, or one instance of
     * several ({@code api-2})
     * @param jar its Spring Boot fat jar
     * @param port its HTTP port on loopback
     * @param extraArgs arguments only this service gets
     */
    record ServiceSpec(String name, Path jar, int port, List<String> extraArgs) {
    }

    /**
     * What the services connect to and how their JVMs run.
     *
     * @param bootstrapServers Kafka's bootstrap servers, comma-separated
     * ({@code host:port,...})
     * @param elasticsearch Elasticsearch's HTTP endpoints, comma-separated URLs
     * @param adminKeyHash SHA-256 of this run's admin key (given to the api), or null
     * @param heap heap of each JVM, as for -Xmx
     * @param quickJit C1 only: a faster start, a lower steady-state throughput
     * @param apiWarmup how long the api warms its JIT before it reports ready (a
     * duration, {@code 0s}: not at all)
     * @param clusterArgs arguments every service gets on a cluster (topic partitions and
     * replication factor); empty for the embedded default, whose services use their
     * defaults
     * @param apiJvmOptions options every api JVM gets after the common ones (so a later
     * {@code -Xmx} or collector wins); empty: none
     */
    record Wiring(String bootstrapServers, String elasticsearch, String adminKeyHash, String heap, boolean quickJit,
            String apiWarmup, List<String> clusterArgs, List<String> apiJvmOptions) {
        Wiring {
            clusterArgs = List.copyOf(clusterArgs);
            apiJvmOptions = List.copyOf(apiJvmOptions);
        }
    }

    private final Map<String, ServiceSpec> specs;

    private final List<Supervisor> started = new CopyOnWriteArrayList<>();

    /**
     * @param specs the services in start order
     */
    StackServices(Map<String, ServiceSpec> specs) {
        this.specs = Collections.unmodifiableMap(new LinkedHashMap<>(specs));
    }

    /**
     * The services of a project checkout, in start order: the streams instances (they
     * consume), then the ingest instances (the first loads the corpus and, unless told
     * not to, the bundled history), then the api instances (they serve). Each api
     * instance asks the streams instance of the same number for the chain as of a past
     * instant. Every api instance may deliver webhooks: each subscription goes to one of
     * them through the lease's consumer group.
     * @param project the checkout holding
     * {@code <module>/target/chainfeed-<module>-<version>-exec.jar}
     * @param version the project version
     * @param layout the instances and their ports
     * @param streamsArgs arguments only the streams instances get (e.g. standby replicas
     * on a cluster)
     * @param history whether the first ingest instance loads the bundled history
     */
    static StackServices of(Path project, String version, StackLayout layout, List<String> streamsArgs,
            boolean history) {
        Map<String, ServiceSpec> specs = new LinkedHashMap<>();
        Map<String, List<Integer>> ports = layout.servicePorts();
        for (String service : StackLayout.SERVICES) {
            for (int i = 0; i < ports.get(service).size(); i++) {
                String name = layout.instanceName(service, i);
                List<String> extra = new ArrayList<>();
                switch (service) {
                    case "streams" -> extra.addAll(streamsArgs);
                    case "ingest" -> {
                        if (i == 0) {
                            extra.add("--chainfeed.ingest.load-corpus=true");
                            if (history) {
                                extra.add("--chainfeed.ingest.load-history=true");
                            }
                        }
                    }
                    default -> {
                        // The api asks streams for the chain as of a past instant
                        // (interactive queries on its port): its own instance first,
                        // then the others (each forwards to the stores' owner).
                        List<Integer> streamsPorts = ports.get("streams");
                        List<String> urls = new ArrayList<>();
                        for (int k = 0; k < streamsPorts.size(); k++) {
                            urls.add("http://127.0.0.1:" + streamsPorts.get((i + k) % streamsPorts.size()));
                        }
                        extra.add("--chainfeed.api.streams.base-url=" + String.join(",", urls));
                    }
                }
                specs.put(name,
                        new ServiceSpec(name, jar(project, service, version), ports.get(service).get(i), extra));
            }
        }
        return new StackServices(specs);
    }

    private static Path jar(Path project, String module, String version) {
        return project.resolve(module).resolve("target").resolve("chainfeed-" + module + "-" + version + "-exec.jar");
    }

    /** The specs, in start order. */
    Map<String, ServiceSpec> specs() {
        return specs;
    }

    /**
     * @throws IllegalStateException naming every missing jar and how to build them
     */
    void requireJars() {
        List<String> missing = specs.values()
            .stream()
            .filter(s -> !Files.isRegularFile(s.jar()))
            .map(s -> s.jar().toString())
            .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("missing service jar(s): " + String.join(", ", missing)
                    + ". Build them from the project dir with: mvn -B -DskipTests install"
                    + " (or start only Kafka and Elasticsearch with --no-services)");
        }
    }

    /**
     * Stops the service JVMs an earlier, killed run of this run dir left behind.
     * @throws IOException when a pid file cannot be read
     */
    void stopStale(RunDir run) throws IOException {
        for (ServiceSpec spec : specs.values()) {
            ServiceProcess.stopStale(spec.name(), spec.jar(), run.root(), run.pidFile(spec.name()));
        }
    }

    /**
     * JVM options of one service: the heap, the serial collector (one GC thread on a
     * small machine), with {@code quickJit} C1 only (faster start, lower steady-state
     * throughput), and for an api instance {@link Wiring#apiJvmOptions()} last.
     * @param wiring the run's wiring
     * @param service the service's name ({@code api}, {@code api-1}, {@code ingest} ...)
     * @return the options, in order
     */
    static List<String> jvmOptions(Wiring wiring, String service) {
        List<String> options = new ArrayList<>(List.of("-Xmx" + wiring.heap(), "-XX:+UseSerialGC"));
        if (wiring.quickJit()) {
            options.add("-XX:TieredStopAtLevel=1");
        }
        if (service.startsWith("api")) {
            options.addAll(wiring.apiJvmOptions());
        }
        return options;
    }

    /** The command-line arguments of one service. */
    static List<String> args(RunDir run, ServiceSpec spec, Wiring wiring) {
        List<String> args = new ArrayList<>(List.of("--server.port=" + spec.port(),
                // The embedded default is a local stack: services listen on loopback
                // only.
                "--server.address=127.0.0.1", "--spring.kafka.bootstrap-servers=" + wiring.bootstrapServers(),
                "--spring.elasticsearch.uris=" + wiring.elasticsearch(),
                // Instances sharing an application.id each need a state dir of their own.
                "--chainfeed.streams.state-dir=" + run.streamsState(spec.name())));
        args.addAll(wiring.clusterArgs());
        if (spec.name().startsWith("api")) {
            if (wiring.adminKeyHash() != null) {
                // The admin key of this run (for ./chainfeed keys and the demo page),
                // next to any configured ones.
                String configured = System.getenv("CHAINFEED_API_ADMINKEYHASHES");
                args.add("--chainfeed.api.admin-key-hashes="
                        + (configured == null || configured.isBlank() ? "" : configured + ",") + wiring.adminKeyHash());
            }
            // Seals webhook signing secrets; one per run dir, never in the repository. An
            // environment CHAINFEED_WEBHOOKS_MASTERKEY takes precedence over the file.
            args.add("--chainfeed.webhooks.master-key-file=" + run.webhookMasterKeyFile());
            // The api warms its JIT before it reports ready (support.server.Warmup).
            args.add("--chainfeed.api.warmup.duration=" + wiring.apiWarmup());
        }
        args.addAll(spec.extraArgs());
        return args;
    }

    /**
     * Starts the services in order, each under a {@link Supervisor}: each one when the
     * previous is healthy or after {@code stagger}, then waits for all of them.
     * streams-state is kept: a restarted Kafka Streams instance resumes from its local
     * stores.
     * @param healthTimeout how long each service may take to be healthy, at this start
     * and after a restart by its supervisor
     * @param register called with each service's supervisor before it starts, so a failed
     * start still stops it
     * @param stop the stack's stop, after which the supervisors restart nothing
     * @throws IllegalStateException when a service is not healthy within
     * {@code healthTimeout}
     * @throws IOException when a JVM cannot be launched
     */
    void start(RunDir run, Wiring wiring, Duration stagger, Duration healthTimeout, Consumer<AutoCloseable> register,
            StackStop stop) throws IOException {
        for (ServiceSpec spec : specs.values()) {
            ServiceProcess service = new ServiceProcess(spec.name(), spec.jar(), jvmOptions(wiring, spec.name()),
                    args(run, spec, wiring), spec.port(), run.serviceLog(spec.name()), run.pidFile(spec.name()));
            Supervisor supervisor = new Supervisor(spec.name(), service, RestartPolicy.DEFAULT, healthTimeout, stop);
            register.accept(supervisor);
            started.add(supervisor);
            supervisor.start();
            if (started.size() < specs.size()) {
                supervisor.awaitReady(stagger, false);
            }
        }
        for (Supervisor supervisor : started) {
            supervisor.awaitReady(healthTimeout, true);
        }
    }

    /** The supervisors of the started services, in start order. */
    List<Supervisor> supervisors() {
        return List.copyOf(started);
    }

    /** Names of the started services, in start order. */
    List<String> names() {
        return started.stream().map(Supervisor::name).toList();
    }

    /** The running JVM of a service, or empty while it is down. */
    Optional<ProcessHandle> process(String name) {
        return service(name).process();
    }

    /** How many times the supervisor restarted a service after it exited unexpectedly. */
    int restarts(String name) {
        return service(name).restarts();
    }

    private Supervisor service(String name) {
        return started.stream()
            .filter(s -> s.name().equals(name))
            .findFirst()
            .orElseThrow(
                    () -> new IllegalArgumentException("no service named '" + name + "'; the services are " + names()));
    }

}
