package io.chainfeed.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle every local server process of the embedded default shares: one child
 * process per node, its pid in a file under the run dir (so a later run can stop what a
 * killed one left), an optional JVM shutdown hook, a start that polls until the node
 * answers, and a stop that sends SIGTERM to the whole process tree, waits, then kills
 * survivors. {@link Builder} holds the settings every node takes: two loopback ports, the
 * heap, the start timeout, whether data survives a restart.
 */
public abstract class LocalNode<N extends LocalNode<N>> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalNode.class);

    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);

    /** The run dir of this node: configs, data, logs, pid file. */
    protected final Path runDir;

    /** Heap, as for -Xms/-Xmx, e.g. {@code 512m}. */
    protected final String heap;

    /** Whether the data of an earlier run is kept (else wiped at start). */
    protected final boolean keepData;

    /** How long a start may take until the node answers. */
    protected final Duration startTimeout;

    private final String product;

    private final String pidFile;

    private final boolean shutdownHook;

    private final boolean ownSession;

    private final int requestedPort;

    private final int requestedSecondPort;

    private volatile int port;

    private volatile int secondPort;

    private volatile Process process;

    private volatile Thread hook;

    private volatile Duration readyAfter;

    /**
     * @param product what the node is, for log lines and errors (e.g. {@code Kafka})
     * @param pidFile file name, in the run dir, that holds the child's pid while it runs
     * @param b the settings
     */
    protected LocalNode(String product, String pidFile, Builder<?, ?> b) {
        this.product = product;
        this.runDir = b.runDir.toAbsolutePath().normalize();
        this.pidFile = pidFile;
        this.shutdownHook = b.shutdownHook;
        this.ownSession = b.ownSession;
        this.heap = b.heap;
        this.keepData = b.keepData;
        this.startTimeout = b.startTimeout;
        this.requestedPort = b.port;
        this.requestedSecondPort = b.secondPort;
    }

    /**
     * Prepares the run dir and starts the child (calling {@link #track}); must not wait
     * for readiness.
     * @return the started child
     * @throws IOException when the run dir cannot be prepared or the process not launched
     */
    protected abstract Process launch() throws IOException;

    /**
     * Waits until the node answers, typically through {@link #pollUntilReady}.
     * @param launched the child
     * @param t0 {@link System#nanoTime()} at the start, for the timeout
     * @throws IllegalStateException when the process dies or the timeout passes
     */
    protected abstract void awaitReady(Process launched, long t0);

    /**
     * @return the last lines of the node's own output and logs, for errors (empty when
     * there are none)
     */
    protected abstract String logTails();

    /**
     * One readiness check of a starting node.
     */
    @FunctionalInterface
    protected interface ReadinessCheck {

        /**
         * @return empty when the node is ready, else what this attempt saw (for the
         * timeout's error)
         * @throws Exception what the attempt ran into; it counts as "not ready yet"
         */
        Optional<String> notReadyBecause() throws Exception;

    }

    /**
     * Repeats a check every 250 ms until it passes, the child exits or
     * {@link #startTimeout} (counted from {@code t0}) passes.
     * @param launched the child
     * @param t0 {@link System#nanoTime()} at the start
     * @param waitFor what is awaited, for the error (e.g.
     * {@code Kafka listening on 127.0.0.1:19092})
     * @param check the check
     * @throws IllegalStateException when the child exits, the timeout passes or the
     * thread is interrupted; the message carries what the last attempt saw and
     * {@link #logTails()}
     */
    protected final void pollUntilReady(Process launched, long t0, String waitFor, ReadinessCheck check) {
        long deadline = t0 + startTimeout.toNanos();
        String last = "no answer yet";
        while (true) {
            if (!launched.isAlive()) {
                throw new IllegalStateException(
                        product + " exited with code " + launched.exitValue() + " before it was ready" + logTails());
            }
            try {
                Optional<String> notReady = check.notReadyBecause();
                if (notReady.isEmpty()) {
                    return;
                }
                last = notReady.get();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + product, e);
            }
            catch (Exception e) {
                last = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + waitFor + " after " + startTimeout.toSeconds() + " s (last: "
                        + last + ")" + logTails());
            }
            Processes.sleep(POLL_INTERVAL);
        }
    }

    /**
     * Launches the node ({@link #launch}: configs, data dir, child process) and waits
     * until it answers ({@link #awaitReady}); stops it again if it never does.
     * @return this node, started
     * @throws IllegalStateException when a port is taken, the process dies or the timeout
     * passes; the message carries the last lines of the node's logs
     * @throws IOException when the run dir cannot be prepared or the process not launched
     */
    public final N start() throws IOException {
        long t0 = System.nanoTime();
        Process launched = launch();
        try {
            awaitReady(launched, t0);
        }
        catch (RuntimeException e) {
            stopLaunched(launched);
            throw e;
        }
        ready(launched, t0);
        // N is the concrete class by the declaration of every subclass
        @SuppressWarnings("unchecked")
        N self = (N) this;
        return self;
    }

    /**
     * Records that a launched process answers: {@link #readyAfter()}, and a log line.
     * @param launched the process
     * @param t0 {@link System#nanoTime()} at its start
     */
    final void ready(Process launched, long t0) {
        readyAfter = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("{} ready in {} ms (pid {})", describe(), readyAfter.toMillis(), launched.pid());
    }

    /** A step of a launch that may fail with an {@link IOException}. */
    @FunctionalInterface
    protected interface LaunchStep {

        /**
         * @throws IOException when the step cannot be done
         */
        void run() throws IOException;

    }

    /**
     * The first steps every launch takes: the node must not run yet, must be installed, a
     * process an earlier run left for this run dir is stopped, and the two ports are
     * settled ({@link #choosePorts}).
     * @param requireInstalled throws {@link IllegalStateException} naming what is missing
     * and how to build it
     * @param stopStale stops an earlier run's process for this run dir
     * @param names what each port is, for errors
     * @param conflict the start of the error when both ports are the same
     * @throws IOException when a stale process cannot be stopped
     */
    protected final void beginLaunch(Runnable requireInstalled, LaunchStep stopStale, String[] names, String conflict)
            throws IOException {
        requireNotStarted();
        requireInstalled.run();
        stopStale.run();
        choosePorts(names, conflict);
    }

    /**
     * @throws IllegalStateException if the node already has a process
     */
    protected final void requireNotStarted() {
        if (process != null) {
            throw new IllegalStateException("already started");
        }
    }

    /**
     * Settles the node's two ports (each the requested one, or a free one for 0), checked
     * to differ and to be free on loopback; {@link #mainPort()} and {@link #secondPort()}
     * answer them from then on.
     * @param names what each port is, for errors (e.g. {@code Kafka broker},
     * {@code Kafka controller})
     * @param conflict the start of the error when both are the same (e.g.
     * {@code broker and controller port})
     * @throws IllegalArgumentException when both are the same
     * @throws IllegalStateException when one is taken
     */
    protected final void choosePorts(String[] names, String conflict) {
        int first = requestedPort == 0 ? LoopbackPorts.free() : requestedPort;
        int second = requestedSecondPort == 0 ? LoopbackPorts.free() : requestedSecondPort;
        if (first == second) {
            throw new IllegalArgumentException(conflict + " are both " + first);
        }
        Processes.requireFree(first, names[0], null);
        Processes.requireFree(second, names[1], null);
        port = first;
        secondPort = second;
    }

    /**
     * The node's main port (Kafka's broker port, Elasticsearch's HTTP port), once chosen
     * at start.
     */
    protected final int mainPort() {
        return port;
    }

    /**
     * The node's second port (Kafka's controller port, Elasticsearch's transport port),
     * once chosen.
     */
    protected final int secondPort() {
        return secondPort;
    }

    /**
     * Starts the child in the run dir with stdout and stderr appended to one file
     * (earlier runs' output kept) and without the caller's {@code JAVA_TOOL_OPTIONS},
     * then {@link #track tracks} it.
     * @param pb the command and environment
     * @param output the file the child's output is appended to
     * @return the started child
     * @throws IOException when the process cannot be launched or its pid file not written
     */
    protected final Process startTracked(ProcessBuilder pb, Path output) throws IOException {
        pb.directory(runDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        if (ownSession) {
            pb.command(Processes.inOwnSession(pb.command()));
        }
        return track(pb.start());
    }

    /**
     * Records a freshly started child: writes its pid file and registers the shutdown
     * hook.
     * @param started the child process
     * @return the same process
     * @throws IOException if the pid file cannot be written
     */
    protected final Process track(Process started) throws IOException {
        process = started;
        Processes.writePidFile(runDir.resolve(pidFile), started.pid());
        if (shutdownHook) {
            hook = Processes.addShutdownHook(getClass().getSimpleName() + "-stop", this::stopQuietly);
        }
        return started;
    }

    /**
     * @return e.g. {@code Kafka on port 19092}, for log lines
     */
    protected final String describe() {
        return product + " on port " + port;
    }

    /** The run dir (configs, data, logs). */
    public Path runDir() {
        return runDir;
    }

    /** How long the last start took until the node answered. */
    public Duration readyAfter() {
        return readyAfter;
    }

    /** The child process, if started. */
    public Optional<ProcessHandle> processHandle() {
        Process p = process;
        return p == null ? Optional.empty() : Optional.of(p.toHandle());
    }

    /** Whether the child process is running. */
    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /**
     * Stops the node: SIGTERM to the process tree, a graceful wait (30 s), then SIGKILL
     * for any survivor; removes the pid file. Idempotent.
     * @throws UncheckedIOException if the pid file cannot be removed
     */
    @Override
    public synchronized void close() {
        Process p = process;
        if (p == null) {
            return;
        }
        long t0 = System.nanoTime();
        // A node that died on its own is reported as such, not as one this stop took
        // down.
        boolean wasRunning = p.isAlive();
        Processes.stopTree(p, STOP_GRACE);
        forget();
        if (wasRunning) {
            LOG.info("{} stopped in {} ms (exit code {})", describe(), (System.nanoTime() - t0) / 1_000_000,
                    exitCode(p));
        }
        else {
            LOG.warn("{} was already gone (exit code {}): nothing to stop", describe(), exitCode(p));
        }
    }

    /**
     * Drops a child that has exited on its own (its pid file, its shutdown hook), so that
     * {@link #start()} may launch the node again; does nothing while the child runs.
     * @return whether there was an exited child to drop
     */
    synchronized boolean forgetExited() {
        Process p = process;
        if (p == null || p.isAlive()) {
            return false;
        }
        forget();
        return true;
    }

    private void forget() {
        process = null;
        Processes.removeShutdownHook(hook);
        hook = null;
        try {
            Files.deleteIfExists(runDir.resolve(pidFile));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The child process itself, if started: with its exit code, and for a supervisor to
     * take over a process someone else started.
     */
    Process currentProcess() {
        return process;
    }

    /**
     * The exit code once the JVM has reaped the child, which can lag the process tree's
     * stop.
     */
    static String exitCode(Process p) {
        try {
            return p.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(p.exitValue()) : "unknown";
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /**
     * Stops the process a failed {@link #start()} launched, and only that one: when the
     * node was closed meanwhile (by its supervisor, an operator's restart, a test) and
     * started again, the new process is someone else's and is left running. Before this,
     * a start that failed because a concurrent {@code close()} had stopped its process
     * (exit code 143) then closed the node's next process too.
     * @param launched the process the failed start launched
     */
    synchronized void stopLaunched(Process launched) {
        if (process == launched) {
            stopQuietly();
        }
        else if (launched.isAlive()) {
            Processes.stopTree(launched, STOP_GRACE);
        }
    }

    /**
     * {@link #close()}, logging instead of throwing; for failed starts and the shutdown
     * hook.
     */
    protected final void stopQuietly() {
        try {
            close();
        }
        catch (RuntimeException e) {
            LOG.warn("stopping {} failed", describe(), e);
        }
    }

    /**
     * The settings every node takes; a node's builder adds its own and names the two
     * ports.
     *
     * @param <B> the concrete builder, returned by each setter
     * @param <N> the node it builds
     */
    public abstract static class Builder<B extends Builder<B, N>, N extends LocalNode<N>> {

        private final Path runDir;

        private int port;

        private int secondPort;

        private String heap = "512m";

        private Duration startTimeout;

        private boolean keepData;

        private boolean shutdownHook = true;

        private boolean ownSession;

        /**
         * @param runDir where the node's configs, data and logs go
         * @param port default main port (0: a free one)
         * @param secondPort default second port (0: a free one)
         * @param startTimeout default start timeout
         */
        protected Builder(Path runDir, int port, int secondPort, Duration startTimeout) {
            this.runDir = Objects.requireNonNull(runDir, "runDir");
            this.port = port;
            this.secondPort = secondPort;
            this.startTimeout = startTimeout;
        }

        /**
         * @return this builder, as its own type
         */
        // B is the concrete builder by the declaration of every subclass
        @SuppressWarnings("unchecked")
        protected final B self() {
            return (B) this;
        }

        /** The configured, not yet started node. */
        public abstract N build();

        /** Sets the main port on 127.0.0.1 (0 picks a free one at start). */
        protected final B mainPort(int port) {
            this.port = requirePort(port);
            return self();
        }

        /** Sets the second port on 127.0.0.1 (0 picks a free one at start). */
        protected final B secondPort(int port) {
            this.secondPort = requirePort(port);
            return self();
        }

        /** Heap, as for -Xms/-Xmx, e.g. "512m" (the default). */
        public final B heap(String heap) {
            if (!heap.matches("\\d+[kKmMgG]")) {
                throw new IllegalArgumentException("heap must look like 512m, got " + heap);
            }
            this.heap = heap;
            return self();
        }

        /** How long {@code start()} waits for the node to answer. */
        public final B startTimeout(Duration timeout) {
            this.startTimeout = Objects.requireNonNull(timeout);
            return self();
        }

        /**
         * Keep the data of an earlier run instead of wiping it (default false: an empty
         * node).
         */
        public final B keepData(boolean keep) {
            this.keepData = keep;
            return self();
        }

        /**
         * Whether to register a JVM shutdown hook that stops the node (default true). A
         * caller that orders its own shutdown (such as {@link Stack}) turns it off.
         */
        public final B shutdownHook(boolean enabled) {
            this.shutdownHook = enabled;
            return self();
        }

        /**
         * Whether the node runs in a session (and process group) of its own (default
         * false): a signal to the caller's process group then does not reach it, and the
         * caller stops it in its own order ({@link Processes#inOwnSession}).
         */
        public final B ownSession(boolean enabled) {
            this.ownSession = enabled;
            return self();
        }

        private static int requirePort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            return port;
        }

    }

}
