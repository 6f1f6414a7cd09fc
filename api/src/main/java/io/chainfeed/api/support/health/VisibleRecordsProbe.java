package io.chainfeed.api.support.health;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@link PipelineHealthIndicator.VisibleRecords} on a {@code read_committed} consumer
 * without a group: seeks to the start of the range and polls once. Only asked about
 * partitions whose committed offset is below the end, so it costs one short fetch per
 * lagging partition and health check. A range found to hold nothing visible is remembered
 * per partition: its transactions are all decided (the consumer's position passed the
 * last stable offset), so the answer cannot change, and the next check of the same or a
 * smaller range answers without a fetch (after an exactly-once commit, the gap between a
 * group's committed offset and the end is the commit marker, found again on every check
 * otherwise). Thread-safe (one caller at a time).
 */
public final class VisibleRecordsProbe implements PipelineHealthIndicator.VisibleRecords, AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(300);

    private final KafkaConsumer<byte[], byte[]> consumer;

    /** Per partition, the last range {from, to} found to hold no visible record. */
    private final Map<TopicPartition, long[]> knownEmpty = new HashMap<>();

    /**
     * @param bootstrapServers the Kafka cluster
     */
    public VisibleRecordsProbe(String bootstrapServers) {
        consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.CLIENT_ID_CONFIG,
                        "chainfeed-api-pipeline-health", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1,
                        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public synchronized boolean any(TopicPartition partition, long from, long to) {
        long[] empty = knownEmpty.get(partition);
        if (empty != null && empty[0] <= from && to <= empty[1]) {
            return false;
        }
        consumer.assign(List.of(partition));
        consumer.seek(partition, from);
        long deadline = System.nanoTime() + POLL.toNanos() * 3;
        // Polls until it sees a record, or its position passes the range's end (only
        // markers or aborted
        // records in between), or the time is up (then the range counts as backlog: never
        // hide one).
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                if (r.offset() < to) {
                    return true;
                }
            }
            if (consumer.position(partition) >= to) {
                knownEmpty.put(partition, new long[] { from, to });
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
