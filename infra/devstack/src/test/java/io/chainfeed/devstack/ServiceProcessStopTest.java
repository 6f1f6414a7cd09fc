package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM ({@link FakeBootService}) under a {@link Supervisor} that exits on SIGTERM,
 * as every process does when the whole process group or control group is signalled:
 * restarted when no stop follows (a crash, after {@link StackStop#SIGNAL_GRACE}), not
 * restarted when the launcher's stop begins within that grace.
 */
class ServiceProcessStopTest {

    @TempDir
    Path dir;

    @Test
    void aChildEndedBySigtermIsNotRestartedWhenTheStopBeginsWithinTheGrace() throws Exception {
        StackStop stop = new StackStop();
        try (Supervisor service = service(stop)) {
            ProcessHandle first = startHealthy(service);
            first.destroy();
            first.onExit().get(30, TimeUnit.SECONDS);
            // the launcher's own signal handler, a moment after the child's exit
            stop.begin();
            await().during(StackStop.SIGNAL_GRACE.plusSeconds(1))
                .atMost(StackStop.SIGNAL_GRACE.plusSeconds(3))
                .until(() -> !service.isRunning() && service.restarts() == 0);
            assertThat(service.status()).hasToString("down (exited with code 143)");
        }
    }

    @Test
    void aChildEndedBySigtermWithoutAStopIsRestarted() throws Exception {
        try (Supervisor service = service(new StackStop())) {
            ProcessHandle first = startHealthy(service);
            first.destroy();
            await().atMost(Duration.ofSeconds(60)).until(() -> service.restarts() == 1 && service.isRunning());
            assertThat(service.process().orElseThrow().pid()).isNotEqualTo(first.pid());
            assertThat(service.status().state()).isEqualTo(SupervisedState.UP);
        }
    }

    private ProcessHandle startHealthy(Supervisor service) throws IOException {
        service.start();
        service.awaitReady(Duration.ofSeconds(60), true);
        return service.process().orElseThrow();
    }

    /**
     * The fake service as {@code
     *
    <dir>
     * /streams/target/chainfeed-streams-test-exec.jar}, quick to restart.
     */
    private Supervisor service(StackStop stop) throws IOException {
        Path testClasses = Path.of(FakeBootService.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeBootService.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, testClasses.toUri().toString());
        Path jar = dir.resolve("streams/target/chainfeed-streams-test-exec.jar");
        Files.createDirectories(jar.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush();
        }
        int port = LoopbackPorts.free();
        ServiceProcess streams = new ServiceProcess("streams", jar,
                List.of("-Xmx32m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), List.of("--server.port=" + port),
                port, dir.resolve("logs/streams.log"), dir.resolve("pids/streams.pid"));
        return new Supervisor("streams", streams,
                new RestartPolicy(Duration.ofMillis(100), Duration.ofMillis(100), 3, Duration.ofMinutes(1)),
                Duration.ofSeconds(60), stop);
    }

}
