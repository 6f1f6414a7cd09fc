package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

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
            Stack stack = Stack.fromArgs("--no-services", "--project-dir", tmp.toString(),
                    "--run-dir", tmp.resolve("run").toString(), "--es-port", Integer.toString(port),
                    "--es-transport-port", "0", "--kafka-port", "0", "--kafka-controller-port", "0");
            assertThatThrownBy(stack::start).hasMessageContaining("port " + port)
                    .hasMessageContaining("--es-port");
            // Fast means before anything was started (no timing: the cores are shared): neither node got
            // as far as laying out its run dir.
            assertThat(tmp.resolve("run").resolve("elasticsearch")).doesNotExist();
            assertThat(tmp.resolve("run").resolve("kafka")).doesNotExist();
        }
    }

    @Test
    void serviceArgumentsPointAtKafkaAndElasticsearchWithOwnStateDirs() {
        Stack stack = Stack.fromArgs("--api-port", "9080", "--streams-port", "9082");
        Stack.ServiceSpec api = stack.serviceSpecs(Path.of("/p")).get("api");
        assertThat(api.jar()).isEqualTo(Path.of("/p/api/target/chainfeed-api-0.1.0-SNAPSHOT-exec.jar"));
        assertThat(api.port()).isEqualTo(9080);
        assertThat(api.extraArgs()).as("the api asks this run's streams for the chain as of an instant")
                .containsExactly("--chainfeed.api.streams.base-url=http://127.0.0.1:9082");
        Stack.ServiceSpec ingest = stack.serviceSpecs(Path.of("/p")).get("ingest");
        assertThat(ingest.extraArgs()).containsExactly("--chainfeed.ingest.load-corpus=true");
        assertThat(stack.serviceSpecs(Path.of("/p")).keySet()).containsExactly("streams", "ingest", "api");
    }

    @Test
    void theApiGetsAWebhookMasterKeyFileKeptInTheRunDir() throws IOException {
        Path run = tmp.resolve("run-keys");
        Path file = Stack.webhookMasterKeyFile(run);
        String key = Files.readString(file).strip();
        assertThat(java.util.Base64.getDecoder().decode(key)).hasSize(32);
        assertThat(Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        assertThat(Stack.webhookMasterKeyFile(run)).isEqualTo(file);
        assertThat(Files.readString(file).strip()).as("kept across starts").isEqualTo(key);
        assertThat(Stack.webhookMasterKeyFile(tmp.resolve("other-run"))).isNotEqualTo(file);

        Stack stack = Stack.fromArgs("--api-port", "9080");
        Stack.ServiceSpec api = stack.serviceSpecs(Path.of("/p")).get("api");
        assertThat(stack.serviceArgs(run, api)).contains("--chainfeed.webhooks.master-key-file=" + file);
        Stack.ServiceSpec ingest = stack.serviceSpecs(Path.of("/p")).get("ingest");
        assertThat(stack.serviceArgs(run, ingest)).noneMatch(a -> a.contains("webhooks"));
    }
}
