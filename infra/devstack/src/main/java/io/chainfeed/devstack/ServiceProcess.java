package io.chainfeed.devstack;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Spring Boot fat jar run as a child JVM by {@link Stack}, with its health check, its
 * logs and its supervision: when the JVM exits without being asked to, it is started
 * again after the backoff of a {@link RestartPolicy}, until the policy calls it a crash
 * loop (then it stays down, and says so).
 *
 * <p>
 * Logs: the service's own log goes to {@code <logs>/<name>.log} through Spring Boot's
 * rolling file appender (10 MB a file, at most 50 MB with the rolled ones, console
 * logging off); what the JVM prints outside logback (a crash, an out-of-memory) is
 * appended to {@code <logs>/<name>.out}.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceProcess.class);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    /** Size of one service log file before it rolls. */
    static final String LOG_FILE_SIZE = "10MB";

    /**
     * Upper bound of a service's log files together (the current one and the rolled
     * ones).
     */
    static final String LOG_TOTAL_SIZE = "50MB";

    private final String name;

    private final Path jar;

    private final List<String> jvmOptions;

    private final List<String> appArgs;

    private final int port;

    private final Path logFile;

    private final Path outFile;

    private final Path pidFile;

    private final CrashRestarter restarter;

    private final StackStop stop;

    private final ScheduledExecutorService supervisor;

    private volatile Process process;

    /** Set once by {@link #close()}: the service is never started again. */
    private volatile boolean closed;

    private volatile boolean reportedHealthy;

    private volatile long startedAt;

    private final AtomicInteger restarts = new AtomicInteger();

    private volatile boolean gaveUp;

    ServiceProcess(String name, Path jar, List<String> jvmOptions, List<String> appArgs, int port, Path logFile,
            Path pidFile, StackStop stop) {
        this(name, jar, jvmOptions, appArgs, port, logFile, pidFile, RestartPolicy.DEFAULT, stop);
    }

    /**
     * @param logFile the service's log file ({@code <name>.log}); the JVM's own output
     * goes next to it, as {@code <name>.out}
     * @param policy when to restart it after an unexpected exit
     * @param stop the stack's stop, after which nothing is restarted
     */
    ServiceProcess(String name, Path jar, List<String> jvmOptions, List<String> appArgs, int port, Path logFile,
            Path pidFile, RestartPolicy policy, StackStop stop) {
        this.name = name;
        this.jar = jar.toAbsolutePath().normalize();
        this.jvmOptions = List.copyOf(jvmOptions);
        this.appArgs = List.copyOf(appArgs);
        this.port = port;
        this.logFile = logFile.toAbsolutePath().normalize();
        this.outFile = this.logFile.resolveSibling(name + ".out");
        this.pidFile = pidFile;
        this.stop = stop;
        this.supervisor = CrashRestarter.supervisorThread(name);
        this.restarter = new CrashRestarter(name, policy, supervisor, LOG);
    }

    /** Stops processes of an earlier run of this jar for this run dir. */
    static int stopStale(String name, Path jar, Path runDir, Path pidFile) throws IOException {
        String jarPath = jar.toAbsolutePath().normalize().toString();
        String marker = runDir.toAbsolutePath().normalize() + "/";
        return Processes.stopStale(name, List.of(pidFile), cmd -> cmd.contains(jarPath) && cmd.contains(marker));
    }

    /** The full command line. */
    List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(Processes.javaExecutable().toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(appArgs);
        // Spring Boot's rolling file appender (SizeAndTimeBasedRollingPolicy): bounded in
        // size and count.
        command.add("--logging.file.name=" + logFile);
        command.add("--logging.logback.rollingpolicy.max-file-size=" + LOG_FILE_SIZE);
        command.add("--logging.logback.rollingpolicy.total-size-cap=" + LOG_TOTAL_SIZE);
        command.add("--logging.logback.rollingpolicy.max-history=7");
        command.add("--logging.threshold.console=OFF");
        return command;
    }

    synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException(name + " is stopped");
        }
        Files.createDirectories(logFile.getParent());
        // In a session of its own: a signal to the launcher's process group reaches the
        // launcher only.
        ProcessBuilder pb = new ProcessBuilder(Processes.inOwnSession(command())).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(outFile.toFile()));
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        LOG.info("starting {} on port {} (log {})", name, port, logFile);
        startedAt = System.nanoTime();
        reportedHealthy = false;
        Process started = pb.start();
        process = started;
        Processes.writePidFile(pidFile, started.pid());
        started.onExit().thenAccept(this::exited);
    }

    /**
     * Called when a child JVM has exited: unless it was asked to, schedules a restart or
     * gives up.
     */
    private void exited(Process p) {
        int code = p.exitValue();
        synchronized (this) {
            if (closed || process != p) {
                return; // asked to stop, or an operator's restart already replaced it
            }
        }
        if (stop.begun()) {
            LOG.info("{} exited with code {} as the stack stops", name, code);
            return;
        }
        if (StackStop.byStopSignal(code)) {
            // Maybe a signal to the whole process group: give the launcher's own stop a
            // moment to begin.
            supervisor.schedule(() -> crashed(p, code), StackStop.SIGNAL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
        else {
            crashed(p, code);
        }
    }

    private synchronized void crashed(Process p, int code) {
        if (closed || process != p) {
            return;
        }
        if (stop.begun()) {
            LOG.info("{} exited with code {} as the stack stops; not restarting it", name, code);
            return;
        }
        String tail = Processes.tails(20, logFile, outFile);
        if (!restarter.onCrash("exited unexpectedly with code " + code, logFile, tail,
                downSince -> restartAfterCrash(p, downSince))) {
            gaveUp = true;
        }
    }

    private void restartAfterCrash(Process crashed, long downSince) {
        synchronized (this) {
            if (closed || process != crashed || stop.begun()) {
                return;
            }
            try {
                start();
                restarts.incrementAndGet();
            }
            catch (IOException | RuntimeException e) {
                LOG.error("could not restart {}: {}", name, e.toString());
                return;
            }
        }
        try {
            if (awaitHealthy(Duration.ofSeconds(180), false)) {
                LOG.info("{} restarted by the supervisor: healthy again {} ms after it exited", name,
                        (System.nanoTime() - downSince) / 1_000_000);
            }
            else {
                LOG.warn("{} restarted but not healthy after 180 s; see {}", name, logFile);
            }
        }
        catch (IllegalStateException e) {
            // it died again while starting: exited() has already taken it from there
            LOG.debug("{} died while restarting", name, e);
        }
    }

    /**
     * An operator's restart: stops the JVM (SIGTERM, a grace period, SIGKILL), starts it
     * again and waits until it is healthy. Clears the crash history, so a service given
     * up as a crash loop can be brought back this way.
     * @param timeout how long the new JVM may take to be healthy
     * @return how long the restart took, from the stop to healthy
     * @throws IllegalStateException when the service is closed, dies while starting or is
     * not healthy in time
     * @throws IOException when the JVM cannot be launched
     */
    Duration restart(Duration timeout) throws IOException {
        long t0 = System.nanoTime();
        synchronized (this) {
            if (closed || stop.begun()) {
                throw new IllegalStateException(name + " is stopped");
            }
            Process old = process;
            process = null; // exited() ignores the old process from now on
            if (old != null) {
                Processes.stopTree(old, Duration.ofSeconds(30));
            }
            restarter.reset();
            gaveUp = false;
            LOG.info("restarting {} on request", name);
            start();
        }
        awaitHealthy(timeout, true);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("{} restarted on request in {} ms", name, took.toMillis());
        return took;
    }

    /**
     * How many times the supervisor has restarted the service after an unexpected exit.
     */
    int restarts() {
        return restarts.get();
    }

    /** Whether the supervisor gave up on the service (a crash loop). */
    boolean gaveUp() {
        return gaveUp;
    }

    /** What the service is doing, for {@code ./chainfeed status}. */
    String state() {
        Process p = process;
        if (closed) {
            return "stopped";
        }
        if (p == null || !p.isAlive()) {
            return gaveUp ? "down (crash loop; not restarted)" : "down (restarting)";
        }
        return reportedHealthy ? "up" : "starting";
    }

    /** Whether the JVM is running. */
    boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /**
     * Waits until {@code GET /actuator/health} answers 200 with status UP.
     * @param timeout how long to wait, counted from the launch
     * @param mustBeUp whether a timeout is an error (else this returns false)
     * @return whether the service is healthy
     * @throws IllegalStateException when the process died, or on a timeout when
     * {@code mustBeUp}
     */
    boolean awaitHealthy(Duration timeout, boolean mustBeUp) {
        long deadline = startedAt + timeout.toNanos();
        URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health");
        String last = "no answer yet";
        while (true) {
            Process p = process;
            if (p == null || !p.isAlive()) {
                throw new IllegalStateException(name + " exited" + (p == null ? "" : " with code " + p.exitValue())
                        + " before it was healthy" + Processes.tails(40, logFile, outFile));
            }
            try {
                if (!Processes.canConnect("127.0.0.1", port, Duration.ofMillis(500))) {
                    // No HTTP before it listens (Processes#canConnect says why).
                    throw new ConnectException("nothing listens on port " + port + " yet");
                }
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(3)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    if (!reportedHealthy) {
                        reportedHealthy = true;
                        LOG.info("{} healthy on port {} after {} ms", name, port,
                                (System.nanoTime() - startedAt) / 1_000_000);
                    }
                    return true;
                }
                last = "HTTP " + response.statusCode() + " " + response.body();
            }
            catch (IOException e) {
                last = e.toString();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
            if (System.nanoTime() > deadline) {
                if (!mustBeUp) {
                    return false;
                }
                throw new IllegalStateException(name + " not healthy on " + health + " after " + timeout.toSeconds()
                        + " s (last: " + last + ")" + Processes.tails(40, logFile, outFile));
            }
            Processes.sleep(Duration.ofMillis(500));
        }
    }

    String name() {
        return name;
    }

    int port() {
        return port;
    }

    /** The process, if started. */
    ProcessHandle handle() {
        Process p = process;
        return p == null ? null : p.toHandle();
    }

    /**
     * SIGTERM (Spring's graceful shutdown), a wait, then SIGKILL; no restart afterwards.
     * Idempotent.
     */
    @Override
    public synchronized void close() {
        closed = true;
        supervisor.shutdownNow();
        Process p = process;
        if (p == null) {
            return;
        }
        long t0 = System.nanoTime();
        boolean wasRunning = p.isAlive();
        Processes.stopTree(p, Duration.ofSeconds(30));
        process = null;
        try {
            Files.deleteIfExists(pidFile);
        }
        catch (IOException e) {
            LOG.warn("could not delete {}: {}", pidFile, e.toString());
        }
        if (wasRunning) {
            LOG.info("{} stopped in {} ms (exit code {})", name, (System.nanoTime() - t0) / 1_000_000,
                    LocalNode.exitCode(p));
        }
        else {
            LOG.info("{} had already exited (exit code {}): nothing to stop", name, LocalNode.exitCode(p));
        }
    }

}
