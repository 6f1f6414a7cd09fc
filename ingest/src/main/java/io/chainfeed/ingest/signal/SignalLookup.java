package io.chainfeed.ingest.signal;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * Finds the latest committed version of one signal on {@value Topics#SIGNALS}: reads the
 * partition its id hashes to (the producer's default partitioner) from the start to the
 * last stable offset and keeps the last record with that key. Used by the review
 * endpoint, an editor's occasional action: the cost is one partition's size, bounded by
 * the topic's retention.
 */
public final class SignalLookup {

    private final Supplier<Consumer<String, byte[]>> consumers;

    private final AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);

    /**
     * @param consumers makes a read-committed consumer without a group (closed after each
     * lookup)
     */
    public SignalLookup(Supplier<Consumer<String, byte[]>> consumers) {
        this.consumers = consumers;
    }

    /**
     * @param id a signal id
     * @param timeout how long the lookup may take
     * @return the latest version, or empty when there is none (or it was deleted)
     * @throws org.apache.kafka.common.errors.TimeoutException if the partition could not
     * be read in time
     */
    public Optional<ConstraintSignal> latest(String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Consumer<String, byte[]> c = consumers.get()) {
            List<PartitionInfo> partitions = c.partitionsFor(Topics.SIGNALS, timeout);
            int p = Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % partitions.size();
            TopicPartition tp = new TopicPartition(Topics.SIGNALS, p);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp), timeout).get(tp);
            byte[] last = null;
            boolean found = false;
            while (c.position(tp, timeout) < end) {
                if (System.nanoTime() > deadline) {
                    throw new org.apache.kafka.common.errors.TimeoutException(
                            "reading " + tp + " took longer than " + timeout);
                }
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (id.equals(r.key())) {
                        last = r.value();
                        found = true;
                    }
                }
            }
            return !found || last == null ? Optional.empty() : Optional.of(serde.deserialize(Topics.SIGNALS, last));
        }
    }

}
