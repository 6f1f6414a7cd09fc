package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.schemas.TopicSpec;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.http.HttpHost;
import org.apache.http.util.EntityUtils;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a real Kafka and a real Elasticsearch (free ports, run dirs under target/),
 * exercises the topic and index set-up twice each, a produce/consume round trip and an
 * index/search round trip, then stops both and checks that nothing listens any more.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class EmbeddedDefaultIT {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDefaultIT.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private KafkaNode kafka;

    private ElasticsearchNode es;

    private RestClient rest;

    @BeforeAll
    void start() throws Exception {
        Path target = Path.of(System.getProperty("chainfeed.kafka.lib")).getParent();
        kafka = KafkaNode.builder(Path.of(System.getProperty("chainfeed.kafka.lib")), target.resolve("it-run/kafka"))
            .port(0)
            .controllerPort(0)
            .build();
        es = ElasticsearchNode.builder(Path.of(System.getProperty("chainfeed.es.home")), target.resolve("it-run/es"))
            .build();
        // In parallel, as the Stack does.
        CompletableFuture<Void> k = CompletableFuture.runAsync(() -> startUnchecked(kafka::start));
        CompletableFuture<Void> e = CompletableFuture.runAsync(() -> startUnchecked(es::start));
        CompletableFuture.allOf(k, e).join();
        LOG.info("Kafka ready in {} ms, Elasticsearch ready in {} ms", kafka.readyAfter().toMillis(),
                es.readyAfter().toMillis());
        rest = RestClient.builder(HttpHost.create(es.httpUri().toString())).build();
    }

    private interface Start {

        Object run() throws IOException;

    }

    private static void startUnchecked(Start start) {
        try {
            start.run();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @AfterAll
    void stop() throws IOException {
        if (rest != null) {
            rest.close();
        }
        List<Integer> ports = new ArrayList<>();
        if (kafka != null) {
            ports.add(kafka.port());
            ports.add(kafka.controllerPort());
            kafka.close();
        }
        if (es != null) {
            ports.add(es.httpPort());
            ports.add(es.transportPort());
            es.close();
        }
        for (int port : ports) {
            assertThat(Processes.canConnect("127.0.0.1", port, Duration.ofMillis(500)))
                .as("something still listens on port %d", port)
                .isFalse();
        }
        assertThat(kafka.processHandle()).isEmpty();
        assertThat(es.processHandle()).isEmpty();
    }

    @Test
    void topicsAreCreatedOnceProducedToAndConsumedFrom() throws Exception {
        List<TopicSpec> specs = Topics.all(3);
        Set<String> first = TopicSetup.ensure(kafka.bootstrapServers(), specs, (short) 1);
        Set<String> second = TopicSetup.ensure(kafka.bootstrapServers(), specs, (short) 1);
        assertThat(first).hasSize(specs.size());
        assertThat(second).isEmpty();

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            assertThat(admin.listTopics().names().get()).containsAll(specs.stream().map(TopicSpec::name).toList());
            assertThat(admin.describeTopics(List.of(Topics.READS)).allTopicNames().get().get(Topics.READS).partitions())
                .hasSize(3);
            // A drifted cleanup.policy is put back.
            ConfigResource reads = new ConfigResource(ConfigResource.Type.TOPIC, Topics.READS);
            admin
                .incrementalAlterConfigs(
                        Map.of(reads,
                                List.of(new AlterConfigOp(new ConfigEntry("cleanup.policy", "delete"),
                                        AlterConfigOp.OpType.SET))))
                .all()
                .get();
            // The broker applies config changes from the metadata log asynchronously:
            // wait until the drift
            // shows (else ensure() could still read "compact" and rightly do nothing),
            // then until the fix does.
            assertThat(awaitPolicy(admin, reads, "delete")).isEqualTo("delete");
            assertThat(TopicSetup.ensure(admin, specs, (short) 1)).isEmpty();
            assertThat(awaitPolicy(admin, reads, "compact")).isEqualTo("compact");
        }

        Map<String, Object> producerConfig = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        RecordMetadata sent;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
                new StringSerializer())) {
            sent = producer.send(new ProducerRecord<>(Topics.SIGNALS, "signal:1", "hbm is tight"))
                .get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> consumerConfig = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                new StringDeserializer())) {
            TopicPartition partition = new TopicPartition(sent.topic(), sent.partition());
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<ConsumerRecord<String, String>> received = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (received.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(received::add);
            }
            assertThat(received).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("signal:1");
                assertThat(r.value()).isEqualTo("hbm is tight");
            });
        }
    }

    @Test
    void theIndexingProbeSaysWhenTheReadsIndexRefusesWrites() throws Exception {
        IndexSetup.waitForYellow(rest, Duration.ofSeconds(30));
        IndexSetup.ensureReadsIndex(rest);
        try (io.chainfeed.platform.IndexingProbe probe = new io.chainfeed.platform.IndexingProbe(
                es.httpUri().toString(), Duration.ofMillis(100))) {
            assertThat(probe.state().indexable()).isTrue();
            // What Elasticsearch sets at the flood-stage disk watermark.
            Request block = new Request("PUT", "/" + ReadsIndex.ALIAS + "/_settings");
            block.setJsonEntity("{\"index.blocks.read_only_allow_delete\": true}");
            rest.performRequest(block);
            try {
                org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !probe.state().indexable());
                assertThat(probe.state().view()).containsEntry("state", "waiting")
                    .containsEntry("reason", "Elasticsearch refuses writes to the reads index"
                            + " (index.blocks.read_only_allow_delete: the disk is past the flood-stage watermark)");
            }
            finally {
                block.setJsonEntity("{\"index.blocks.read_only_allow_delete\": null}");
                rest.performRequest(block);
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> probe.state().indexable());
            assertThat(probe.state().view()).containsExactly(java.util.Map.entry("state", "ok"));
        }
        try (io.chainfeed.platform.IndexingProbe nobody = new io.chainfeed.platform.IndexingProbe(
                "http://127.0.0.1:" + LoopbackPorts.free(), Duration.ofMinutes(1))) {
            assertThat(nobody.state().reason()).startsWith("Elasticsearch does not answer (ConnectException");
        }
    }

    @Test
    void readsIndexIsCreatedOnceBehindTheAliasAndSearchable() throws Exception {
        IndexSetup.waitForYellow(rest, Duration.ofSeconds(30));
        IndexSetup.ensureReadsIndex(rest);
        IndexSetup.ensureReadsIndex(rest);
        assertThat(IndexSetup.indicesBehindAlias(rest, ReadsIndex.ALIAS)).containsExactly(ReadsIndex.INDEX);
        // Even when the alias is missing but the index exists (a crash between the two
        // steps).
        rest.performRequest(new Request("DELETE", "/" + ReadsIndex.INDEX + "/_alias/" + ReadsIndex.ALIAS));
        IndexSetup.ensureReadsIndex(rest);
        assertThat(IndexSetup.indicesBehindAlias(rest, ReadsIndex.ALIAS)).containsExactly(ReadsIndex.INDEX);

        Request index = new Request("PUT", "/" + ReadsIndex.ALIAS + "/_doc/term:rdma");
        index.addParameter("refresh", "true");
        index.setJsonEntity("{\"id\":\"term:rdma\",\"kind\":\"TERM\",\"title\":\"RDMA over Converged Ethernet\"}");
        rest.performRequest(index);

        Request search = new Request("POST", "/" + ReadsIndex.ALIAS + "/_search");
        search.setJsonEntity("{\"query\":{\"match\":{\"title\":\"ethernet\"}}}");
        JsonNode hits = JSON
            .readTree(EntityUtils.toString(rest.performRequest(search).getEntity(), StandardCharsets.UTF_8))
            .path("hits");
        assertThat(hits.path("total").path("value").asInt()).isEqualTo(1);
        assertThat(hits.path("hits").get(0).path("_id").asText()).isEqualTo("term:rdma");

        // The mapping is strict: an unknown field is refused.
        Request bad = new Request("PUT", "/" + ReadsIndex.ALIAS + "/_doc/x");
        bad.setJsonEntity("{\"id\":\"x\",\"surprise\":1}");
        try {
            rest.performRequest(bad);
            throw new AssertionError("strict mapping accepted an unknown field");
        }
        catch (ResponseException e) {
            assertThat(e.getResponse().getStatusLine().getStatusCode()).isEqualTo(400);
        }
    }

    @Test
    void logsLandInTheRunDirs() throws IOException {
        assertThat(Files.readString(kafka.runDir().resolve("logs/server.log"))).contains("Kafka Server started");
        assertThat(es.runDir().resolve("logs/chainfeed.log")).exists();
    }

    /**
     * Polls the topic's cleanup.policy for up to 60 s until it reads {@code wanted};
     * returns the last value seen.
     */
    private static String awaitPolicy(Admin admin, ConfigResource topic, String wanted) {
        AtomicReference<String> policy = new AtomicReference<>();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                policy.set(admin.describeConfigs(List.of(topic)).all().get().get(topic).get("cleanup.policy").value());
                return wanted.equals(policy.get());
            });
        }
        catch (ConditionTimeoutException e) {
            // the caller asserts on the last value seen, which names it
        }
        return policy.get();
    }

}
