package io.chainfeed.testsupport;

import static org.awaitility.Awaitility.await;

import io.chainfeed.schemas.AvroSerde;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Reads one topic from its beginning, in a test, without a consumer group: every
 * partition assigned, {@code read_committed} (what the pipeline's readers see), values
 * decoded as the test asks (Avro single-object encoding for chainfeed's records; null
 * stays null, a tombstone). Every wait has a deadline and fails with what it saw. Not
 * thread-safe; close it.
 *
 * @param <V> the decoded value type
 */
public final class TopicProbe<V> implements AutoCloseable {

    /**
     * One record read.
     *
     * @param key its key
     * @param value its decoded value, null for a tombstone
     * @param partition its partition
     * @param offset its offset
     * @param headers its headers
     * @param <V> the value type
     */
    public record Rec<V>(String key, V value, int partition, long offset, Headers headers) {
        /**
         * @param name a header name
         * @return the last value of that header as UTF-8 text, or null when the record
         * has none
         */
        public String header(String name) {
            Header h = headers.lastHeader(name);
            return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
        }
    }

    private static final Duration POLL = Duration.ofMillis(100);

    private final String topic;

    private final KafkaConsumer<String, byte[]> consumer;

    private final Function<byte[], V> decode;

    private final List<Rec<V>> seen = new ArrayList<>();

    private TopicProbe(String bootstrapServers, String topic, Function<byte[], V> decode) {
        this.topic = topic;
        this.decode = decode;
        this.consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30))
            .stream()
            .map(p -> new TopicPartition(topic, p.partition()))
            .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /**
     * @param bootstrapServers the broker list
     * @param topic the topic (it must exist)
     * @param type the Avro record type of its values
     * @param <V> the record type
     * @return a probe decoding values with {@link AvroSerde}
     */
    public static <V extends SpecificRecord> TopicProbe<V> avro(String bootstrapServers, String topic, Class<V> type) {
        AvroSerde<V> serde = AvroSerde.of(type);
        return new TopicProbe<>(bootstrapServers, topic, b -> b == null ? null : serde.deserialize(topic, b));
    }

    /**
     * @param bootstrapServers the broker list
     * @param topic the topic (it must exist)
     * @return a probe that keeps the raw value bytes
     */
    public static TopicProbe<byte[]> bytes(String bootstrapServers, String topic) {
        return new TopicProbe<>(bootstrapServers, topic, b -> b);
    }

    /**
     * Reads until {@code done} holds for everything read so far.
     * @param done the condition, over every record read since the probe opened
     * @param atMost the deadline
     * @return every record read so far, in the order read
     * @throws AssertionError naming the topic and the keys read, if the condition does
     * not hold by then
     */
    public List<Rec<V>> until(Predicate<List<Rec<V>>> done, Duration atMost) {
        try {
            await().atMost(atMost).pollInterval(Duration.ZERO).pollDelay(Duration.ZERO).until(() -> {
                pollOnce();
                return done.test(List.copyOf(seen));
            });
        }
        catch (ConditionTimeoutException e) {
            throw new AssertionError(String.format(Locale.ROOT,
                    "%s: the condition did not hold within %s; read %d" + " records, keys %s", topic, atMost,
                    seen.size(), keysSeen()), e);
        }
        return List.copyOf(seen);
    }

    /**
     * Reads until {@code n} records have been read.
     * @param n how many
     * @param atMost the deadline
     * @return every record read so far (at least {@code n})
     */
    public List<Rec<V>> atLeast(int n, Duration atMost) {
        return until(all -> all.size() >= n, atMost);
    }

    /**
     * Reads everything committed up to now: to the end offsets (last stable offsets)
     * taken when called.
     * @param atMost the deadline
     * @return every record read so far
     */
    public List<Rec<V>> toEnd(Duration atMost) {
        Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), atMost);
        return until(all -> end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue()),
                atMost);
    }

    /**
     * Asserts that nothing more arrives for a while: reads for {@code quiet} and fails at
     * the first record.
     * @param quiet how long nothing may arrive
     * @throws AssertionError naming the records that came
     */
    public void nothingMoreFor(Duration quiet) {
        int before = seen.size();
        try {
            await().during(quiet).atMost(quiet.plusSeconds(5)).pollInterval(POLL).pollDelay(Duration.ZERO).until(() -> {
                pollOnce();
                return seen.size() == before;
            });
        }
        catch (ConditionTimeoutException e) {
            throw new AssertionError(topic + ": expected nothing more for " + quiet + ", but read "
                    + seen.subList(before, seen.size()).stream().map(Rec::key).toList(), e);
        }
    }

    private void pollOnce() {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
            seen.add(new Rec<>(r.key(), decode.apply(r.value()), r.partition(), r.offset(), r.headers()));
        }
    }

    private String keysSeen() {
        List<String> keys = seen.stream().map(Rec::key).toList();
        return keys.size() > 20 ? keys.subList(0, 20) + " and " + (keys.size() - 20) + " more" : keys.toString();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }

}
