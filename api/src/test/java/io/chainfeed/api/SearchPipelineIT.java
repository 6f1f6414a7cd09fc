package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.chainfeed.infra.ElasticsearchNode;
import io.chainfeed.infra.IndexSetup;
import io.chainfeed.infra.ReadsIndex;
import io.chainfeed.infra.TopicSetup;
import io.chainfeed.ingest.IngestService;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.page.GlossaryPageParser;
import io.chainfeed.ingest.publish.KafkaClients;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.index.ReadIndexer;
import io.chainfeed.streams.tagging.TaggingTopology;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The walking skeleton end to end, on a real Kafka broker (KRaft, in-process) and a real
 * Elasticsearch (a separate process): reference data and a glossary page go in through the ingest
 * publisher, the real tagging topology and indexer run, and the tagged read comes out of
 * {@code GET /api/v1/search}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@EmbeddedKafka(kraft = true, partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class SearchPipelineIT {
    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };
    private static ElasticsearchNode es;
    private static KafkaStreams streams;
    private static ReadIndexer indexer;
    private static Thread indexerThread;

    @Autowired
    TestRestTemplate http;
    @Autowired
    EmbeddedKafkaBroker broker;
    @Autowired
    ElasticsearchClient esClient;
    @Autowired
    RestClient restClient;

    @BeforeAll
    static void startElasticsearch() throws Exception {
        es = ElasticsearchNode.builder(Path.of(System.getProperty("chainfeed.es.home")),
                        Path.of("target", "it-es-" + SearchPipelineIT.class.getSimpleName()))
                .httpPort(0)
                .build();
        es.start();
    }

    @DynamicPropertySource
    static void elasticsearch(DynamicPropertyRegistry registry) {
        registry.add("spring.elasticsearch.uris", () -> es.httpUri().toString());
    }

    @AfterAll
    static void stopAll() throws Exception {
        if (indexer != null) {
            indexer.close();
            indexerThread.join(10_000);
        }
        if (streams != null) {
            streams.close(Duration.ofSeconds(10));
        }
        if (es != null) {
            es.close();
        }
    }

    private synchronized void startPipeline() throws Exception {
        if (streams != null) {
            return;
        }
        String bootstrap = broker.getBrokersAsString();
        TopicSetup.ensure(bootstrap, Topics.all(1), (short) 1);
        IndexSetup.ensureReadsIndex(restClient);

        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "search-pipeline-it");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        config.put(StreamsConfig.STATE_DIR_CONFIG, Path.of("target", "it-streams-state").toAbsolutePath().toString());
        streams = new KafkaStreams(TaggingTopology.buildTopology(config), config);
        streams.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);

        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "search-pipeline-it-indexer",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
        indexer = new ReadIndexer(consumer, dlq, esClient, ReadsIndex.ALIAS);
        indexerThread = new Thread(indexer, "it-indexer");
        indexerThread.start();
    }

    @Test
    void aGlossaryPageGoesInAndATaggedReadComesOutOfSearch() throws Exception {
        startPipeline();
        String bootstrap = broker.getBrokersAsString();
        Corpus corpus = Corpus.loadBundled();
        long pageVersion;
        try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrap, "it-ingest");
             KafkaConsumer<String, byte[]> ledger = KafkaClients.ledgerConsumer(bootstrap)) {
            TermPublisher publisher = new TermPublisher(producer, ledger, Clock.systemUTC());
            IngestService ingest = new IngestService(new GlossaryPageParser(corpus.referenceData()), publisher, corpus);
            publisher.publishReference(corpus.layers(), corpus.companies());
            // Tagging does not wait for reference data: a term tagged before it arrives is re-tagged
            // once it does, so no ordering is needed here.
            String page;
            try (InputStream in = getClass().getResourceAsStream("/pages/rdma.txt")) {
                page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            var result = ingest.ingestPage(page, false, "https://example.org/glossary/rdma", false);
            assertThat(result.result().outcome()).isEqualTo(TermPublisher.Outcome.PUBLISHED);
            pageVersion = result.result().version();
            // The same page again publishes nothing.
            assertThat(ingest.ingestPage(page, false, "https://example.org/glossary/rdma", false).result().outcome())
                    .isEqualTo(TermPublisher.Outcome.UNCHANGED);
        }

        Map<String, Object> hit = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> firstHit("remote direct memory access"), h -> h != null && "term:rdma".equals(h.get("id"))
                        && ((Number) h.get("version")).longValue() >= pageVersion);

        assertThat(hit.get("kind")).isEqualTo("term");
        assertThat(ids(hit.get("layers"), "id")).contains("network-fabric");
        assertThat(ids(hit.get("companies"), "symbol")).contains("ANET", "ORCL", "HPE", "2345.TW");
        assertThat(ids(hit.get("related"), "title"))
                .containsExactly("InfiniBand", "AI Ethernet (RoCE)", "Network fabric", "Scale-out vs scale-up");
        assertThat((String) hit.get("disclaimer")).contains("research, not advice");
        assertThat((List<?>) hit.get("sources")).isNotEmpty();
        assertThat((List<?>) hit.get("snippets")).isNotEmpty();
        assertThat(hit).doesNotContainKey("evidence");

        ResponseEntity<Map<String, Object>> read = http.exchange("/api/v1/reads/term:rdma", HttpMethod.GET, null, JSON);
        assertThat(read.getStatusCode()).isEqualTo(HttpStatus.OK);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> companies = (List<Map<String, Object>>) read.getBody().get("companies");
        assertThat(companies).allSatisfy(c -> assertThat((List<?>) c.get("evidence")).isNotEmpty());

        ResponseEntity<Map<String, Object>> missing = http.exchange("/api/v1/reads/term:nope", HttpMethod.GET, null, JSON);
        assertThat(missing.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(missing.getHeaders().getContentType().toString()).contains("application/problem+json");

        ResponseEntity<Map<String, Object>> health = http.exchange("/actuator/health", HttpMethod.GET, null, JSON);
        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        @SuppressWarnings("unchecked")
        Map<String, Object> components = (Map<String, Object>) health.getBody().get("components");
        assertThat(components).containsKeys("kafka", "elasticsearch");
    }

    /**
     * The whole bundled corpus through the real pipeline: every term's read ranks first when searched
     * by its title and by its main alias (the first one, usually the acronym expansion).
     */
    @Test
    void everyCorpusTermRanksFirstForItsTitleAndMainAlias() throws Exception {
        startPipeline();
        Corpus corpus = Corpus.loadBundled();
        try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(broker.getBrokersAsString(), "it-corpus");
             KafkaConsumer<String, byte[]> ledger = KafkaClients.ledgerConsumer(broker.getBrokersAsString())) {
            TermPublisher publisher = new TermPublisher(producer, ledger, Clock.systemUTC());
            new IngestService(new GlossaryPageParser(corpus.referenceData()), publisher, corpus).loadCorpus(corpus);
        }
        assertThat(corpus.terms()).hasSizeGreaterThanOrEqualTo(50);
        for (var term : corpus.terms()) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> http.exchange("/api/v1/reads/term:" + term.slug(), HttpMethod.GET, null, JSON)
                            .getStatusCode() == HttpStatus.OK);
        }
        List<String> misses = new java.util.ArrayList<>();
        for (var term : corpus.terms()) {
            List<String> queries = new java.util.ArrayList<>(List.of(term.title()));
            if (!term.aliases().isEmpty()) {
                queries.add(term.aliases().get(0));
            }
            for (String q : queries) {
                Map<String, Object> hit = firstHit(q);
                String got = hit == null ? "nothing" : (String) hit.get("id");
                if (!("term:" + term.slug()).equals(got)) {
                    misses.add("'" + q + "' -> " + got + " (wanted term:" + term.slug() + ")");
                }
            }
        }
        assertThat(misses).as("queries whose first hit is not the term's own read").isEmpty();
    }

    @Test
    void badQueriesGetProblemDetails() {
        ResponseEntity<Map<String, Object>> blank = http.exchange("/api/v1/search?q=", HttpMethod.GET, null, JSON);
        assertThat(blank.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(blank.getHeaders().getContentType().toString()).contains("application/problem+json");
        ResponseEntity<Map<String, Object>> tooLong = http.exchange("/api/v1/search?q=" + "a".repeat(1001),
                HttpMethod.GET, null, JSON);
        assertThat(tooLong.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> firstHit(String q) {
        ResponseEntity<Map<String, Object>> r = http.exchange("/api/v1/search?q={q}", HttpMethod.GET, null, JSON, q);
        if (r.getStatusCode() != HttpStatus.OK) {
            return null;
        }
        List<Map<String, Object>> results = (List<Map<String, Object>>) r.getBody().get("results");
        return results.isEmpty() ? null : results.get(0);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> ids(Object tags, String field) {
        return ((List<Map<String, Object>>) tags).stream().map(t -> t.get(field)).toList();
    }
}
