package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackTest {

    @TempDir
    Path tmp;

    @Test
    void missingServiceJarsAreNamedBeforeAnythingStarts() {
        Stack stack = Stack.fromArgs("--project-dir", tmp.toString(), "--run-dir", tmp.resolve("run").toString());
        assertThatThrownBy(stack::start)
            .hasMessageContaining("streams/target/chainfeed-streams-0.1.0-SNAPSHOT-exec.jar")
            .hasMessageContaining("api/target/chainfeed-api-0.1.0-SNAPSHOT-exec.jar")
            .hasMessageContaining("mvn -B -DskipTests install")
            .hasMessageContaining("--no-services");
        assertThat(tmp.resolve("run")).doesNotExist();
    }

    @Test
    void aTakenPortFailsFastNamingTheOption() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(Processes.LOOPBACK, 0));
            int port = taken.getLocalPort();
            Stack stack = Stack.fromArgs("--no-services", "--project-dir", tmp.toString(), "--run-dir",
                    tmp.resolve("run").toString(), "--es-port", Integer.toString(port), "--es-transport-port", "0",
                    "--kafka-port", "0", "--kafka-controller-port", "0");
            assertThatThrownBy(stack::start).hasMessageContaining("port " + port).hasMessageContaining("--es-port");
            // Fast means before anything was started (no timing: the cores are shared):
            // neither node got
            // as far as laying out its run dir.
            assertThat(tmp.resolve("run").resolve("elasticsearch")).doesNotExist();
            assertThat(tmp.resolve("run").resolve("kafka")).doesNotExist();
        }
    }

    @Test
    void serviceArgumentsPointAtKafkaAndElasticsearchWithOwnStateDirs() throws IOException {
        Stack stack = Stack.fromArgs("--api-port", "9080", "--streams-port", "9082", "--quick-jit", "--service-heap",
                "256m");
        Map<String, StackServices.ServiceSpec> specs = stack.serviceSpecs(Path.of("/p")).specs();
        StackServices.ServiceSpec api = specs.get("api");
        assertThat(api.jar()).isEqualTo(Path.of("/p/api/target/chainfeed-api-0.1.0-SNAPSHOT-exec.jar"));
        assertThat(api.port()).isEqualTo(9080);
        assertThat(api.extraArgs()).as("the api asks this run's streams for the chain as of an instant")
            .containsExactly("--chainfeed.api.streams.base-url=http://127.0.0.1:9082");
        assertThat(specs.get("ingest").extraArgs()).containsExactly("--chainfeed.ingest.load-corpus=true",
                "--chainfeed.ingest.load-history=true");
        assertThat(Stack.fromArgs("--no-history").serviceSpecs(Path.of("/p")).specs().get("ingest").extraArgs())
            .as("--no-history leaves the bundled history out")
            .containsExactly("--chainfeed.ingest.load-corpus=true");
        assertThat(specs.keySet()).containsExactly("streams", "ingest", "api");

        RunDir run = new RunDir(Files.createDirectories(tmp.resolve("run")));
        StackServices.Wiring wiring = stack.wiring(run);
        assertThat(StackServices.jvmOptions(wiring, "api")).containsExactly("-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1");
        assertThat(StackServices.args(run, specs.get("streams"), wiring))
            .contains("--chainfeed.streams.state-dir=" + run.root().resolve("streams-state").resolve("streams"))
            .noneMatch(a -> a.startsWith("--chainfeed.api."));
        assertThat(StackServices.args(run, api, wiring)).contains("--server.port=9080", "--server.address=127.0.0.1")
            .anyMatch(a -> a.startsWith("--chainfeed.api.admin-key-hashes=") && a.endsWith(wiring.adminKeyHash()));
    }

    @Test
    void apiJvmOptionsGoToApiInstancesOnlyAndComeLast() throws IOException {
        Stack stack = Stack.fromArgs("--cluster", "--api-jvm-options", " -Xmn192m  -Xlog:gc ", "--run-dir",
                tmp.resolve("run").toString());
        StackServices.Wiring wiring = stack.wiring(new RunDir(Files.createDirectories(tmp.resolve("run"))));
        assertThat(StackServices.jvmOptions(wiring, "api-2")).containsExactly("-Xmx256m", "-XX:+UseSerialGC",
                "-Xmn192m", "-Xlog:gc");
        assertThat(StackServices.jvmOptions(wiring, "ingest-1")).containsExactly("-Xmx256m", "-XX:+UseSerialGC");
    }

    @Test
    void aClusterHasThreeElasticsearchNodesAndTwoInstancesOfEachServiceOnPortsFromTheBaseWithOwnStateDirs()
            throws IOException {
        Stack stack = Stack.fromArgs("--cluster", "--port-base", "45000", "--run-dir", tmp.resolve("run").toString());
        StackLayout layout = stack.layout();
        assertThat(layout.kafkaPorts()).containsExactly(45000, 45001, 45002);
        assertThat(layout.quorumVoters()).isEqualTo("1@127.0.0.1:45010,2@127.0.0.1:45011,3@127.0.0.1:45012");
        assertThat(layout.esHttpPorts()).containsExactly(45020, 45021, 45022);
        assertThat(layout.esSeedHosts()).containsExactly("127.0.0.1:45030", "127.0.0.1:45031", "127.0.0.1:45032");
        assertThat(layout.esNodeNames()).containsExactly("n1", "n2", "n3");
        assertThat(layout.demoPort()).isEqualTo(45070);
        assertThat(layout.allPorts(true, true)).hasSize(3 * 2 + 3 * 2 + 3 * 2 + 1);

        Map<String, StackServices.ServiceSpec> specs = stack.serviceSpecs(Path.of("/p")).specs();
        assertThat(specs.keySet()).containsExactly("streams-1", "streams-2", "ingest-1", "ingest-2", "api-1", "api-2");
        assertThat(specs.get("streams-2").port()).isEqualTo(45041);
        assertThat(specs.get("streams-2").extraArgs()).containsExactly("--chainfeed.streams.standby-replicas=1");
        assertThat(specs.get("ingest-1").extraArgs()).containsExactly("--chainfeed.ingest.load-corpus=true",
                "--chainfeed.ingest.load-history=true");
        assertThat(specs.get("ingest-2").extraArgs()).isEmpty();
        // Each api asks its own streams instance first, then the other (either forwards
        // to the stores' owner).
        assertThat(specs.get("api-1").extraArgs())
            .containsExactly("--chainfeed.api.streams.base-url=http://127.0.0.1:45040,http://127.0.0.1:45041");
        assertThat(specs.get("api-2").extraArgs()).as("both deliver webhooks, one subscription each through the lease")
            .containsExactly("--chainfeed.api.streams.base-url=http://127.0.0.1:45041,http://127.0.0.1:45040");

        RunDir run = new RunDir(Files.createDirectories(tmp.resolve("run")));
        StackServices.Wiring wiring = stack.wiring(run);
        assertThat(StackServices.args(run, specs.get("streams-1"), wiring)).contains(
                "--chainfeed.streams.state-dir=" + run.streamsState("streams-1"), "--chainfeed.kafka.partitions=6",
                "--chainfeed.kafka.replication-factor=3");
        assertThat(run.streamsState("streams-1")).isNotEqualTo(run.streamsState("streams-2"));
        assertThat(StackServices.jvmOptions(wiring, "streams-1")).contains("-Xmx256m");
        assertThat(stack.serviceUri("api-2")).hasToString("http://127.0.0.1:45061");
        assertThat(run.kafka(2, 3)).isEqualTo(run.root().resolve("kafka-2"));
        assertThat(run.kafka(1, 1)).isEqualTo(run.kafka());
    }

    @Test
    void theSingleStackKeepsItsPortsRunDirAndArguments() throws IOException {
        Stack stack = Stack.fromArgs();
        assertThat(stack.runDir()).isEqualTo(Path.of(".run").toAbsolutePath().normalize());
        StackLayout layout = stack.layout();
        assertThat(layout.kafkaPorts()).containsExactly(19092);
        assertThat(layout.servicePorts().get("api")).containsExactly(8080);
        RunDir run = new RunDir(Files.createDirectories(tmp.resolve("run")));
        assertThat(stack.wiring(run).clusterArgs()).isEmpty();
        assertThat(Stack.fromArgs("--port-base", "45100").layout().servicePorts().get("ingest")).containsExactly(45150);
    }

    @Test
    void theApiGetsAWebhookMasterKeyFileKeptInTheRunDir() throws IOException {
        Path run = tmp.resolve("run-keys");
        Path file = new RunDir(run).webhookMasterKeyFile();
        String key = Files.readString(file).strip();
        assertThat(java.util.Base64.getDecoder().decode(key)).hasSize(32);
        assertThat(Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(
                java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        assertThat(new RunDir(run).webhookMasterKeyFile()).isEqualTo(file);
        assertThat(Files.readString(file).strip()).as("kept across starts").isEqualTo(key);
        assertThat(new RunDir(tmp.resolve("other-run")).webhookMasterKeyFile()).isNotEqualTo(file);

        Stack stack = Stack.fromArgs("--api-port", "9080");
        Map<String, StackServices.ServiceSpec> specs = stack.serviceSpecs(Path.of("/p")).specs();
        StackServices.Wiring wiring = stack.wiring(new RunDir(run));
        assertThat(StackServices.args(new RunDir(run), specs.get("api"), wiring))
            .contains("--chainfeed.webhooks.master-key-file=" + file);
        assertThat(StackServices.args(new RunDir(run), specs.get("ingest"), wiring))
            .noneMatch(a -> a.contains("webhooks"));
    }

}
