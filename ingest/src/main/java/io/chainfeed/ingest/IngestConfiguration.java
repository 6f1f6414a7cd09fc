package io.chainfeed.ingest;

import io.chainfeed.chain.history.History;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.NewsDecider;
import io.chainfeed.ingest.decide.NewsReader;
import io.chainfeed.ingest.decide.SignalDecider;
import io.chainfeed.ingest.decide.TextDecider;
import io.chainfeed.ingest.fetch.SafeFetcher;
import io.chainfeed.ingest.newsfeed.FeedPoller;
import io.chainfeed.ingest.newsfeed.FeedSchedule;
import io.chainfeed.ingest.newsfeed.FeedsEndpoint;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.publish.IngestMeters;
import io.chainfeed.ingest.publish.KafkaClients;
import io.chainfeed.ingest.publish.KafkaTransactions;
import io.chainfeed.ingest.publish.RecordLimits;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalLookup;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.platform.IndexingHealthIndicator;
import io.chainfeed.platform.IndexingProbe;
import io.chainfeed.platform.KafkaHealthIndicator;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.platform.kafka.KafkaTopicsSettings;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.elasticsearch.ElasticsearchProperties;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the ingest service: corpus, parser, producer, publisher, and the corpus load at
 * start.
 */
@Configuration(proxyBeanMethods = false)
class IngestConfiguration {

    private static final Logger log = LoggerFactory.getLogger(IngestConfiguration.class);

    @Bean
    Corpus corpus(IngestProperties props) {
        return props.corpusDir() == null || props.corpusDir().isBlank() ? Corpus.loadBundled()
                : Corpus.load(Path.of(props.corpusDir()));
    }

    @Bean(destroyMethod = "close")
    KafkaProducer<String, byte[]> ingestProducer(KafkaConnectionProperties kafka) {
        return KafkaClients.producer(kafka.bootstrapServers(), "chainfeed-ingest");
    }

    @Bean(destroyMethod = "close")
    KafkaConsumer<String, byte[]> ledgerConsumer(KafkaConnectionProperties kafka) {
        return KafkaClients.ledgerConsumer(kafka.bootstrapServers());
    }

    /**
     * Kafka client metrics (Micrometer's binder) of the long-lived clients; the pool
     * binds its own.
     */
    @Bean(destroyMethod = "close")
    KafkaClientMetrics ingestProducerMetrics(KafkaProducer<String, byte[]> ingestProducer, MeterRegistry registry) {
        KafkaClientMetrics m = new KafkaClientMetrics(ingestProducer);
        m.bindTo(registry);
        return m;
    }

    @Bean(destroyMethod = "close")
    KafkaClientMetrics ledgerConsumerMetrics(KafkaConsumer<String, byte[]> ledgerConsumer, MeterRegistry registry) {
        KafkaClientMetrics m = new KafkaClientMetrics(ledgerConsumer);
        m.bindTo(registry);
        return m;
    }

    @Bean(destroyMethod = "close")
    KafkaProducer<byte[], byte[]> deadLetterProducer(KafkaConnectionProperties kafka) {
        return new KafkaProducer<>(DeadLetters.producerConfig(kafka.bootstrapServers(), "chainfeed-ingest-dlq"));
    }

    @Bean
    TopicsReady topicsReady(KafkaConnectionProperties kafka, KafkaTopicsSettings settings) {
        if (settings.createTopics()) {
            TopicSetup.ensure(kafka.bootstrapServers(), Topics.all(settings.partitions()),
                    settings.replicationFactor());
        }
        return new TopicsReady();
    }

    /**
     * Marks that the topics exist (created at start unless
     * {@code chainfeed.kafka.create-topics=false}).
     */
    static final class TopicsReady {

    }

    @Bean(destroyMethod = "close")
    RecordLimits recordLimits(TopicsReady topics, KafkaConnectionProperties kafka) {
        RecordLimits limits = new RecordLimits(Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(), AdminClientConfig.CLIENT_ID_CONFIG, "chainfeed-ingest-limits",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                5_000)), KafkaClients.MAX_REQUEST_SIZE);
        limits.load(List.of(Topics.TERMS, Topics.SIGNALS, Topics.SIGNALS_SKIPPED, Topics.LAYERS, Topics.COMPANIES),
                Duration.ofSeconds(10));
        return limits;
    }

    /**
     * One Kafka transaction per publishing request, from a pool of transactional
     * producers named after this instance ({@link IngestProperties#instanceId()}).
     */
    @Bean(destroyMethod = "close")
    KafkaTransactions kafkaTransactions(TopicsReady topics, IngestProperties props, RecordLimits limits,
            MeterRegistry registry, KafkaConnectionProperties kafka, ServerProperties server)
            throws InterruptedException {
        String instance = props.instanceId() != null && !props.instanceId().isBlank() ? props.instanceId()
                : defaultInstanceId(server.getPort());
        KafkaTransactions txns = new KafkaTransactions("chainfeed-ingest-" + instance, props.producers(),
                id -> KafkaClients.transactionalProducer(kafka.bootstrapServers(), id, props.deadline()), limits,
                registry);
        if (!txns.awaitReady(Duration.ofSeconds(60))) {
            log.warn("no transactional producer ready after 60 s; publishing requests get 503 until one is");
        }
        log.info("publishing with {} transactional producers {}-0..{}, deadline {}", props.producers(), txns.prefix(),
                props.producers() - 1, props.deadline());
        return txns;
    }

    /**
     * Host name and HTTP port: stable across restarts, distinct for instances on one
     * host; random on port 0.
     */
    static String defaultInstanceId(int port) {
        if (port <= 0) {
            return "ephemeral-" + UUID.randomUUID();
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        }
        catch (UnknownHostException e) {
            host = "localhost";
        }
        return host.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + port;
    }

    /**
     * The ingest's record and skip counters, on the service's registry.
     */
    @Bean
    IngestMeters ingestMeters(MeterRegistry registry) {
        return new IngestMeters(registry);
    }

    @Bean
    TermPublisher termPublisher(KafkaTransactions transactions, KafkaConsumer<String, byte[]> ledgerConsumer,
            KafkaProducer<byte[], byte[]> deadLetterProducer, IngestProperties props, MeterRegistry registry,
            IngestMeters meters) {
        TermPublisher publisher = new TermPublisher(transactions, ledgerConsumer, Clock.systemUTC(), props.deadline(),
                new DeadLetters(deadLetterProducer, "ingest-ledger", registry), meters);
        publisher.catchUp(Duration.ofSeconds(60));
        return publisher;
    }

    /**
     * Decides missing signal values from the text (rules and lexicon: docs/decisions.md).
     */
    /**
     * The decider signals get: the learned reader with the rules (default), or the rules
     * alone ({@code chainfeed.ingest.reader=rules}). The reader's model is loaded and run
     * once here, so that the first signal after a start is decided at full speed.
     */
    @Bean
    TextDecider textDecider(Corpus corpus, IngestProperties props, IngestMeters meters) {
        SignalDecider rules = SignalDecider.of(corpus);
        TextDecider decider = props.reader().equals("rules") ? rules : new NewsDecider(rules, NewsReader.bundled());
        decider.decide("Memory makers warm up", "", Instant.now());
        // the counters of records and skips, at zero until used: present right after a
        // (re)start
        meters.registerAtStart(decider.skipReasons());
        return decider;
    }

    @Bean
    SignalValidator signalValidator(Corpus corpus, TextDecider decider, IngestProperties props) {
        return new SignalValidator(corpus.layers(), decider, props.holdBelow());
    }

    @Bean
    SignalIngest signalIngest(SignalValidator signalValidator, KafkaTransactions transactions, IngestProperties props,
            IngestMeters meters) {
        return new SignalIngest(signalValidator, transactions, props.deadline(), Clock.systemUTC(), meters);
    }

    /**
     * Finds a signal's latest version for a review (one read-committed consumer per
     * lookup).
     */
    @Bean
    SignalLookup signalLookup(KafkaConnectionProperties kafka) {
        return new SignalLookup(() -> KafkaClients.ledgerConsumer(kafka.bootstrapServers()));
    }

    @Bean(destroyMethod = "close")
    SafeFetcher feedFetcher(IngestProperties props) {
        return new SafeFetcher(props.feedsAllowPrivate());
    }

    @Bean
    FeedPoller feedPoller(SafeFetcher feedFetcher, SignalIngest signalIngest, KafkaProducer<String, byte[]> producer,
            MeterRegistry meters) {
        return new FeedPoller(feedFetcher, signalIngest, producer, Clock.systemUTC(), meters);
    }

    @Bean
    FeedSchedule feedSchedule(IngestProperties props, FeedPoller feedPoller) {
        return new FeedSchedule(feedPoller, props.feeds(), props.feedInterval());
    }

    @Bean
    FeedsEndpoint feedsEndpoint(IngestProperties props, FeedPoller feedPoller) {
        return new FeedsEndpoint(feedPoller, props.feeds());
    }

    @Bean
    HashedKeys editorKeys(IngestProperties props) {
        return new HashedKeys("chainfeed.ingest.editor-key-hashes", props.editorKeyHashes());
    }

    /**
     * Whether reads can be indexed now (Elasticsearch up and taking writes), checked
     * every 2 s; only where Elasticsearch is configured
     * ({@code spring.elasticsearch.uris}, as the launcher does).
     */
    @Bean(destroyMethod = "close")
    @org.springframework.boot.autoconfigure.condition.ConditionalOnProperty("spring.elasticsearch.uris")
    IndexingProbe indexingProbe(ElasticsearchProperties elasticsearch) {
        return new IndexingProbe(String.join(",", elasticsearch.getUris()), Duration.ofSeconds(2));
    }

    /**
     * Health component {@code indexing}: WAITING while reads cannot be indexed (overall
     * status stays UP).
     */
    @Bean("indexing")
    @org.springframework.boot.autoconfigure.condition.ConditionalOnBean(IndexingProbe.class)
    IndexingHealthIndicator indexingHealthIndicator(IndexingProbe probe) {
        return new IndexingHealthIndicator(probe);
    }

    @Bean("kafka")
    KafkaHealthIndicator kafkaHealthIndicator(KafkaConnectionProperties kafka) {
        return new KafkaHealthIndicator(kafka.bootstrapServers(), Duration.ofSeconds(3));
    }

    @Bean
    IngestService ingestService(Corpus corpus, TermPublisher publisher) {
        return new IngestService(corpus, publisher);
    }

    /**
     * At start: the bundled corpus, then the bundled history (its signals name the
     * corpus's layers), each when asked.
     */
    @Bean
    ApplicationRunner bundledDataLoader(IngestProperties props, IngestService service, Corpus corpus,
            KafkaTransactions transactions) {
        return args -> {
            long start = System.nanoTime();
            if (props.loadCorpus()) {
                IngestService.CorpusResult r = service.loadCorpus(corpus);
                log.info(
                        "corpus loaded in {} ms: {} reference records and {} of {} terms published, {} changed by"
                                + " users kept, the others unchanged",
                        (System.nanoTime() - start) / 1_000_000, r.referenceRecords(), r.published(), r.terms().size(),
                        r.kept());
            }
            if (props.loadHistory()) {
                start = System.nanoTime();
                int n = IngestService.loadHistory(History.loadBundled(corpus.reference()), transactions,
                        Deadline.after(Duration.ofSeconds(60)));
                log.info("bundled history loaded in {} ms: {} signals published (unchanged ones change nothing"
                        + " downstream)", (System.nanoTime() - start) / 1_000_000, n);
            }
        };
    }

}
