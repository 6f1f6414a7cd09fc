package io.chainfeed.streams.index;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.chainfeed.embeddings.SentenceEmbedder;
import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.kafka.GroupOffsets;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the {@link ReadEmbedder} on a thread of its own when
 * {@code chainfeed.streams.embedding.enabled} (the default): loads the sentence model,
 * makes sure the reads index has the vector field (a new field, added in place), and
 * stops the thread on shutdown. The indexer's progress comes from its group's committed
 * offsets, asked with one admin client.
 */
@Component
public class EmbedderRunner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EmbedderRunner.class);

    private final EmbeddingProperties settings;

    private final StreamsProperties streams;

    private final String bootstrapServers;

    private final RestClient restClient;

    private final ElasticsearchClient esClient;

    private final MeterRegistry meters;

    private volatile ReadEmbedder embedder;

    private Thread thread;

    private Admin admin;

    EmbedderRunner(StreamsProperties streams, KafkaConnectionProperties kafka, RestClient restClient,
            ElasticsearchClient esClient, MeterRegistry meters) {
        this.settings = streams.embedding();
        this.streams = streams;
        this.bootstrapServers = kafka.bootstrapServers();
        this.restClient = restClient;
        this.esClient = esClient;
        this.meters = meters;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled()) {
            log.info("read vectors off (chainfeed.streams.embedding.enabled=false): search ranks by words alone");
            return;
        }
        try {
            IndexSetup.ensureReadsIndex(restClient);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot set up the reads index " + ReadsIndex.INDEX, e);
        }
        SentenceEmbedder model = SentenceEmbedder.shared();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, "chainfeed-streams-embedder-admin"));
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.GROUP_ID_CONFIG,
                        settings.groupId(), ConsumerConfig.CLIENT_ID_CONFIG, "chainfeed-streams-embedder",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.batch()),
                new StringDeserializer(), new ByteArrayDeserializer());
        embedder = new ReadEmbedder(consumer, esClient, ReadsIndex.ALIAS, model::embedAll,
                settings.text().modelId(SentenceEmbedder.MODEL), settings.text(), this::indexerCommitted, meters,
                Clock.systemUTC());
        thread = new Thread(embedder, "read-embedder");
        thread.setDaemon(true);
        thread.start();
        log.info("read embedder started: group {}, text {}, model {}", settings.groupId(), settings.text(),
                SentenceEmbedder.MODEL);
    }

    /** The indexer group's committed offsets on the reads topic, by partition. */
    private Map<Integer, Long> indexerCommitted() throws Exception {
        return GroupOffsets.committed(admin, streams.indexerGroupId(), Topics.READS, Duration.ofSeconds(5));
    }

    /**
     * @return the embedder, or null when off or before start
     */
    public ReadEmbedder embedder() {
        return embedder;
    }

    @Override
    public synchronized void stop() {
        if (embedder != null) {
            embedder.close();
            try {
                thread.join(10_000);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            embedder = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }

    @Override
    public boolean isRunning() {
        return embedder != null;
    }

}
