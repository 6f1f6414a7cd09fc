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

/** One Spring Boot fat jar run as a child JVM by {@link Stack}, with its health check and its log file. */
final class ServiceProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceProcess.class);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final String name;
    private final Path jar;
    private final List<String> jvmOptions;
    private final List<String> appArgs;
    private final int port;
    private final Path logFile;
    private final Path pidFile;
    private volatile Process process;
    private volatile boolean stopping;
    private boolean reportedHealthy;
    private long startedAt;

    ServiceProcess(String name, Path jar, List<String> jvmOptions, List<String> appArgs, int port, Path logFile,
            Path pidFile) {
        this.name = name;
        this.jar = jar.toAbsolutePath().normalize();
        this.jvmOptions = List.copyOf(jvmOptions);
        this.appArgs = List.copyOf(appArgs);
        this.port = port;
        this.logFile = logFile;
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
        return command;
    }

    synchronized void start() throws IOException {
        Files.createDirectories(logFile.getParent());
        ProcessBuilder pb = new ProcessBuilder(command())
                .redirectErrorStream(true)
                .redirectOutput(logFile.toFile());
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        LOG.info("starting {} on port {} (log {})", name, port, logFile);
        startedAt = System.nanoTime();
        process = pb.start();
        Processes.writePidFile(pidFile, process.pid());
        Process started = process;
        started.onExit().thenAccept(p -> {
            if (!stopping) {
                LOG.error("{} exited unexpectedly with code {}; see {}{}", name, p.exitValue(), logFile,
                        Processes.tails(40, logFile));
            }
        });
    }

    /**
     * Waits until {@code GET /actuator/health} answers 200 with status UP.
     *
     * @param timeout    how long to wait, counted from the launch
     * @param mustBeUp   whether a timeout is an error (else this returns false)
     * @return whether the service is healthy
     * @throws IllegalStateException when the process died, or on a timeout when {@code mustBeUp}
     */
    boolean awaitHealthy(Duration timeout, boolean mustBeUp) {
        long deadline = startedAt + timeout.toNanos();
        URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health");
        String last = "no answer yet";
        while (true) {
            Process p = process;
            if (p == null || !p.isAlive()) {
                throw new IllegalStateException(name + " exited" + (p == null ? "" : " with code " + p.exitValue())
                        + " before it was healthy" + Processes.tails(40, logFile));
            }
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(3))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    if (!reportedHealthy) {
                        reportedHealthy = true;
                        LOG.info("{} healthy on port {} after {} ms", name, port,
                                (System.nanoTime() - startedAt) / 1_000_000);
                    }
                    return true;
                }
                last = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
            if (System.nanoTime() > deadline) {
                if (!mustBeUp) {
                    return false;
                }
                throw new IllegalStateException(name + " not healthy on " + health + " after " + timeout.toSeconds()
                        + " s (last: " + last + ")" + Processes.tails(40, logFile));
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

    /** SIGTERM (Spring's graceful shutdown), a wait, then SIGKILL. Idempotent. */
    @Override
    public synchronized void close() {
        Process p = process;
        if (p == null) {
            return;
        }
        stopping = true;
        long t0 = System.nanoTime();
        Processes.stopTree(p, Duration.ofSeconds(30));
        process = null;
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException e) {
            LOG.warn("could not delete {}: {}", pidFile, e.toString());
        }
        LOG.info("{} stopped in {} ms (exit code {})", name, (System.nanoTime() - t0) / 1_000_000, exitCode(p));
    }

    /** The exit code once the JVM has reaped the child, which can lag the process tree's stop. */
    private static String exitCode(Process p) {
        try {
            return p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS) ? String.valueOf(p.exitValue()) : "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
