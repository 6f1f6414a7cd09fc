package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.TopicSpec;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the packaged launcher ({@code java -jar target/chainfeed-devstack-*-launcher.jar},
 * the real {@code infra-lib} class path) as a child process: a first run is killed with
 * SIGKILL, leaving Kafka, Elasticsearch and the services orphaned; a second run on the
 * same run dir and ports must clean up and come up, set up topics and the reads alias,
 * start the three services (here {@link FakeBootService} jars) in order, restart a
 * service and the Kafka broker killed with SIGKILL, restart both on request, and stop
 * everything when its whole process group gets SIGTERM: services first and in reverse
 * order, then Kafka, then Elasticsearch, nothing restarted and nothing force-killed.
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
        int kafkaPort = LoopbackPorts.free();
        int controllerPort = LoopbackPorts.free();
        int esPort = LoopbackPorts.free();
        int esTransportPort = LoopbackPorts.free();
        int streamsPort = LoopbackPorts.free();
        int ingestPort = LoopbackPorts.free();
        int apiPort = LoopbackPorts.free();
        int demoPort = LoopbackPorts.free();
        Path project = fakeProject();
        List<String> common = List.of(Processes.javaExecutable().toString(), "-Xmx128m", "-jar",
                System.getProperty("chainfeed.stack.jar"), "--run-dir", runDir.toString(), "--project-dir",
                project.toString(), "--quick-jit", "--streams-port", Integer.toString(streamsPort), "--ingest-port",
                Integer.toString(ingestPort), "--api-port", Integer.toString(apiPort), "--demo-port",
                Integer.toString(demoPort), "--kafka-lib", System.getProperty("chainfeed.kafka.lib"), "--es-home",
                System.getProperty("chainfeed.es.home"), "--kafka-port", Integer.toString(kafkaPort),
                "--kafka-controller-port", Integer.toString(controllerPort), "--es-port", Integer.toString(esPort),
                "--es-transport-port", Integer.toString(esTransportPort));

        Process first = launch(common, target.resolve("stack-it-1.log"));
        first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(Processes.canConnect("127.0.0.1", esPort, Duration.ofMillis(500)))
            .as("Elasticsearch outlives a SIGKILLed launcher (what the next run must clean up)")
            .isTrue();

        // The second launcher leads a process group of its own (setsid), as a shell job
        // or a service unit does.
        List<String> inItsOwnGroup = new ArrayList<>(List.of("setsid"));
        inItsOwnGroup.addAll(common);
        Process second = launch(inItsOwnGroup, target.resolve("stack-it-2.log"));
        assertThat(Files.readString(target.resolve("stack-it-2.log")))
            .contains("streams: stopping 1 process(es) left by an earlier run")
            .contains("api: stopping 1 process(es) left by an earlier run")
            .contains("Kafka: stopping 1 process(es) left by an earlier run")
            .contains("Elasticsearch: stopping 2 process(es) left by an earlier run");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                .containsAll(Topics.all(3).stream().map(TopicSpec::name).toList());
        }
        try (RestClient rest = RestClient.builder(new HttpHost("127.0.0.1", esPort)).build()) {
            assertThat(IndexSetup.indicesBehindAlias(rest, ReadsIndex.ALIAS)).containsExactly(ReadsIndex.INDEX);
        }

        Path fakeOut = project.resolve("fake-out");
        assertThat(Files.readAllLines(fakeOut.resolve("ingest.args"))).contains("--server.port=" + ingestPort,
                "--spring.kafka.bootstrap-servers=127.0.0.1:" + kafkaPort,
                "--spring.elasticsearch.uris=http://127.0.0.1:" + esPort,
                "--chainfeed.streams.state-dir=" + runDir.resolve("streams-state/ingest"),
                "--chainfeed.ingest.load-corpus=true");
        // The JVM's own output (outside logback) goes to <name>.out; Spring Boot writes
        // <name>.log itself.
        assertThat(runDir.resolve("logs/api.out")).content().contains("Started fake api on port " + apiPort);
        String log = Files.readString(target.resolve("stack-it-2.log"));
        assertThat(log.indexOf("streams healthy")).isLessThan(log.indexOf("starting ingest"));
        assertThat(log.indexOf("ingest healthy")).isLessThan(log.indexOf("starting api"));
        assertThat(log).contains("http://localhost:" + apiPort + "/api/v1/search?q=");

        // The run's admin key: in the run dir for the keys CLI (owner only), only its
        // hash given to the api,
        // which issued the demo page's partner key for the demo origin; the demo page
        // embeds that key.
        Path adminKey = runDir.resolve("admin-key");
        assertThat(java.nio.file.Files.getPosixFilePermissions(adminKey))
            .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        String key = Files.readString(adminKey).strip();
        assertThat(Files.readAllLines(fakeOut.resolve("api.args")))
            .contains("--chainfeed.api.admin-key-hashes=" + io.chainfeed.platform.auth.HashedKeys.hash(key))
            .noneMatch(a -> a.contains(key));
        assertThat(Files.readString(fakeOut.resolve("api.keys-request"))).contains("\"kind\":\"PARTNER\"",
                "\"allowedOrigins\":[\"http://localhost:" + demoPort + "\"]");
        java.net.http.HttpResponse<String> demo = java.net.http.HttpClient.newHttpClient()
            .send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + demoPort + "/"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(demo.body()).contains("key=\"cf_fakekeyid234_demo\"",
                "http://localhost:" + apiPort + "/widget/v1/chainfeed.js");
        assertThat(log).contains("http://localhost:" + demoPort + "/");

        // Supervision: a service killed with SIGKILL is started again by the launcher,
        // which says so.
        long killed = killAndAwaitRestart("streams", runDir.resolve("pids/streams.pid"), Duration.ofSeconds(60));
        long restarted = Processes.readPidFile(runDir.resolve("pids/streams.pid")).get(0);
        assertThat(restarted).isNotEqualTo(killed);
        assertThat(Processes.canConnect("127.0.0.1", streamsPort, Duration.ofMillis(500))).isTrue();

        // An operator's restart of one service, through the launcher's control socket
        // (./chainfeed restart api).
        assertThat(control("api")).startsWith("api restarted and healthy in ");
        assertThat(Files.readString(target.resolve("stack-it-2.log"))).contains("restarting api on request")
            .doesNotContain("api exited unexpectedly");

        // Kafka is supervised as the services are: killed with SIGKILL, it is started
        // again (same data and port).
        killAndAwaitRestart("kafka", runDir.resolve("kafka/kafka.pid"), Duration.ofSeconds(120));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafkaPort))) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).as("the restarted broker kept its data")
                .contains(Topics.READS);
        }
        assertThat(control("kafka")).startsWith("kafka restarted and healthy in ");
        assertThat(control("status")).contains("kafka: up", "elasticsearch: up", "streams: up", "ingest: up",
                "api: up");

        // SIGTERM to the whole process group (Ctrl-C in a terminal, kill -TERM --
        // -<pgid>): the children run in
        // sessions of their own, so the launcher alone gets it and stops them in order.
        long t0 = System.nanoTime();
        Process kill = new ProcessBuilder("kill", "-TERM", "--", "-" + second.pid()).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).isTrue();
        assertThat(second.waitFor(20, TimeUnit.SECONDS)).as("stopped within the 20 s bound").isTrue();
        LOG.info("launcher stopped on SIGTERM to its process group in {} ms", (System.nanoTime() - t0) / 1_000_000);
        String stopLog = Files.readString(target.resolve("stack-it-2.log"));
        String stopping = stopLog.substring(stopLog.indexOf("SIGTERM received"));
        assertThat(stopping).doesNotContain("restarting", "force-killing", "was already gone", "had already exited");
        assertThat(stopping.indexOf("api stopped")).isLessThan(stopping.indexOf("ingest stopped"));
        assertThat(stopping.indexOf("ingest stopped")).isLessThan(stopping.indexOf("streams stopped"));
        assertThat(stopping.indexOf("streams stopped"))
            .isLessThan(stopping.indexOf("Kafka on port " + kafkaPort + " stopped"));
        assertThat(stopping.indexOf("Kafka on port " + kafkaPort + " stopped"))
            .isLessThan(stopping.indexOf("Elasticsearch on port " + esPort + " stopped"))
            .isPositive();
        // The first run's services were stopped as stale ones (order unspecified), then
        // the api once for the
        // operator's restart (the SIGKILLed streams could not say), then this run's in
        // reverse order.
        List<String> stopped = Files.readAllLines(fakeOut.resolve("stopped"));
        assertThat(stopped.subList(3, stopped.size())).containsExactly("api", "api", "ingest", "streams");
        for (int port : List.of(kafkaPort, controllerPort, esPort, esTransportPort, streamsPort, ingestPort, apiPort,
                demoPort)) {
            assertThat(Processes.canConnect("127.0.0.1", port, Duration.ofMillis(500)))
                .as("something still listens on port %d", port)
                .isFalse();
        }
        String marker = runDir + "/";
        assertThat(ProcessHandle.allProcesses()
            .filter(h -> Processes.commandLine(h).contains(marker))
            .filter(h -> h.pid() != ProcessHandle.current().pid())
            .map(ProcessHandle::pid)
            .toList()).as("processes of the run dir still alive").isEmpty();
    }

    /**
     * Kills a supervised process of the second run with SIGKILL and waits until the
     * launcher has restarted it, saying it was its first crash.
     * @param name the process's name in the launcher's log
     * @param pidFile where the launcher keeps its pid
     * @param within how long the restart may take
     * @return the pid of the killed process
     */
    private long killAndAwaitRestart(String name, Path pidFile, Duration within) throws IOException {
        long pid = Processes.readPidFile(pidFile).get(0);
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Path log = target.resolve("stack-it-2.log");
        Awaitility.await()
            .atMost(within)
            .pollInterval(Duration.ofMillis(200))
            .until(() -> Files.readString(log).contains(name + " restarted by the supervisor"));
        assertThat(Files.readString(log))
            .contains(name + " exited unexpectedly with code 137; restarting it in 1000 ms (crash 1 in the last 600 s");
        return pid;
    }

    /**
     * Runs {@code ./chainfeed restart PART} (or {@code status}) against the second run;
     * expects exit code 0.
     */
    private String control(String request) throws IOException, InterruptedException {
        Process control = new ProcessBuilder(Processes.javaExecutable().toString(), "-cp",
                System.getProperty("chainfeed.stack.jar"), "io.chainfeed.devstack.StackControl", request, "--run-dir",
                runDir.toString())
            .redirectErrorStream(true)
            .start();
        assertThat(control.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String answer = new String(control.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(control.exitValue()).as(answer).isZero();
        return answer;
    }

    /**
     * A project dir whose three service jars run {@link FakeBootService} from
     * target/test-classes.
     */
    private Path fakeProject() throws IOException {
        Path project = target.resolve("stack-it-project");
        Processes.deleteTree(project);
        Path testClasses = Path.of(FakeBootService.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeBootService.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, testClasses.toUri().toString());
        for (String module : List.of("streams", "ingest", "api")) {
            Path jar = project.resolve(module + "/target/chainfeed-" + module + "-0.1.0-SNAPSHOT-exec.jar");
            Files.createDirectories(jar.getParent());
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
                out.flush();
            }
        }
        return project;
    }

    /** Starts the launcher and waits for its banner. */
    private Process launch(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        launchers.add(process);
        try {
            await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(250)).until(() -> {
                String out = Files.readString(log);
                if (!out.contains("Press Ctrl-C to stop.") && !process.isAlive()) {
                    throw new AssertionError("launcher exited with " + process.exitValue() + ":\n" + out);
                }
                return out.contains("Press Ctrl-C to stop.");
            });
        }
        catch (ConditionTimeoutException e) {
            throw new AssertionError("launcher not up in 240 s:\n" + Files.readString(log), e);
        }
        LOG.info("launcher up:\n{}", Files.readString(log));
        return process;
    }

}
