package io.chainfeed.streams.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Source;
import io.chainfeed.devstack.ElasticsearchNode;
import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadDocuments;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.ElasticsearchExtension;
import io.chainfeed.testsupport.TopicProbe;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The indexer against a real Kafka broker and a real Elasticsearch: external versioning
 * makes duplicates and stale versions no-ops, undecodable records go to the dead-letter
 * topic with the reason, and offsets are committed once the bulk succeeded.
 */
class ReadIndexerIT {

    private static EmbeddedKafkaKraftBroker kafka;

    private static ElasticsearchNode es;

    private static RestClient rest;

    private static ElasticsearchClient client;

    @BeforeAll
    static void start() throws Exception {
        kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.afterPropertiesSet();
        es = ElasticsearchExtension.start(ReadIndexerIT.class.getSimpleName());
        rest = RestClient.builder(HttpHost.create(es.httpUri().toString())).build();
        client = new ElasticsearchClient(new RestClientTransport(rest, new JacksonJsonpMapper()));
        TopicSetup.ensure(kafka.getBrokersAsString(), Topics.all(1), (short) 1);
        IndexSetup.ensureReadsIndex(rest);
    }

    @AfterAll
    static void stop() throws Exception {
        if (rest != null) {
            rest.close();
        }
        if (es != null) {
            es.close();
        }
        if (kafka != null) {
            kafka.destroy();
        }
    }

    private static Read read(String title, long version) {
        return Read.newBuilder()
            .setId("term:hbm")
            .setKind(ReadKind.TERM)
            .setSlug("hbm")
            .setTitle(title)
            .setSummary("Stacked DRAM beside the accelerator.")
            .setSources(List.of(new Source("JEDEC", "https://www.jedec.org/")))
            .setDisclaimer("Research, not advice.")
            .setVersion(version)
            .setUpdatedAt(Instant.ofEpochMilli(version))
            .build();
    }

    @Test
    void anIndexMadeWithAnEarlierMappingGetsTheNewFieldsInPlace() throws Exception {
        // The reads index as released before term history: no previousVersion, no
        // changes.
        var current = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(ReadsIndex.settingsAndMappings());
        var older = current.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) older.path("mappings").path("properties"))
            .remove(List.of("previousVersion", "changes"));
        IndexSetup.ensureIndexBehindAlias(rest, "reads-upgrade", "reads-upgrade-v1", older.toString());
        Read edited = Read.newBuilder(read("HBM", 3000))
            .setPreviousVersion(2000L)
            .setChanges(List.of(new io.chainfeed.avro.ReadChange("summary", "changed", "", "Stacked DRAM.")))
            .build();
        ReadDocument doc = ReadDocuments.toDocument(edited);
        org.assertj.core.api.Assertions
            .assertThatThrownBy(() -> client.index(i -> i.index("reads-upgrade").id("term:hbm").document(doc)))
            .as("the strict earlier mapping refuses the new fields")
            .hasMessageContaining("strict_dynamic_mapping_exception");

        IndexSetup.ensureIndexBehindAlias(rest, "reads-upgrade", "reads-upgrade-v1", current.toString());
        assertThat(IndexSetup.indicesBehindAlias(rest, "reads-upgrade")).containsExactly("reads-upgrade-v1");
        client.index(i -> i.index("reads-upgrade")
            .id("term:hbm")
            .document(doc)
            .refresh(co.elastic.clients.elasticsearch._types.Refresh.True));
        var found = client.search(
                q -> q.index("reads-upgrade").query(m -> m.term(t -> t.field("changes.field").value("summary"))),
                Map.class);
        assertThat(found.hits().hits()).hasSize(1);
        assertThat(found.hits().hits().get(0).source().get("previousVersion")).isEqualTo(2000);
    }

    @Test
    void indexesIdempotentlyDeadLettersGarbageAndCommitsAfterTheBulk() throws Exception {
        String bootstrap = kafka.getBrokersAsString();
        AvroSerde<Read> serde = AvroSerde.of(Read.class);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer())) {
            producer
                .send(new ProducerRecord<>(Topics.READS, "term:hbm",
                        serde.serialize(Topics.READS, read("HBM v2", 2000))))
                .get();
            producer
                .send(new ProducerRecord<>(Topics.READS, "term:hbm",
                        serde.serialize(Topics.READS, read("HBM v2", 2000))))
                .get();
            producer
                .send(new ProducerRecord<>(Topics.READS, "term:hbm",
                        serde.serialize(Topics.READS, read("HBM v1", 1000))))
                .get();
            producer.send(new ProducerRecord<>(Topics.READS, "term:bad", "not avro".getBytes(StandardCharsets.UTF_8)))
                .get();
        }

        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, "indexer-it",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
        ReadIndexer indexer = new ReadIndexer(consumer, dlq, client, ReadsIndex.ALIAS, new SimpleMeterRegistry());
        Thread thread = new Thread(indexer, "indexer-it");
        thread.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> indexer.indexedCount() >= 3);
        }
        finally {
            indexer.close();
            thread.join(10_000);
        }

        @SuppressWarnings("rawtypes")
        var doc = client.get(g -> g.index(ReadsIndex.ALIAS).id("term:hbm"), Map.class);
        assertThat(doc.found()).isTrue();
        assertThat(doc.version()).isEqualTo(ReadsIndex.externalVersion(2000L));
        assertThat(doc.source().get("title")).isEqualTo("HBM v2");

        try (KafkaConsumer<String, byte[]> check = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, "indexer-it",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, OffsetAndMetadata> committed = check
                .committed(java.util.Set.of(new TopicPartition(Topics.READS, 0)));
            assertThat(committed.get(new TopicPartition(Topics.READS, 0)).offset()).isEqualTo(4L);

        }
        try (TopicProbe<byte[]> deadLetters = TopicProbe.bytes(bootstrap, Topics.READS_DLQ)) {
            List<TopicProbe.Rec<byte[]>> dead = deadLetters.atLeast(1, Duration.ofSeconds(10));
            deadLetters.nothingMoreFor(Duration.ofSeconds(1));
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).key()).isEqualTo("term:bad");
            assertThat(dead.get(0).header(Topics.DLQ_REASON_HEADER)).contains("cannot decode Read");
        }
    }

}
