package io.chainfeed.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.chainfeed.schemas.TopicSpec;
import io.chainfeed.schemas.Topics;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the packaged launcher ({@code java -jar target/chainfeed-infra-*.jar --no-services}, the real
 * {@code infra-lib} class path) as a child process: a first run is killed with SIGKILL, leaving Kafka and
 * Elasticsearch orphaned; a second run on the same run dir and ports must clean up and come up, set up
 * topics and the reads alias, and stop everything on SIGTERM.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class StackIT {
    private static final Logger LOG = LoggerFactory.getLogger(StackIT.class);
    private final Path target = Path.of(System.getProperty("chainfeed.kafka.lib")).getParent();
    private final Path runDir = target.resolve("stack-it-run").toAbsolutePath();
    private final List<Process> launchers = new ArrayList<>();

    @AfterEach
    void killLeftovers() throws IOException {
        launchers.forEach(Process::destroyForcibly);
        KafkaNode.stopStale(runDir.resolve("kafka"));
        ElasticsearchNode.stopStale(runDir.resolve("elasticsearch"));
    }

    @Test
    void survivesAKilledEarlierRunAndStopsEverythingOnSigterm() throws Exception {
        int kafkaPort = Processes.freePort();
        int controllerPort = Processes.freePort();
        int esPort = Processes.freePort();
        int esTransportPort = Processes.freePort();
        List<String> command = List.of(Processes.javaExecutable().toString(), "-Xmx128m",
                "-jar", System.getProperty("chainfeed.stack.jar"), "--no-services",
                "--run-dir", runDir.toString(),
                "--kafka-lib", System.getProperty("chainfeed.kafka.lib"),
                "--es-home", System.getProperty("chainfeed.es.home"),
                "--kafka-port", Integer.toString(kafkaPort), "--kafka-controller-port", Integer.toString(controllerPort),
                "--es-port", Integer.toString(esPort), "--es-transport-port", Integer.toString(esTransportPort));

        Process first = launch(command, target.resolve("stack-it-1.log"));
        first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(Processes.canConnect("127.0.0.1", esPort, Duration.ofMillis(500)))
                .as("Elasticsearch outlives a SIGKILLed launcher (what the next run must clean up)").isTrue();

        Process second = launch(command, target.resolve("stack-it-2.log"));
        assertThat(Files.readString(target.resolve("stack-it-2.log")))
                .contains("left by an earlier run");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .containsAll(Topics.all(3).stream().map(TopicSpec::name).toList());
        }
        try (RestClient rest = RestClient.builder(new HttpHost("127.0.0.1", esPort)).build()) {
            assertThat(IndexSetup.indicesBehindAlias(rest, IndexSetup.READS_ALIAS))
                    .containsExactly(IndexSetup.READS_INDEX);
        }

        long t0 = System.nanoTime();
        second.destroy();
        assertThat(second.waitFor(90, TimeUnit.SECONDS)).isTrue();
        LOG.info("launcher stopped on SIGTERM in {} ms", (System.nanoTime() - t0) / 1_000_000);
        for (int port : List.of(kafkaPort, controllerPort, esPort, esTransportPort)) {
            assertThat(Processes.canConnect("127.0.0.1", port, Duration.ofMillis(500)))
                    .as("something still listens on port %d", port).isFalse();
        }
        String marker = runDir + "/";
        assertThat(ProcessHandle.allProcesses().filter(h -> Processes.commandLine(h).contains(marker))
                .filter(h -> h.pid() != ProcessHandle.current().pid()).map(ProcessHandle::pid).toList())
                .as("processes of the run dir still alive").isEmpty();
    }

    /** Starts the launcher and waits for its banner. */
    private Process launch(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        launchers.add(process);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (System.nanoTime() < deadline) {
            String out = Files.readString(log);
            if (out.contains("Press Ctrl-C to stop.")) {
                LOG.info("launcher up:\n{}", out);
                return process;
            }
            if (!process.isAlive()) {
                throw new AssertionError("launcher exited with " + process.exitValue() + ":\n" + out);
            }
            Thread.sleep(250);
        }
        throw new AssertionError("launcher not up in 240 s:\n" + Files.readString(log));
    }
}
