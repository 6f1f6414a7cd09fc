package io.chainfeed.streams.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Source;
import io.chainfeed.devstack.ElasticsearchNode;
import io.chainfeed.embeddings.SentenceEmbedder;
import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.platform.kafka.GroupOffsets;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.ReadDocuments;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.chain.SignalReads;
import io.chainfeed.testsupport.ElasticsearchExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
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
 * The embedder beside the indexer, against a real Kafka broker, a real Elasticsearch and
 * the real sentence model: a read's vector follows its lexical write; a replay of the
 * same read keeps it; a new version is written without a vector and gets its own; a
 * deleted read is skipped without error; and the embedder never writes ahead of the
 * indexer.
 */
class ReadEmbedderIT {

    private static EmbeddedKafkaKraftBroker kafka;

    private static ElasticsearchNode es;

    private static RestClient rest;

    private static ElasticsearchClient client;

    @BeforeAll
    static void start() throws Exception {
        kafka = new EmbeddedKafkaKraftBroker(1, 1);
        kafka.afterPropertiesSet();
        es = ElasticsearchExtension.start(ReadEmbedderIT.class.getSimpleName());
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

    private static Read read(String id, String title, long version) {
        return Read.newBuilder()
            .setId(id)
            .setKind(ReadKind.TERM)
            .setSlug(id.substring(id.indexOf(':') + 1))
            .setTitle(title)
            .setSummary("Chips mounted side by side on a silicon interposer inside one package.")
            .setSources(List.of(new Source("TSMC", "https://3dfabric.tsmc.com/")))
            .setDisclaimer("Research, not advice.")
            .setVersion(version)
            .setUpdatedAt(Instant.ofEpochMilli(version))
            .build();
    }

    @SuppressWarnings("rawtypes")
    private static GetResponse<Map> doc(String id) throws Exception {
        return client.get(g -> g.index(ReadsIndex.ALIAS).id(id), Map.class);
    }

    private static KafkaConsumer<String, byte[]> consumer(String group) {
        return new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBrokersAsString(),
                        ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    @SuppressWarnings("rawtypes")
    void theVectorFollowsTheLexicalWriteSurvivesReplaysAndIsRedoneForANewVersion() throws Exception {
        String bootstrap = kafka.getBrokersAsString();
        AvroSerde<Read> serde = AvroSerde.of(Read.class);
        KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer());
        producer
            .send(new ProducerRecord<>(Topics.READS, "term:cowos",
                    serde.serialize(Topics.READS, read("term:cowos", "CoWoS", 1000))))
            .get();
        producer
            .send(new ProducerRecord<>(Topics.READS, "term:gone",
                    serde.serialize(Topics.READS, read("term:gone", "Gone", 1000))))
            .get();
        producer.send(new ProducerRecord<>(Topics.READS, "term:gone", null)).get();

        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        ReadEmbedder embedder = new ReadEmbedder(consumer("embedder-it"), client, ReadsIndex.ALIAS,
                SentenceEmbedder.shared()::embedAll, "it-model", ReadEmbedder.Text.WITH_SECTIONS,
                () -> GroupOffsets.committed(admin, "indexer-it", Topics.READS, Duration.ofSeconds(5)),
                new SimpleMeterRegistry(), Clock.systemUTC());
        Thread embedderThread = new Thread(embedder, "embedder-it");
        embedderThread.start();
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
        try {
            // No indexer yet: the embedder waits for it and writes nothing.
            Thread.sleep(2_000);
            assertThat(doc("term:cowos").found()).isFalse();
            assertThat(embedder.embeddedCount()).isZero();

            ReadIndexer indexer = new ReadIndexer(consumer("indexer-it"), dlq, client, ReadsIndex.ALIAS,
                    new SimpleMeterRegistry());
            Thread indexerThread = new Thread(indexer, "indexer-it");
            indexerThread.start();
            try {
                await().atMost(Duration.ofSeconds(60))
                    .until(() -> doc("term:cowos").found() && doc("term:cowos").source().get("embedding") != null);
                GetResponse<Map> first = doc("term:cowos");
                assertThat(first.version()).isEqualTo(ReadsIndex.externalVersion(1000) + 1);
                assertThat(first.source()).containsEntry("embeddedVersion", 1000)
                    .containsEntry("embeddingModel", "it-model");
                assertThat((List<?>) first.source().get("embedding")).hasSize(SentenceEmbedder.DIMENSIONS);
                assertThat(doc("term:gone").found()).isFalse();

                // A replay of the same read: the indexer meets a 409 and the vector
                // stays.
                long indexed = indexer.indexedCount();
                producer
                    .send(new ProducerRecord<>(Topics.READS, "term:cowos",
                            serde.serialize(Topics.READS, read("term:cowos", "CoWoS", 1000))))
                    .get();
                await().atMost(Duration.ofSeconds(30)).until(() -> indexer.indexedCount() > indexed);
                assertThat(doc("term:cowos").source().get("embedding")).isNotNull();
                assertThat(doc("term:cowos").version()).isEqualTo(first.version());

                // A new version: written without a vector, then given its own.
                producer
                    .send(new ProducerRecord<>(Topics.READS, "term:cowos",
                            serde.serialize(Topics.READS, read("term:cowos", "CoWoS-L", 2000))))
                    .get();
                await().atMost(Duration.ofSeconds(60))
                    .until(() -> Integer.valueOf(2000).equals(doc("term:cowos").source().get("embeddedVersion")));
                GetResponse<Map> second = doc("term:cowos");
                assertThat(second.version()).isEqualTo(ReadsIndex.externalVersion(2000) + 1);
                assertThat(second.source()).containsEntry("title", "CoWoS-L");
                assertThat(second.source().get("embedding")).isNotEqualTo(first.source().get("embedding"));
            }
            finally {
                indexer.close();
                indexerThread.join(10_000);
            }
        }
        finally {
            embedder.close();
            embedderThread.join(10_000);
            admin.close();
            producer.close();
        }
    }

    /**
     * A signal read as the chain-state topology makes it, tagged with the memory layer.
     */
    private static Read signal(String id, String headline, String body, Instant observedAt) {
        Read read = new SignalReads(List.of(), List.of(), List.of()).read(ConstraintSignal.newBuilder()
            .setId(id)
            .setHeadline(headline)
            .setBody(body)
            .setDirection(Direction.EASING)
            .setMagnitude(3)
            .setObservedAt(observedAt)
            .setSource(new Source("Outlet " + id, "https://example.org/" + id))
            .build());
        return Read.newBuilder(read)
            .setLayers(List.of(new LayerTag("memory", "Memory", 1.0, true, List.of())))
            .setVersion(1000)
            .build();
    }

    /**
     * Issue 40 item 3: a signal read telling an indexed signal's story in other words
     * joins that story (search collapses them); a different story on the same layer and
     * day keeps its own. Texts from near-duplicates/pairs.tsv (pair 1 and the hard
     * negative of pair 2, put on the anchor's day).
     */
    @Test
    @SuppressWarnings("rawtypes")
    void aRewordedSignalJoinsTheStoryItRetellsAndADifferentOneKeepsItsOwn() throws Exception {
        String bootstrap = kafka.getBrokersAsString();
        AvroSerde<Read> serde = AvroSerde.of(Read.class);
        Instant day = Instant.parse("2023-04-07T00:00:00Z");
        Read anchor = signal("nd-anchor",
                "Samsung cuts memory production after its weakest quarterly profit in 14 years",
                "Samsung said it was lowering memory output by a meaningful level after Q1 operating profit fell to "
                        + "about 600 billion won; it had resisted cuts while its inventory grew to 52.2 trillion won.",
                day);
        Read other = signal("nd-other",
                "DRAM prices fell about 20% in Q1 2023 and are set to drop another 10-15% in Q2",
                "TrendForce found DRAM average prices down roughly a fifth in the first quarter despite output cuts, "
                        + "with PC makers still holding 9 to 13 weeks of inventory and server DRAM stock piling up.",
                day);
        Read retold = signal("nd-retold", "Weakest profit in 14 years pushes Samsung to trim memory output",
                "After holding off while stockpiles reached 52.2 trillion won, Samsung now says it will reduce memory "
                        + "production meaningfully; first-quarter operating profit came in near 600 billion won.",
                day.plus(Duration.ofDays(1)));
        KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        ReadIndexer indexer = new ReadIndexer(consumer("indexer-nd"), dlq, client, ReadsIndex.ALIAS,
                new SimpleMeterRegistry());
        ReadEmbedder embedder = new ReadEmbedder(consumer("embedder-nd"), client, ReadsIndex.ALIAS,
                SentenceEmbedder.shared()::embedAll, "it-model", ReadEmbedder.Text.WITH_SECTIONS,
                () -> GroupOffsets.committed(admin, "indexer-nd", Topics.READS, Duration.ofSeconds(5)),
                new SimpleMeterRegistry(), Clock.systemUTC());
        Thread indexerThread = new Thread(indexer, "indexer-nd");
        Thread embedderThread = new Thread(embedder, "embedder-nd");
        indexerThread.start();
        embedderThread.start();
        try {
            producer.send(new ProducerRecord<>(Topics.READS, anchor.getId(), serde.serialize(Topics.READS, anchor)))
                .get();
            await().atMost(Duration.ofSeconds(60))
                .until(() -> doc(anchor.getId()).found() && doc(anchor.getId()).source().get("embedding") != null);
            // The index refreshes every second: a vector written less than that before
            // is not searchable yet, so the later two come after a refresh. Both find the
            // anchor nearest; only the retelling is near enough.
            client.indices().refresh(r -> r.index(ReadsIndex.ALIAS));
            for (Read r : List.of(other, retold)) {
                producer.send(new ProducerRecord<>(Topics.READS, r.getId(), serde.serialize(Topics.READS, r))).get();
            }
            await().atMost(Duration.ofSeconds(60))
                .until(() -> doc(retold.getId()).found() && doc(retold.getId()).source().get("embedding") != null
                        && doc(other.getId()).found() && doc(other.getId()).source().get("embedding") != null);
            String anchorStory = ReadDocuments.story(anchor);
            assertThat(doc(anchor.getId()).source().get("story")).isEqualTo(anchorStory);
            assertThat(doc(retold.getId()).source().get("story")).as("the retelling joins the anchor's story")
                .isEqualTo(anchorStory);
            assertThat(doc(other.getId()).source().get("story")).as("a different story keeps its own")
                .isEqualTo(ReadDocuments.story(other));
        }
        finally {
            embedder.close();
            indexer.close();
            embedderThread.join(10_000);
            indexerThread.join(10_000);
            admin.close();
            producer.close();
            dlq.close();
        }
    }

}
