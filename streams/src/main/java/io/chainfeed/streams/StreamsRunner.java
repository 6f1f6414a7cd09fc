package io.chainfeed.streams;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.platform.kafka.ClientMeters;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.platform.kafka.KafkaTopicsSettings;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.chain.ChainQueries;
import io.chainfeed.streams.chain.ChainStateTopology;
import io.chainfeed.streams.index.ReadIndexer;
import io.chainfeed.streams.tagging.DeadLetterDeserializationHandler;
import io.chainfeed.streams.tagging.TaggingTopology;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.state.HostInfo;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Owns the lifecycle of the two {@link KafkaStreams} instances (tagging, and chain state
 * with signal reads, each with its own application id) and the {@link ReadIndexer}
 * thread: ensures topics and the reads index exist, starts all three, and stops them on
 * shutdown.
 */
@Component
public class StreamsRunner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StreamsRunner.class);

    /**
     * Stream-thread failures tolerated (each replaces the thread) before the instance
     * shuts down.
     */
    private static final int FAILURE_BUDGET = 10;

    private final StreamsProperties props;

    private final String bootstrapServers;

    private final KafkaTopicsSettings topics;

    private final RestClient restClient;

    private final ElasticsearchClient esClient;

    private volatile KafkaStreams streams;

    private volatile KafkaStreams chainStreams;

    private volatile ReadIndexer indexer;

    private Thread indexerThread;

    private volatile boolean running;

    private final List<AutoCloseable> binders = new CopyOnWriteArrayList<>();

    private final HostInfo self;

    private final MeterRegistry registry;

    private final StreamsMeters meters;

    StreamsRunner(StreamsProperties props, KafkaConnectionProperties kafka, ServerProperties server,
            KafkaTopicsSettings topics, RestClient restClient, ElasticsearchClient esClient, MeterRegistry registry) {
        this.props = props;
        this.self = HostInfo
            .buildFromEndpoint(props.queryHost() != null ? props.queryHost() : "127.0.0.1:" + server.getPort());
        this.topics = topics;
        this.bootstrapServers = kafka.bootstrapServers();
        this.restClient = restClient;
        this.esClient = esClient;
        this.registry = Objects.requireNonNull(registry, "registry");
        this.meters = new StreamsMeters(registry);
    }

    @Override
    public void start() {
        meters.registerAtStart();
        if (topics.createTopics()) {
            TopicSetup.ensure(bootstrapServers, Topics.all(topics.partitions()), topics.replicationFactor());
        }
        try {
            IndexSetup.ensureReadsIndex(restClient);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot set up the reads index " + ReadsIndex.INDEX, e);
        }

        Properties config = streamsConfig();
        streams = instance(TaggingTopology.buildTopology(config, meters), config, props.applicationId(), "tagging");
        streams.start();

        Properties chainConfig = streamsConfig();
        chainConfig.put(StreamsConfig.APPLICATION_ID_CONFIG, props.chainApplicationId());
        chainStreams = instance(ChainStateTopology.buildTopology(chainConfig, meters), chainConfig,
                props.chainApplicationId(), "chain-state");
        chainStreams.start();

        KafkaConsumer<String, byte[]> indexerConsumer = indexerConsumer();
        KafkaProducer<byte[], byte[]> dlqProducer = dlqProducer();
        binders.add(ClientMeters.bind(indexerConsumer, registry));
        binders.add(ClientMeters.bind(dlqProducer, registry));
        indexer = new ReadIndexer(indexerConsumer, dlqProducer, esClient, ReadsIndex.ALIAS, registry);
        indexerThread = new Thread(indexer, "read-indexer");
        indexerThread.start();
        running = true;
        log.info("tagging and chain-state topologies and indexer started against {}", bootstrapServers);
    }

    /**
     * A Kafka Streams instance of a topology, not yet started: its dead-letter counter
     * registered, its failure budget set and its metrics bound (closed by {@link #stop}).
     * @param topology the topology
     * @param config its configuration
     * @param applicationId the application id in {@code config}
     * @param name the topology's name in the log
     * @return the instance
     */
    private KafkaStreams instance(Topology topology, Properties config, String applicationId, String name) {
        DeadLetterDeserializationHandler.registerAtStart(topology, applicationId, registry);
        KafkaStreams instance = new KafkaStreams(topology, config);
        withFailureBudget(instance, name);
        instance.setStateListener(new FatalStreamsState(name, () -> !running, System::exit));
        binders.add(bind(instance));
        return instance;
    }

    /**
     * Kafka Streams metrics (Micrometer's binder): {@code kafka_stream_*}, tagged with
     * the client and thread, on the service's registry.
     */
    private KafkaStreamsMetrics bind(KafkaStreams instance) {
        KafkaStreamsMetrics m = new KafkaStreamsMetrics(instance);
        m.bindTo(registry);
        return m;
    }

    private static void withFailureBudget(KafkaStreams instance, String name) {
        AtomicInteger failures = new AtomicInteger();
        instance.setUncaughtExceptionHandler(e -> {
            int n = failures.incrementAndGet();
            log.error("{} stream thread failed ({} of {} allowed)", name, n, FAILURE_BUDGET, e);
            return n < FAILURE_BUDGET ? StreamThreadExceptionResponse.REPLACE_THREAD
                    : StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
    }

    Properties streamsConfig() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, props.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // EOS commits every 100 ms by default; said here so the latency budget is
        // visible.
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.STATE_DIR_CONFIG, props.stateDir());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) topics.replicationFactor());
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, props.standbyReplicas());
        // Where the other instances reach this one's interactive queries
        // (queryMetadataForKey names it).
        p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
        p.put(StreamsConfig.DEFAULT_DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterDeserializationHandler.class);
        // the handler is made by Kafka Streams from this configuration: its registry
        // travels here
        p.put(DeadLetterDeserializationHandler.METER_REGISTRY_CONFIG, registry);
        return p;
    }

    private KafkaConsumer<String, byte[]> indexerConsumer() {
        return new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.GROUP_ID_CONFIG,
                        props.indexerGroupId(), ConsumerConfig.CLIENT_ID_CONFIG, "chainfeed-streams-indexer",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000),
                new StringDeserializer(), new ByteArrayDeserializer());
    }

    private KafkaProducer<byte[], byte[]> dlqProducer() {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.CLIENT_ID_CONFIG,
                        "chainfeed-streams-indexer-dlq", ProducerConfig.ACKS_CONFIG, "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * @return the Kafka Streams state, or null before start
     */
    public KafkaStreams.State streamsState() {
        KafkaStreams s = streams;
        return s == null ? null : s.state();
    }

    /**
     * @return the chain-state Kafka Streams state, or null before start
     */
    public KafkaStreams.State chainStreamsState() {
        KafkaStreams s = chainStreams;
        return s == null ? null : s.state();
    }

    /**
     * @return interactive queries over the chain-state topology's stores (time travel),
     * or null before start
     */
    public ChainQueries chainQueries() {
        return chainQueries(false);
    }

    /**
     * @param stale whether a standby (or restoring) copy of the stores may answer
     * ({@link ChainStoreRoute.Kind#STANDBY})
     * @return interactive queries over the chain-state topology's stores, or null before
     * start
     */
    ChainQueries chainQueries(boolean stale) {
        KafkaStreams s = chainStreams;
        return s == null ? null : new ChainQueries(ChainQueries.Stores.of(s, stale));
    }

    /**
     * Where a chain query is answered now ({@link ChainStoreRoute#decide}).
     * @param forwarded whether another instance forwarded the request
     * @return the route
     */
    ChainStoreRoute chainRoute(boolean forwarded) {
        KafkaStreams s = chainStreams;
        if (s == null) {
            return new ChainStoreRoute(ChainStoreRoute.Kind.UNAVAILABLE, null,
                    "the chain-state topology has not started");
        }
        KeyQueryMetadata owner;
        try {
            // One partition: any key names the owner of the whole store.
            owner = s.queryMetadataForKey(ChainStateTopology.SIGNALS_STORE, "", Serdes.String().serializer());
        }
        catch (RuntimeException notRunning) {
            owner = null;
        }
        return ChainStoreRoute.decide(self, owner, this::chainLocalLag, props.maxStandbyLag(), forwarded);
    }

    /**
     * How many records this instance's copy of the chain signals store is behind its
     * changelog, or null when it holds none.
     */
    Long chainLocalLag() {
        KafkaStreams s = chainStreams;
        if (s == null) {
            return null;
        }
        try {
            Map<Integer, LagInfo> lags = s.allLocalStorePartitionLags()
                .getOrDefault(ChainStateTopology.SIGNALS_STORE, Map.of());
            LagInfo lag = lags.get(0);
            return lag == null ? null : lag.offsetLag();
        }
        catch (RuntimeException e) {
            log.debug("no store lags now: {}", e.toString());
            return null;
        }
    }

    /**
     * Whether this instance's copy of the chain signals store may answer as a possibly
     * stale store: at most {@code chainfeed.streams.max-standby-lag} records behind its
     * changelog ({@link ChainStoreRoute#freshEnough}).
     */
    boolean chainCopyFresh() {
        return ChainStoreRoute.freshEnough(chainLocalLag(), props.maxStandbyLag());
    }

    /** This instance's {@code application.server}, where others forward chain queries. */
    HostInfo queryHost() {
        return self;
    }

    /**
     * @return the indexer, or null before start
     */
    public ReadIndexer indexer() {
        return indexer;
    }

    @Override
    public void stop() {
        running = false;
        if (indexer != null) {
            indexer.close();
            try {
                indexerThread.join(10_000);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (chainStreams != null) {
            chainStreams.close(Duration.ofSeconds(10));
        }
        if (streams != null) {
            streams.close(Duration.ofSeconds(10));
        }
        for (AutoCloseable b : binders) {
            try {
                b.close();
            }
            catch (Exception e) {
                log.debug("closing a meter binder: {}", e.toString());
            }
        }
        binders.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

}
