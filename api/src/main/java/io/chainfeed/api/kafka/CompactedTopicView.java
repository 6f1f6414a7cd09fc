package io.chainfeed.api.kafka;

import io.chainfeed.schemas.AvroSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A small compacted topic held in memory: a thread reads it from the beginning by assignment (no
 * consumer group, so every API instance holds the whole topic), keeps the latest value per key, and
 * drops a key on its tombstone. While Kafka or the topic is missing it keeps asking; it never creates
 * the topic. Unreadable records are logged and skipped.
 *
 * @param <V> the Avro record type of the values
 */
public abstract class CompactedTopicView<V extends SpecificRecord> implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(CompactedTopicView.class);

    private final String bootstrapServers;
    private final String topic;
    private final String clientId;
    private final AvroSerde<V> serde;
    private final Map<String, V> values = new ConcurrentHashMap<>();
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile boolean running;
    private Thread thread;

    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param topic            the compacted topic
     * @param clientId         client id, also the reader thread's name prefix
     * @param type             the value's generated Avro class
     */
    protected CompactedTopicView(String bootstrapServers, String topic, String clientId, Class<V> type) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.clientId = clientId;
        this.serde = AvroSerde.of(type);
    }

    /** @return the latest value of every key, in no particular order */
    protected List<V> values() {
        return List.copyOf(values.values());
    }

    /**
     * @param key a record key
     * @return its latest value, if any
     */
    protected Optional<V> value(String key) {
        return Optional.ofNullable(values.get(key));
    }

    @Override
    public void start() {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, clientId,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false),
                new StringDeserializer(), new ByteArrayDeserializer());
        running = true;
        thread = new Thread(this::run, clientId + "-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running && !assign()) {
                Thread.sleep(1000);
            }
            while (running) {
                try {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        apply(r);
                    }
                } catch (KafkaException e) {
                    if (e instanceof WakeupException) {
                        throw e;
                    }
                    log.warn("{} reader: {}; retrying", topic, e.getMessage());
                    Thread.sleep(1000);
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // stopping
        } catch (RuntimeException e) {
            log.error("{} reader stopped", topic, e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private boolean assign() {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            log.info("{} not readable yet ({}); retrying", topic, e.getMessage());
            return false;
        }
        if (infos == null || infos.isEmpty()) {
            return false;
        }
        List<TopicPartition> partitions = new ArrayList<>();
        infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return true;
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        if (r.key() == null) {
            return;
        }
        if (r.value() == null) {
            values.remove(r.key());
            return;
        }
        try {
            values.put(r.key(), serde.deserialize(r.topic(), r.value()));
        } catch (SerializationException e) {
            log.warn("skipping an unreadable record {} at {}-{}@{}: {}", r.key(), r.topic(), r.partition(), r.offset(),
                    e.getMessage());
        }
    }

    @Override
    public void stop() {
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
