package io.chainfeed.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.chainfeed.schemas.TopicSpec;
import io.chainfeed.schemas.Topics;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher with {@code --no-services}: Kafka and Elasticsearch, topics and the reads alias, then a clean stop. */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class StackIT {
    @Test
    void startsInfrastructureSetsItUpAndStopsEverything() throws Exception {
        Path target = Path.of(System.getProperty("chainfeed.kafka.lib")).getParent();
        int kafkaPort = Processes.freePort();
        int controllerPort = Processes.freePort();
        int esPort = Processes.freePort();
        int esTransportPort = Processes.freePort();
        Stack stack = Stack.fromArgs("--no-services", "--run-dir", target.resolve("stack-it-run").toString(),
                "--kafka-lib", System.getProperty("chainfeed.kafka.lib"),
                "--es-home", System.getProperty("chainfeed.es.home"),
                "--kafka-port", Integer.toString(kafkaPort), "--kafka-controller-port", Integer.toString(controllerPort),
                "--es-port", Integer.toString(esPort), "--es-transport-port", Integer.toString(esTransportPort));
        try (stack) {
            stack.start();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get())
                        .containsAll(Topics.all(3).stream().map(TopicSpec::name).toList());
            }
            try (RestClient rest = RestClient.builder(HttpHost.create(stack.elasticsearchUri().toString())).build()) {
                assertThat(IndexSetup.indicesBehindAlias(rest, IndexSetup.READS_ALIAS))
                        .containsExactly(IndexSetup.READS_INDEX);
            }
        }
        for (int port : List.of(kafkaPort, controllerPort, esPort, esTransportPort)) {
            assertThat(Processes.canConnect("127.0.0.1", port, Duration.ofMillis(500)))
                    .as("something still listens on port %d", port).isFalse();
        }
    }
}
