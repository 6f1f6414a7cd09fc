package io.chainfeed.devstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Spring Boot fat jar run as a child JVM by {@link Stack}: its command line, its
 * launch, its health check and its stop. A {@link Supervisor} drives it (restarts after
 * an unexpected exit, the status).
 *
 * <p>
 * Logs: the service's own log goes to {@code <logs>/<name>.log} through Spring Boot's
 * rolling file appender (10 MB a file, at most 50 MB with the rolled ones, console
 * logging off); what the JVM prints outside logback (a crash, an out-of-memory) is
 * appended to {@code <logs>/<name>.out}.
 */
final class ServiceProcess implements SupervisedProcess {

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

    /** The last process that was reported healthy, so that it is logged once. */
    private volatile Process reportedHealthy;

    /**
     * @param name the service's name ({@code streams}, {@code api-2}, ...)
     * @param jar its fat jar
     * @param jvmOptions options of the JVM, before {@code -jar}
     * @param appArgs the application's arguments
     * @param port its HTTP port on loopback, where its health is asked
     * @param logFile the service's log file ({@code <name>.log}); the JVM's own output
     * goes next to it, as {@code <name>.out}
     * @param pidFile where the running JVM's pid is kept
     */
    ServiceProcess(String name, Path jar, List<String> jvmOptions, List<String> appArgs, int port, Path logFile,
            Path pidFile) {
        this.name = name;
        this.jar = jar.toAbsolutePath().normalize();
        this.jvmOptions = List.copyOf(jvmOptions);
        this.appArgs = List.copyOf(appArgs);
        this.port = port;
        this.logFile = logFile.toAbsolutePath().normalize();
        this.outFile = this.logFile.resolveSibling(name + ".out");
        this.pidFile = pidFile;
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

    /**
     * Starts the JVM in a session of its own (a signal to the launcher's process group
     * reaches the launcher only), its output appended to {@code <name>.out}, and writes
     * its pid file (stopping the JVM again when that fails).
     */
    @Override
    public Process launch() throws IOException {
        Files.createDirectories(logFile.getParent());
        ProcessBuilder pb = new ProcessBuilder(Processes.inOwnSession(command())).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(outFile.toFile()));
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        LOG.info("starting {} on port {} (log {})", name, port, logFile);
        Process started = pb.start();
        try {
            Processes.writePidFile(pidFile, started.pid());
        }
        catch (IOException | RuntimeException e) {
            // Not returned, so nobody else would stop it.
            Processes.stopTree(started, Duration.ofSeconds(30));
            throw e;
        }
        return started;
    }

    /**
     * Waits until {@code GET /actuator/health} answers 200 with status UP; a service slow
     * to get there is left running (false after the timeout).
     */
    @Override
    public boolean awaitReady(Process launched, long launchedAt, Duration timeout) {
        long deadline = launchedAt + timeout.toNanos();
        URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health");
        String last = "nothing listens on port " + port + " yet";
        while (true) {
            if (!launched.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + launched.exitValue()
                        + " before it was healthy" + Processes.tails(40, logFile, outFile));
            }
            try {
                // No HTTP before it listens (Processes#canConnect says why).
                if (Processes.canConnect("127.0.0.1", port, Duration.ofMillis(500))) {
                    HttpResponse<String> response = HTTP.send(
                            HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(3)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                        if (reportedHealthy != launched) {
                            reportedHealthy = launched;
                            LOG.info("{} healthy on port {} after {} ms", name, port,
                                    (System.nanoTime() - launchedAt) / 1_000_000);
                        }
                        return true;
                    }
                    last = "HTTP " + response.statusCode() + " " + response.body();
                }
            }
            catch (IOException e) {
                last = e.toString();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
            if (System.nanoTime() > deadline) {
                LOG.info("{} not healthy on {} after {} s (last: {})", name, health, timeout.toSeconds(), last);
                return false;
            }
            Processes.sleep(Duration.ofMillis(500));
        }
    }

    /**
     * SIGTERM (Spring's graceful shutdown) to the JVM's tree, a wait, then SIGKILL; drops
     * the pid file.
     */
    @Override
    public void stop(Process process) {
        long t0 = System.nanoTime();
        boolean wasRunning = process.isAlive();
        Processes.stopTree(process, Duration.ofSeconds(30));
        try {
            Files.deleteIfExists(pidFile);
        }
        catch (IOException e) {
            LOG.warn("could not delete {}: {}", pidFile, e.toString());
        }
        if (wasRunning) {
            LOG.info("{} stopped in {} ms (exit code {})", name, (System.nanoTime() - t0) / 1_000_000,
                    LocalNode.exitCode(process));
        }
        else {
            LOG.info("{} had already exited (exit code {}): nothing to stop", name, LocalNode.exitCode(process));
        }
    }

    /** The service's log file. */
    @Override
    public Path logs() {
        return logFile;
    }

    /** The last lines of the log file and of the JVM's own output. */
    @Override
    public String logTails() {
        return Processes.tails(20, logFile, outFile);
    }

}
