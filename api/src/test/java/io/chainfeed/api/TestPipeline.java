package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.chainfeed.devstack.ElasticsearchNode;
import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.ingest.IngestService;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.page.GlossaryPageParser;
import io.chainfeed.ingest.publish.KafkaClients;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalReader;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.chain.ChainStateTopology;
import io.chainfeed.streams.index.ReadIndexer;
import io.chainfeed.streams.tagging.TaggingTopology;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The real pipeline behind the api ITs: an Elasticsearch process, the tagging topology and the indexer
 * on the test's embedded Kafka broker, and the bundled corpus loaded through the real ingest publisher.
 * One per IT class, held in a static field: {@link #startElasticsearch()} in {@code @BeforeAll},
 * {@link #esUri()} for {@code spring.elasticsearch.uris}, {@link #close()} in {@code @AfterAll}.
 */
final class TestPipeline implements AutoCloseable {
    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };
    private final String name;
    private final boolean chainState;
    private ElasticsearchNode es;
    private KafkaStreams streams;
    private KafkaStreams chainStreams;
    private ReadIndexer indexer;
    private Thread indexerThread;
    private Corpus corpus;
    private RestClient pipelineRest;
    private org.springframework.context.ConfigurableApplicationContext streamsService;

    /** @param name the IT's name: streams application id, Elasticsearch and state directories */
    TestPipeline(String name) {
        this(name, false);
    }

    /**
     * @param name       the IT's name: streams application ids, Elasticsearch and state directories
     * @param chainState also run the chain-state topology (signals to {@code chainfeed.chain-state.v1})
     */
    TestPipeline(String name, boolean chainState) {
        this.name = name;
        this.chainState = chainState;
    }

    void startElasticsearch() throws Exception {
        es = ElasticsearchNode.builder(Path.of(System.getProperty("chainfeed.es.home")), Path.of("target", "it-es-" + name))
                .httpPort(0)
                .build();
        es.start();
    }

    URI esUri() {
        return es.httpUri();
    }

    /** @return the Elasticsearch process, for fault tests that freeze it */
    java.util.Optional<ProcessHandle> esProcess() {
        return es == null ? java.util.Optional.empty() : es.processHandle();
    }

    /** Creates the topics and the index and starts the tagging topology and the indexer, once. */
    synchronized void start(String bootstrap, RestClient apiRestClient, ElasticsearchClient apiEsClient) throws Exception {
        if (streams != null) {
            return;
        }
        // The pipeline's own Elasticsearch clients with default timeouts, as the streams service has: the api's
        // are tuned to give up within a second and sit behind the api's circuit breaker.
        pipelineRest = RestClient.builder(org.apache.http.HttpHost.create(es.httpUri().toString())).build();
        RestClient restClient = pipelineRest;
        ElasticsearchClient esClient = new ElasticsearchClient(
                new co.elastic.clients.transport.rest_client.RestClientTransport(pipelineRest,
                        new co.elastic.clients.json.jackson.JacksonJsonpMapper()));
        TopicSetup.ensure(bootstrap, Topics.all(1), (short) 1);
        IndexSetup.ensureReadsIndex(restClient);

        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, name);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        config.put(StreamsConfig.STATE_DIR_CONFIG, Path.of("target", "it-streams-state-" + name).toAbsolutePath().toString());
        // As the streams service runs them: undecodable records go to the dead-letter topics.
        config.put(StreamsConfig.DEFAULT_DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                io.chainfeed.streams.tagging.DeadLetterDeserializationHandler.class);
        streams = new KafkaStreams(TaggingTopology.buildTopology(config), config);
        streams.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
        if (chainState) {
            Properties chain = new Properties();
            chain.putAll(config);
            chain.put(StreamsConfig.APPLICATION_ID_CONFIG, name + "-chain");
            chain.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
            chain.put(StreamsConfig.STATE_DIR_CONFIG, Path.of("target", "it-chain-state-" + name).toAbsolutePath().toString());
            chainStreams = new KafkaStreams(ChainStateTopology.buildTopology(chain), chain);
            chainStreams.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> chainStreams.state() == KafkaStreams.State.RUNNING);
        }

        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, name + "-indexer",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
        indexer = new ReadIndexer(consumer, dlq, esClient, ReadsIndex.ALIAS);
        indexerThread = new Thread(indexer, name + "-indexer");
        indexerThread.start();
    }

    /**
     * Loads the whole bundled corpus (reference data and terms) through the real pipeline, once, and
     * waits until every term is readable through the api and the index is quiet.
     *
     * @param http the api under test
     * @return the bundled corpus
     */
    synchronized Corpus loadCorpus(String bootstrap, TestRestTemplate http) throws Exception {
        if (corpus != null) {
            return corpus;
        }
        Corpus bundled = Corpus.loadBundled();
        try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrap, name + "-corpus");
             KafkaConsumer<String, byte[]> ledger = KafkaClients.ledgerConsumer(bootstrap)) {
            TermPublisher publisher = new TermPublisher(producer, ledger, Clock.systemUTC());
            new IngestService(new GlossaryPageParser(bundled.referenceData()), publisher, bundled).loadCorpus(bundled);
        }
        assertThat(bundled.terms()).hasSizeGreaterThanOrEqualTo(50);
        for (var term : bundled.terms()) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> http.exchange("/api/v1/reads/term:" + term.slug(), HttpMethod.GET, null, JSON)
                            .getStatusCode() == HttpStatus.OK);
        }
        // Tagging re-runs when reference data arrives after a term: wait until the index is quiet.
        long last = -1;
        for (int stable = 0; stable < 3; ) {
            Thread.sleep(1500);
            ResponseEntity<Map<String, Object>> r = http.exchange(
                    URI.create("/api/v1/search?q=memory+OR+network+OR+chip"), HttpMethod.GET, null, JSON);
            long now = r.getBody() != null && r.getBody().get("total") instanceof Number n ? n.longValue() : -2;
            stable = now == last ? stable + 1 : 0;
            last = now;
        }
        corpus = bundled;
        return corpus;
    }

    /**
     * Publishes the bundled reference data (chain layers and companies) through the real ingest publisher.
     *
     * @param bootstrap the broker
     */
    void publishReference(String bootstrap) throws Exception {
        Corpus bundled = Corpus.loadBundled();
        try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrap, name + "-reference");
             KafkaConsumer<String, byte[]> ledger = KafkaClients.ledgerConsumer(bootstrap)) {
            new TermPublisher(producer, ledger, Clock.systemUTC()).publishReference(bundled.layers(), bundled.companies());
        }
    }

    /**
     * Starts the real streams service (both topologies, the indexer and its HTTP port, with the chain's
     * interactive queries) instead of {@link #start}, and waits until its health is UP.
     *
     * @param bootstrap the broker
     * @param port      its HTTP port on 127.0.0.1
     */
    synchronized void startStreamsService(String bootstrap, int port) {
        streamsService = new org.springframework.boot.builder.SpringApplicationBuilder(
                io.chainfeed.streams.StreamsApplication.class).run(
                "--server.port=" + port,
                "--server.address=127.0.0.1",
                "--spring.application.name=chainfeed-streams-" + name,
                "--spring.kafka.bootstrap-servers=" + bootstrap,
                "--spring.elasticsearch.uris=" + es.httpUri(),
                "--spring.elasticsearch.socket-timeout=30s",
                "--chainfeed.kafka.partitions=1",
                "--chainfeed.streams.application-id=" + name,
                "--chainfeed.streams.chain-application-id=" + name + "-chain",
                "--chainfeed.streams.indexer-group-id=" + name + "-indexer",
                "--chainfeed.streams.state-dir=" + Path.of("target", "it-streams-service-" + name).toAbsolutePath());
        TestRestTemplate health = new TestRestTemplate();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> health.exchange(
                "http://127.0.0.1:" + port + "/actuator/health", HttpMethod.GET, null, JSON).getStatusCode() == HttpStatus.OK);
    }

    /**
     * Publishes constraint signals through the real signal ingest (validation included).
     *
     * @param json one signal or an array, as {@code POST /ingest/v1/signals} takes them
     */
    void publishSignals(String bootstrap, String json) {
        try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrap, name + "-signals")) {
            SignalIngest.BatchResult r = new SignalIngest(new SignalValidator(Corpus.loadBundled().layers()), producer,
                    Clock.systemUTC()).ingest(SignalReader.json(json), false);
            assertThat(r.rejected()).isEmpty();
            assertThat(r.published()).isTrue();
        }
    }

    @Override
    public void close() throws Exception {
        if (streamsService != null) {
            streamsService.close();
        }
        if (indexer != null) {
            indexer.close();
            indexerThread.join(10_000);
        }
        if (streams != null) {
            streams.close(Duration.ofSeconds(10));
        }
        if (chainStreams != null) {
            chainStreams.close(Duration.ofSeconds(10));
        }
        if (pipelineRest != null) {
            pipelineRest.close();
        }
        if (es != null) {
            es.close();
        }
    }
}
