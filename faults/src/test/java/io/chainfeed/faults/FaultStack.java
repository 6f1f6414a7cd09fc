package io.chainfeed.faults;

import io.chainfeed.devstack.LoopbackPorts;
import io.chainfeed.devstack.Stack;
import io.chainfeed.devstack.keys.AdminKey;
import io.chainfeed.devstack.keys.AdminKeysClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default as the fault tests run it: the launcher ({@link Stack}) in this
 * JVM, starting the real Kafka, Elasticsearch and the three service JVMs from the built
 * jars, on free loopback ports kept for the whole test (so a stop and start finds the
 * same addresses), with its run dir under {@code target/}. Small heaps: two cores and
 * several stacks share the machine.
 *
 * <p>
 * Needs the environment the failsafe configuration sets: the hash of {@link #EDITOR_KEY}
 * as ingest's editor key, and webhooks allowed to loopback targets.
 */
public final class FaultStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FaultStack.class);

    /**
     * The editor key the tests post signals with (ingest is given its SHA-256 through the
     * environment).
     */
    public static final String EDITOR_KEY = "fault-editor-key";

    private final Path runDir;

    private final List<String> args;

    private Stack stack;

    private Duration lastStart;

    private FaultStack(Path runDir, List<String> args) {
        this.runDir = runDir;
        this.args = args;
    }

    /**
     * Starts an empty stack ({@code --fresh}) in a run dir.
     * @param name the run dir's name under {@code chainfeed.fault.run.dir}
     * @return the running stack
     * @throws IOException when it does not start
     */
    public static FaultStack startFresh(String name) throws IOException {
        List<String> args = new ArrayList<>();
        for (String option : List.of("--kafka-port", "--kafka-controller-port", "--es-port", "--es-transport-port",
                "--api-port", "--ingest-port", "--streams-port")) {
            args.add(option);
            args.add(Integer.toString(LoopbackPorts.free()));
        }
        return start(name, args);
    }

    /**
     * Starts an empty local cluster ({@code --cluster --fresh}): three brokers, two
     * Elasticsearch nodes, two instances of each service, on the ports of a port base.
     * @param name the run dir's name under {@code chainfeed.fault.run.dir}
     * @param portBase the first of the ports (see {@code --port-base})
     * @return the running cluster
     * @throws IOException when it does not start
     */
    public static FaultStack startCluster(String name, int portBase) throws IOException {
        return start(name, List.of("--cluster", "--port-base", Integer.toString(portBase), "--partitions", "6"));
    }

    private static FaultStack start(String name, List<String> layout) throws IOException {
        Path runDir = Path.of(System.getProperty("chainfeed.fault.run.dir", "target/fault-run"))
            .resolve(name)
            .toAbsolutePath()
            .normalize();
        Path project = Path.of(System.getProperty("chainfeed.project.dir", "..")).toAbsolutePath().normalize();
        List<String> args = new ArrayList<>(List.of("--run-dir", runDir.toString(), "--project-dir", project.toString(),
                "--no-demo", "--quick-jit", "--kafka-heap", "256m", "--es-heap", "384m", "--service-heap", "256m",
                // The machine is shared: starts can be slow; a start that never comes
                // still fails.
                "--start-timeout-seconds", "480", "--health-timeout-seconds", "480", "--stagger-seconds", "60"));
        args.addAll(layout);
        FaultStack fs = new FaultStack(runDir, List.copyOf(args));
        fs.start(true);
        return fs;
    }

    private Duration start(boolean fresh) throws IOException {
        long t0 = System.nanoTime();
        List<String> a = new ArrayList<>(args);
        if (fresh) {
            a.add("--fresh");
        }
        stack = Stack.fromArgs(a.toArray(String[]::new)).start();
        Duration took = ProcessControl.since(t0);
        LOG.info("stack up in {} ms (run dir {})", took.toMillis(), runDir);
        lastStart = took;
        return took;
    }

    /**
     * Stops the whole stack (as Ctrl-C does) and starts it again on the same run dir and
     * ports, keeping the data.
     * @return how long the start took, until every service was healthy
     * @throws IOException when it does not start again
     */
    public Duration stopAndStart() throws IOException {
        stack.close();
        return start(false);
    }

    /** How long the last start took, until every service was healthy. */
    public Duration lastStart() {
        return lastStart;
    }

    /** The running launcher. */
    public Stack stack() {
        return stack;
    }

    /** The api's base URI. */
    public URI api() {
        return stack.apiUri();
    }

    /** The ingest service's base URI. */
    public URI ingest() {
        return stack.ingestUri();
    }

    /** Kafka's bootstrap servers. */
    public String bootstrapServers() {
        return stack.bootstrapServers();
    }

    /** Elasticsearch's HTTP endpoint. */
    public URI elasticsearch() {
        return stack.elasticsearchUri();
    }

    /** The run dir. */
    public Path runDir() {
        return runDir;
    }

    /** A client of the api's key administration under the run's admin key. */
    public AdminKeysClient adminKeys() throws IOException {
        return new AdminKeysClient(api(), AdminKey.read(runDir));
    }

    /**
     * The running JVM of a service.
     * @param service {@code streams}, {@code ingest} or {@code api}
     * @throws IllegalStateException while it is down
     */
    public ProcessHandle service(String service) {
        return stack.serviceProcess(service).orElseThrow(() -> new IllegalStateException(service + " is not running"));
    }

    @Override
    public void close() {
        if (stack != null) {
            stack.close();
        }
    }

    /**
     * Closes a fault test's resources in the order given, passing over those a failed
     * start never opened (null).
     * @param resources what the test opened, e.g. its webhook receiver, then its stack
     * @throws Exception when one cannot be closed
     */
    public static void closeInOrder(AutoCloseable... resources) throws Exception {
        for (AutoCloseable r : resources) {
            if (r != null) {
                r.close();
            }
        }
    }

}
