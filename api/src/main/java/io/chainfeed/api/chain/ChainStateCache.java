package io.chainfeed.api.chain;

import io.chainfeed.avro.LayerState;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The chain state in memory: a thread reads the compacted {@value Topics#CHAIN_STATE} topic from the
 * beginning (no consumer group: every API instance holds the whole, small, state) and keeps the
 * latest {@link LayerState} per layer; a tombstone removes a layer. If Kafka or the topic is not
 * there yet it keeps asking until it is (it never creates the topic).
 */
@Component
public class ChainStateCache implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(ChainStateCache.class);

    private final String bootstrapServers;
    private final AvroSerde<LayerState> serde = AvroSerde.of(LayerState.class);
    private final Map<String, LayerState> states = new ConcurrentHashMap<>();
    private volatile KafkaConsumer<String, byte[]> consumer;
    private volatile boolean running;
    private Thread thread;

    ChainStateCache(@Value("${spring.kafka.bootstrap-servers}") String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** @return every layer's latest state, in no particular order */
    public Collection<LayerState> all() {
        return List.copyOf(states.values());
    }

    /**
     * @param layerId a layer id
     * @return its latest state, if any
     */
    public Optional<LayerState> layer(String layerId) {
        return Optional.ofNullable(states.get(layerId));
    }

    @Override
    public void start() {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, "chainfeed-api-chain-state",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                // never create the topic by asking for it: streams creates it compacted
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false),
                new StringDeserializer(), new ByteArrayDeserializer());
        running = true;
        thread = new Thread(this::run, "chain-state-reader");
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
                    log.warn("chain-state reader: {}; retrying", e.getMessage());
                    Thread.sleep(1000);
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // stopping
        } catch (RuntimeException e) {
            log.error("chain-state reader stopped", e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** @return whether the topic's partitions are assigned; false (to retry) while it or Kafka is missing */
    private boolean assign() {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(Topics.CHAIN_STATE, Duration.ofSeconds(10));
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            log.info("chain-state topic not readable yet ({}); retrying", e.getMessage());
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
            states.remove(r.key());
            return;
        }
        try {
            states.put(r.key(), serde.deserialize(r.topic(), r.value()));
        } catch (SerializationException e) {
            log.warn("skipping an unreadable chain state for {} at {}-{}@{}: {}", r.key(), r.topic(), r.partition(),
                    r.offset(), e.getMessage());
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
