package io.chainfeed.api;

import static io.chainfeed.api.PipelineJson.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.chainfeed.devstack.ElasticsearchNode;
import io.chainfeed.devstack.LoopbackPorts;
import io.chainfeed.embeddings.SentenceEmbedder;
import io.chainfeed.ingest.IngestApplication;
import io.chainfeed.ingest.IngestService;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.publish.IngestMeters;
import io.chainfeed.ingest.publish.KafkaClients;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalReader;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.platform.kafka.GroupOffsets;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.chain.ChainStateTopology;
import io.chainfeed.streams.index.ReadEmbedder;
import io.chainfeed.streams.index.ReadIndexer;
import io.chainfeed.streams.tagging.DeadLetterDeserializationHandler;
import io.chainfeed.streams.tagging.TaggingTopology;
import io.chainfeed.testsupport.ElasticsearchExtension;
import io.chainfeed.testsupport.TopicProbe;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * The real pipeline behind the api ITs, as a JUnit 5 extension: an Elasticsearch process,
 * the chosen Kafka Streams topologies and the indexer on the test's embedded broker, and,
 * on demand, the bundled corpus loaded through the real ingest publisher and the real
 * ingest service. One per IT class, in a static field: <pre>{@code
 * &#64;PipelineTest
 * class FeedsIT {
 *

&#64;RegisterExtension
 *     static final TestPipeline pipeline = new TestPipeline("feeds-it", TestPipeline.Streams.TAGGING);
 * }
 * }</pre> Elasticsearch starts before the class's {@code @BeforeAll} methods and
 * everything stops after its {@code @AfterAll} methods; before each test the pipeline
 * takes the broker and the api's {@link TestRestTemplate} from the test's Spring context.
 * {@link PipelineTest} points the api at this Elasticsearch ({@link ElasticsearchUris}).
 * Topics, index, topologies and indexer start on the first {@link #start()}, not before:
 * tests that need no pipeline do not wait for one.
 */
final class TestPipeline implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    /**
     * The Kafka Streams applications a pipeline runs, configured as the streams service
     * runs them.
     */
    enum Streams {

        /**
         * Terms and signals to tagged reads ({@code chainfeed.reads.v1}); application id:
         * the pipeline's name.
         */
        TAGGING,
        /**
         * Signals to the chain state ({@code chainfeed.chain-state.v1}); application id:
         * name + {@code -chain}.
         */
        CHAIN_STATE,
        /**
         * Read vectors, added after the indexer as the streams service's
         * {@code EmbedderRunner} adds them ({@link ReadEmbedder}, text with sections);
         * group: name + {@code -embedder}. Not a topology.
         */
        EMBEDDINGS

    }

    private final String name;

    private final Set<Streams> topologies;

    private final List<KafkaStreams> streams = new ArrayList<>();

    private final List<ConfigurableApplicationContext> services = new ArrayList<>();

    private ElasticsearchNode es;

    private RestClient pipelineRest;

    private String bootstrap;

    private TestRestTemplate http;

    private ReadIndexer indexer;

    private Thread indexerThread;

    private ReadEmbedder embedder;

    private Thread embedderThread;

    private Admin embedderAdmin;

    private Corpus corpus;

    private ConfigurableApplicationContext streamsService;

    private int streamsServicePort;

    private String streamsServiceTimeout;

    /**
     * @param name the IT's name: streams application ids, consumer groups, Elasticsearch
     * and state directories
     * @param topologies the topologies {@link #start()} runs besides the indexer
     */
    TestPipeline(String name, Streams... topologies) {
        this.name = name;
        this.topologies = topologies.length == 0 ? EnumSet.noneOf(Streams.class)
                : EnumSet.copyOf(Arrays.asList(topologies));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        es = ElasticsearchExtension.start(name);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        ApplicationContext spring = SpringExtension.getApplicationContext(context);
        bootstrap = spring.getBean(EmbeddedKafkaBroker.class).getBrokersAsString();
        http = spring.getBean(TestRestTemplate.class);
    }

    /**
     * @return the embedded broker's {@code bootstrap.servers} (set before each test)
     */
    String bootstrap() {
        return bootstrap;
    }

    /**
     * @param more settings beyond the common ones, e.g. a group id
     * @return a consumer of the embedded broker that sees committed records only and
     * commits no offsets itself
     */
    private KafkaConsumer<String, byte[]> committedReader(Map<String, Object> more) {
        Map<String, Object> config = new HashMap<>(more);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * @param topic a topic on the embedded broker
     * @return every record committed to it so far (a read_committed consumer from the
     * beginning to the end offsets it finds first), each partition's records in offset
     * order
     */
    List<TopicProbe.Rec<byte[]>> committedRecords(String topic) {
        try (TopicProbe<byte[]> probe = TopicProbe.bytes(bootstrap, topic)) {
            return probe.toEnd(Duration.ofSeconds(60));
        }
    }

    /**
     * @return the Elasticsearch HTTP address (after {@code beforeAll})
     */
    URI esUri() {
        return es.httpUri();
    }

    /**
     * @return the Elasticsearch process, for fault tests that freeze it
     */
    Optional<ProcessHandle> esProcess() {
        return es == null ? Optional.empty() : es.processHandle();
    }

    /**
     * Creates the topics and the index and starts the topologies and the indexer, once.
     */
    synchronized void start() {
        if (indexer != null) {
            return;
        }
        // The pipeline's own Elasticsearch clients with default timeouts, as the streams
        // service has: the api's
        // are tuned to give up within a second and sit behind the api's circuit breaker.
        RestClient restClient = RestClient.builder(HttpHost.create(es.httpUri().toString())).build();
        pipelineRest = restClient;
        TopicSetup.ensure(bootstrap, Topics.all(1), (short) 1);
        // Idempotent; retried while a loaded machine makes Elasticsearch answer slower
        // than the client waits.
        await().atMost(Duration.ofMinutes(3)).ignoreExceptions().until(() -> {
            IndexSetup.ensureReadsIndex(restClient);
            return true;
        });
        if (topologies.contains(Streams.TAGGING)) {
            run(name, TaggingTopology::buildTopology);
        }
        if (topologies.contains(Streams.CHAIN_STATE)) {
            run(name + "-chain", ChainStateTopology::buildTopology);
        }
        await().atMost(Duration.ofSeconds(90))
            .until(() -> streams.stream().allMatch(s -> s.state() == KafkaStreams.State.RUNNING));

        KafkaConsumer<String, byte[]> consumer = committedReader(Map.of(ConsumerConfig.GROUP_ID_CONFIG,
                name + "-indexer", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(), new ByteArraySerializer());
        ElasticsearchClient esClient = new ElasticsearchClient(
                new RestClientTransport(restClient, new JacksonJsonpMapper()));
        indexer = new ReadIndexer(consumer, dlq, esClient, ReadsIndex.ALIAS, new SimpleMeterRegistry());
        indexerThread = new Thread(indexer, name + "-indexer");
        indexerThread.start();
        if (topologies.contains(Streams.EMBEDDINGS)) {
            embedderAdmin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
            KafkaConsumer<String, byte[]> reader = committedReader(
                    Map.of(ConsumerConfig.GROUP_ID_CONFIG, name + "-embedder", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "earliest", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 64));
            embedder = new ReadEmbedder(reader, esClient, ReadsIndex.ALIAS, SentenceEmbedder.shared()::embedAll,
                    ReadEmbedder.Text.WITH_SECTIONS.modelId(SentenceEmbedder.MODEL), ReadEmbedder.Text.WITH_SECTIONS,
                    () -> GroupOffsets.committed(embedderAdmin, name + "-indexer", Topics.READS, Duration.ofSeconds(5)),
                    new SimpleMeterRegistry(), Clock.systemUTC());
            embedderThread = new Thread(embedder, name + "-embedder");
            embedderThread.start();
        }
    }

    /**
     * Starts one topology under exactly-once, with the streams service's dead-letter
     * handling.
     */
    private void run(String applicationId, BiFunction<Properties, StreamsMeters, Topology> build) {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        config.put(StreamsConfig.STATE_DIR_CONFIG,
                Path.of("target", "it-streams-state-" + applicationId).toAbsolutePath().toString());
        // As the streams service runs them: undecodable records go to the dead-letter
        // topics.
        config.put(StreamsConfig.DEFAULT_DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterDeserializationHandler.class);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        config.put(DeadLetterDeserializationHandler.METER_REGISTRY_CONFIG, registry);
        KafkaStreams s = new KafkaStreams(build.apply(config, new StreamsMeters(registry)), config);
        // every class has a broker of its own: local state an earlier run left is stale
        s.cleanUp();
        streams.add(s);
        s.start();
    }

    /**
     * A real term publisher on the broker and the ingest service over it, with the
     * bundled corpus's reference data; the caller closes it.
     * @param clientId the producer's client id
     */
    Ingest ingest(String clientId) {
        return Ingest.on(KafkaClients.producer(bootstrap, clientId), KafkaClients.ledgerConsumer(bootstrap));
    }

    /**
     * Publishes the bundled corpus's chain layers and companies (reference data); creates
     * the topics first.
     */
    void publishReference() {
        TopicSetup.ensure(bootstrap, Topics.all(1), (short) 1);
        try (Ingest ingest = ingest(name + "-reference")) {
            ingest.publishReference();
        }
    }

    /**
     * Loads the whole bundled corpus (reference data and terms) through the real
     * pipeline, once, and waits until every term is readable through the api and the
     * index is quiet.
     * @return the bundled corpus
     */
    synchronized Corpus loadCorpus() throws Exception {
        if (corpus != null) {
            return corpus;
        }
        Corpus bundled;
        try (Ingest ingest = ingest(name + "-corpus")) {
            bundled = ingest.corpus();
            ingest.service().loadCorpus(bundled);
        }
        assertThat(bundled.terms()).hasSizeGreaterThanOrEqualTo(50);
        for (var term : bundled.terms()) {
            await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> http.exchange("/api/v1/reads/term:" + term.slug(), HttpMethod.GET, null, JSON)
                    .getStatusCode() == HttpStatus.OK);
        }
        // Tagging re-runs when reference data arrives after a term: wait until the index
        // is quiet.
        AtomicLong last = new AtomicLong(-1);
        await().atMost(Duration.ofSeconds(120))
            .pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(500))
            .during(Duration.ofMillis(4500))
            .until(() -> {
                ResponseEntity<Map<String, Object>> r = http
                    .exchange(URI.create("/api/v1/search?q=memory+OR+network+OR+chip"), HttpMethod.GET, null, JSON);
                long now = r.getBody() != null && r.getBody().get("total") instanceof Number n ? n.longValue() : -2;
                return last.getAndSet(now) == now;
            });
        corpus = bundled;
        return corpus;
    }

    /**
     * Points the api under test at the streams service {@link #startStreamsService()}
     * starts on a free port (time travel and history), with {@code timeout} for its calls
     * and its slow-call breaker, as a loaded machine needs.
     * @param timeout a duration, e.g. {@code 10s}
     * @return this pipeline
     */
    TestPipeline withStreamsService(String timeout) {
        this.streamsServicePort = LoopbackPorts.free();
        this.streamsServiceTimeout = timeout;
        return this;
    }

    /**
     * @return the port {@link #withStreamsService} chose for the streams service
     */
    int streamsServicePort() {
        return streamsServicePort;
    }

    /**
     * Starts the real streams service (both topologies, the indexer and its HTTP port,
     * with the chain's interactive queries) instead of {@link #start}, on the port
     * {@link #withStreamsService} chose, and waits until its health is UP.
     * @throws IllegalStateException if the pipeline was not made
     * {@link #withStreamsService}
     */
    synchronized void startStreamsService() {
        if (streamsServicePort == 0) {
            throw new IllegalStateException(name + ": startStreamsService() needs withStreamsService(timeout)");
        }
        int port = streamsServicePort;
        // The broker is new on every run: state kept from an earlier run would only be
        // found stale and rebuilt.
        Path stateDir = Path.of("target", "it-streams-service-" + name).toAbsolutePath();
        if (java.nio.file.Files.exists(stateDir)) {
            try (var paths = java.nio.file.Files.walk(stateDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        streamsService = new org.springframework.boot.builder.SpringApplicationBuilder(
                io.chainfeed.streams.StreamsApplication.class)
            .run("--server.port=" + port, "--server.address=127.0.0.1",
                    "--spring.application.name=chainfeed-streams-" + name,
                    "--spring.kafka.bootstrap-servers=" + bootstrap, "--spring.elasticsearch.uris=" + es.httpUri(),
                    "--spring.elasticsearch.socket-timeout=30s", "--chainfeed.kafka.partitions=1",
                    "--chainfeed.streams.application-id=" + name,
                    "--chainfeed.streams.chain-application-id=" + name + "-chain",
                    "--chainfeed.streams.indexer-group-id=" + name + "-indexer", "--chainfeed.streams.state-dir="
                            + Path.of("target", "it-streams-service-" + name).toAbsolutePath());
        TestRestTemplate health = new TestRestTemplate();
        await().atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> health.exchange("http://127.0.0.1:" + port + "/actuator/health", HttpMethod.GET, null, JSON)
                .getStatusCode() == HttpStatus.OK);
    }

    /**
     * Publishes the bundled history's signals (ingest's {@code History}, checked against
     * the corpus) to the signals topic, keyed by id, as ingest's history loader does at
     * start.
     * @return the signals published
     */
    List<io.chainfeed.avro.ConstraintSignal> loadHistory() {
        List<io.chainfeed.avro.ConstraintSignal> signals = io.chainfeed.chain.history.History
            .loadBundled(Corpus.loadBundled().reference())
            .signals();
        io.chainfeed.schemas.AvroSerde<io.chainfeed.avro.ConstraintSignal> serde = io.chainfeed.schemas.AvroSerde
            .of(io.chainfeed.avro.ConstraintSignal.class);
        try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrap, name + "-history")) {
            for (io.chainfeed.avro.ConstraintSignal s : signals) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(Topics.SIGNALS, s.getId(),
                        serde.serialize(Topics.SIGNALS, s)));
            }
            producer.flush();
        }
        return signals;
    }

    /**
     * Publishes constraint signals through the real signal ingest (validation included).
     * @param json one signal or an array, as {@code POST /ingest/v1/signals} takes them
     */
    void publishSignals(String json) {
        try (KafkaProducer<String, byte[]> producer = KafkaClients.producer(bootstrap, name + "-signals")) {
            SignalIngest.BatchResult r = new SignalIngest(new SignalValidator(Corpus.loadBundled().layers()), producer,
                    Clock.systemUTC(), new IngestMeters(new SimpleMeterRegistry()))
                .ingest(SignalReader.json(json), false);
            assertThat(r.rejected()).isEmpty();
            assertThat(r.published()).isTrue();
        }
    }

    /**
     * Waits until {@code GET /api/v1/chain} shows the layer with the status, as the
     * chain-state topology and the api's chain view see it.
     * @param layer a chain layer id, e.g. {@code memory}
     * @param status {@code tight}, {@code balanced} ...
     */
    @SuppressWarnings("unchecked")
    void awaitLayerStatus(String layer, String status) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
            ResponseEntity<Map<String, Object>> chain = http.exchange("/api/v1/chain", HttpMethod.GET, null, JSON);
            return chain.getStatusCode() == HttpStatus.OK
                    && ((List<Map<String, Object>>) chain.getBody().get("layers")).stream()
                        .anyMatch(l -> layer.equals(l.get("id")) && status.equals(l.get("status")));
        });
    }

    /**
     * The pipeline as the services run it: the reference data first, then
     * {@link #start()}, then the real ingest service on a free port (stopped with the
     * pipeline), through which a test posts signals and pages.
     * @param editorKey the one editor key the ingest service accepts (only its hash is
     * configured)
     * @return the ingest service's base URL, {@code http://127.0.0.1:<port>}
     */
    synchronized String startWithIngestService(String editorKey) {
        publishReference();
        start();
        ConfigurableApplicationContext ingest = new SpringApplicationBuilder(IngestApplication.class).run(
                "--server.port=0", "--spring.application.name=chainfeed-ingest-" + name,
                "--spring.kafka.bootstrap-servers=" + bootstrap, "--spring.elasticsearch.uris=" + es.httpUri(),
                "--management.health.elasticsearch.enabled=false", "--chainfeed.kafka.partitions=1",
                "--chainfeed.ingest.editor-key-hashes=" + HashedKeys.hash(editorKey));
        services.add(ingest);
        return "http://127.0.0.1:" + ((WebServerApplicationContext) ingest).getWebServer().getPort();
    }

    /**
     * @return the RDMA glossary page fixture ({@code /pages/rdma.txt}): the text ingest
     * takes as a page
     */
    static String rdmaPage() throws IOException {
        try (InputStream in = TestPipeline.class.getResourceAsStream("/pages/rdma.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        // The ingest services first (they produce), then the streams service or the
        // indexer, the topologies,
        // the client and Elasticsearch.
        services.forEach(ConfigurableApplicationContext::close);
        if (streamsService != null) {
            streamsService.close();
        }
        if (indexer != null) {
            indexer.close();
            indexerThread.join(10_000);
        }
        if (embedder != null) {
            embedder.close();
            embedderThread.join(10_000);
            embedderAdmin.close(Duration.ofSeconds(5));
        }
        for (KafkaStreams s : streams) {
            s.close(Duration.ofSeconds(10));
        }
        if (pipelineRest != null) {
            pipelineRest.close();
        }
        if (es != null) {
            es.close();
        }
    }

    /**
     * A term publisher and the ingest service over it, with the bundled corpus; closes
     * its Kafka clients.
     *
     * @param producer the publisher's producer
     * @param ledger the publisher's ledger consumer
     * @param corpus the bundled corpus (the parser's reference data)
     * @param publisher the real term publisher
     * @param service the real ingest service (pages, corpus loads)
     */
    record Ingest(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> ledger, Corpus corpus,
            TermPublisher publisher, IngestService service) implements AutoCloseable {

        private static Ingest on(KafkaProducer<String, byte[]> producer, KafkaConsumer<String, byte[]> ledger) {
            Corpus corpus = Corpus.loadBundled();
            TermPublisher publisher = new TermPublisher(producer, ledger, Clock.systemUTC(),
                    new IngestMeters(new SimpleMeterRegistry()));
            return new Ingest(producer, ledger, corpus, publisher, new IngestService(corpus, publisher));
        }

        /** Publishes the corpus's chain layers and companies. */
        void publishReference() {
            publisher.publishReference(corpus.layers(), corpus.companies());
        }

        /** Publishes the corpus's terms of these slugs, in this order. */
        void publishTerms(String... slugs) {
            publisher.publishAll(Arrays.stream(slugs).map(s -> corpus.term(s).orElseThrow()).toList());
        }

        @Override
        public void close() {
            try {
                producer.close();
            }
            finally {
                ledger.close();
            }
        }
    }

    /**
     * Sets {@code spring.elasticsearch.uris} of a {@link PipelineTest} class's context to
     * the Elasticsearch of the class's static {@link TestPipeline} field, which has
     * started by the time the context loads (JUnit runs {@code beforeAll} callbacks
     * before it creates the test instance). The pipeline is part of the context's cache
     * key, so no other class reuses the context.
     */
    static final class ElasticsearchUris implements ContextCustomizerFactory {

        @Override
        public ContextCustomizer createContextCustomizer(Class<?> testClass,
                List<ContextConfigurationAttributes> configAttributes) {
            for (Class<?> c = testClass; c != null; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (f.getType() == TestPipeline.class && Modifier.isStatic(f.getModifiers())) {
                        try {
                            f.setAccessible(true);
                            return new Customizer((TestPipeline) f.get(null));
                        }
                        catch (IllegalAccessException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
            }
            throw new IllegalStateException(testClass.getName() + " is a @PipelineTest without a static TestPipeline "
                    + "field registered with @RegisterExtension");
        }

        private record Customizer(TestPipeline pipeline) implements ContextCustomizer {
            @Override
            public void customizeContext(ConfigurableApplicationContext context,
                    MergedContextConfiguration mergedConfig) {
                // The indexer's group: the pipeline health and the shared answers follow
                // it.
                TestPropertyValues values = TestPropertyValues.of("spring.elasticsearch.uris=" + pipeline.esUri(),
                        "chainfeed.api.pipeline.indexer-group=" + pipeline.name + "-indexer");
                if (pipeline.streamsServicePort != 0) {
                    String timeout = pipeline.streamsServiceTimeout;
                    values = values.and(
                            "chainfeed.api.streams.base-url=http://127.0.0.1:" + pipeline.streamsServicePort,
                            "chainfeed.api.streams.timeout=" + timeout,
                            "chainfeed.api.streams.breaker.slow-call=" + timeout);
                }
                values.applyTo(context);
            }
        }

    }

}
