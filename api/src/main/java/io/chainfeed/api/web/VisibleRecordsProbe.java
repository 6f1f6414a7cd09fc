package io.chainfeed.api.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@link PipelineHealthIndicator.VisibleRecords} on a {@code read_committed} consumer without a group:
 * seeks to the start of the range and polls once. Only asked about partitions whose committed offset is
 * below the end, so it costs one short fetch per lagging partition and health check. Thread-safe (one
 * caller at a time).
 */
public final class VisibleRecordsProbe implements PipelineHealthIndicator.VisibleRecords, AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(300);
    private final KafkaConsumer<byte[], byte[]> consumer;

    /** @param bootstrapServers the Kafka cluster */
    public VisibleRecordsProbe(String bootstrapServers) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, "chainfeed-api-pipeline-health",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1,
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public synchronized boolean any(TopicPartition partition, long from, long to) {
        consumer.assign(List.of(partition));
        consumer.seek(partition, from);
        long deadline = System.nanoTime() + POLL.toNanos() * 3;
        // Polls until it sees a record, or its position passes the range's end (only markers or aborted
        // records in between), or the time is up (then the range counts as backlog: never hide one).
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                if (r.offset() < to) {
                    return true;
                }
            }
            if (consumer.position(partition) >= to) {
                return false;
            }
        }
        return true;
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
