package io.chainfeed.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle every local server process of the embedded default shares: one child process per
 * node, its pid in a file under the run dir (so a later run can stop what a killed one left), an
 * optional JVM shutdown hook, and a stop that sends SIGTERM to the whole process tree, waits, then
 * kills survivors.
 */
public abstract class LocalNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalNode.class);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    /** The run dir of this node: configs, data, logs, pid file. */
    protected final Path runDir;
    private final String pidFile;
    private final boolean shutdownHook;
    private volatile Process process;
    private volatile Thread hook;
    private volatile Duration readyAfter;

    /**
     * @param runDir       run dir of the node
     * @param pidFile      file name, in the run dir, that holds the child's pid while it runs
     * @param shutdownHook whether a JVM shutdown hook stops the node
     */
    protected LocalNode(Path runDir, String pidFile, boolean shutdownHook) {
        this.runDir = runDir;
        this.pidFile = pidFile;
        this.shutdownHook = shutdownHook;
    }

    /** @return e.g. {@code Kafka on port 19092}, for log lines */
    protected abstract String describe();

    /**
     * Prepares the run dir and starts the child (calling {@link #track}); must not wait for readiness.
     *
     * @return the started child
     * @throws IOException when the run dir cannot be prepared or the process not launched
     */
    protected abstract Process launch() throws IOException;

    /**
     * Waits until the node answers.
     *
     * @param launched the child
     * @param t0       {@link System#nanoTime()} at the start, for the timeout
     * @throws IllegalStateException when the process dies or the timeout passes
     */
    protected abstract void awaitReady(Process launched, long t0);

    /**
     * Launches the node and waits until it answers; stops it again if it never does.
     *
     * @throws IllegalStateException when a port is taken, the process dies or the timeout passes
     * @throws IOException           when the run dir cannot be prepared or the process not launched
     */
    protected final void launchAndAwait() throws IOException {
        long t0 = System.nanoTime();
        Process launched = launch();
        try {
            awaitReady(launched, t0);
        } catch (RuntimeException e) {
            stopQuietly();
            throw e;
        }
        readyAfter = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("{} ready in {} ms (pid {})", describe(), readyAfter.toMillis(), launched.pid());
    }

    /** @throws IllegalStateException if the node already has a process */
    protected final void requireNotStarted() {
        if (process != null) {
            throw new IllegalStateException("already started");
        }
    }

    /**
     * The two ports of a node (each the requested one, or a free one for 0), checked to differ and to be
     * free on loopback.
     *
     * @param requested    the requested ports, 0 for any free one
     * @param names        what each port is, for errors (e.g. {@code Kafka broker})
     * @param conflict     the start of the error when both are the same (e.g. {@code broker and controller port})
     * @return the two ports, in the order given
     * @throws IllegalArgumentException when both are the same
     * @throws IllegalStateException    when one is taken
     */
    protected static int[] choosePorts(int[] requested, String[] names, String conflict) {
        int first = requested[0] == 0 ? Processes.freePort() : requested[0];
        int second = requested[1] == 0 ? Processes.freePort() : requested[1];
        if (first == second) {
            throw new IllegalArgumentException(conflict + " are both " + first);
        }
        Processes.requireFree(first, names[0], null);
        Processes.requireFree(second, names[1], null);
        return new int[] {first, second};
    }

    /**
     * Starts the child in the run dir with stdout and stderr appended to one file (earlier runs' output
     * kept) and without the caller's
     * {@code JAVA_TOOL_OPTIONS}, then {@link #track tracks} it.
     *
     * @param pb     the command and environment
     * @param output the file the child's output is appended to
     * @return the started child
     * @throws IOException when the process cannot be launched or its pid file not written
     */
    protected final Process startTracked(ProcessBuilder pb, Path output) throws IOException {
        pb.directory(runDir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        return track(pb.start());
    }

    /**
     * Records a freshly started child: writes its pid file and registers the shutdown hook.
     *
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
     * Stops the node: SIGTERM to the process tree, a graceful wait (30 s), then SIGKILL for any
     * survivor; removes the pid file. Idempotent.
     *
     * @throws UncheckedIOException if the pid file cannot be removed
     */
    @Override
    public synchronized void close() {
        Process p = process;
        if (p == null) {
            return;
        }
        long t0 = System.nanoTime();
        Processes.stopTree(p, STOP_GRACE);
        process = null;
        Processes.removeShutdownHook(hook);
        hook = null;
        try {
            Files.deleteIfExists(runDir.resolve(pidFile));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LOG.info("{} stopped in {} ms", describe(), (System.nanoTime() - t0) / 1_000_000);
    }

    /** {@link #close()}, logging instead of throwing; for failed starts and the shutdown hook. */
    protected final void stopQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            LOG.warn("stopping {} failed", describe(), e);
        }
    }
}
