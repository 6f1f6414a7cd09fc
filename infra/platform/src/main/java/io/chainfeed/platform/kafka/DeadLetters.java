package io.chainfeed.platform.kafka;

import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one dead-letter writer every reader of a chainfeed topic uses: a record it cannot
 * decode is copied, raw key and value bytes as read, to the topic's dead-letter topic
 * ({@link Topics#dlqOf}, e.g. {@code chainfeed.terms.dlq.v1}) and the reader goes on with
 * the next record.
 *
 * <p>
 * Headers of the dead letter: {@value Topics#DLQ_REASON_HEADER} (why, free text),
 * {@value Topics#DLQ_ORIGIN_HEADER} ({@code <topic>/<partition>@<offset>}),
 * {@value #CATEGORY_HEADER} (a short category, one of {@link Reason}) and
 * {@value #READER_HEADER} (which reader refused it: several readers may dead-letter the
 * same record, and a reader that reads its topic from the beginning at every start
 * dead-letters it again; the origin header identifies the record). Every dead letter
 * counts on {@code chainfeed_dead_letters_total{topic, reason, reader}} ({@code reason} =
 * the category, so the series stay few). A reader registers that counter at start, at
 * zero, for the topics it reads and every {@link Reason} ({@link #registerAtStart}), so
 * the series are there before the first dead letter.
 *
 * <p>
 * The write is asynchronous: a reader never waits on it, so a broker that is slow to take
 * the dead letter does not hold up the records behind the poison one (they are still in
 * the source topic; the dead letter is a copy for operators). Callers that must not go on
 * without the copy wait on the returned future.
 */
public final class DeadLetters {

    /** Header naming the reader that refused the record. */
    public static final String READER_HEADER = "chainfeed.error.reader";

    /**
     * Header with the short reason category (also the {@code reason} tag of the counter).
     */
    public static final String CATEGORY_HEADER = "chainfeed.error.category";

    /**
     * Header with the original value size, on a dead letter whose value was cut
     * ({@link #MAX_COPY_BYTES}).
     */
    public static final String ORIGINAL_SIZE_HEADER = "chainfeed.error.original-size";

    /**
     * Largest value copied whole. A bigger poison record (up to the broker's limit) would
     * not fit in the dead-letter topic with its headers; its first
     * {@value #TRUNCATED_BYTES} bytes are copied instead and the origin header says where
     * the whole record still is.
     */
    public static final int MAX_COPY_BYTES = 512 * 1024;

    /** Bytes kept of a value over {@link #MAX_COPY_BYTES}. */
    public static final int TRUNCATED_BYTES = 64 * 1024;

    /**
     * Why a record was dead-lettered: the closed set of reason categories (the
     * {@value #CATEGORY_HEADER} header and the {@code reason} tag of the counter), so the
     * counter can be registered at start for every one of them.
     */
    public enum Reason {

        /** The record's value (or key) is not what the topic's schema says. */
        UNDECODABLE("undecodable");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        /**
         * @return the category as the header and the counter's {@code reason} tag say it
         */
        public String tag() {
            return tag;
        }

    }

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private final Producer<byte[], byte[]> producer;

    private final String reader;

    private final MeterRegistry registry;

    /**
     * @param producer an idempotent producer of raw bytes ({@code acks=all}); not closed
     * here
     * @param reader the reader's name, e.g. {@code ingest-ledger} or {@code api-read-log}
     * @param registry where the counter goes: the service's injected registry (a
     * {@code SimpleMeterRegistry} in tests)
     * @throws NullPointerException if {@code registry} is null
     */
    public DeadLetters(Producer<byte[], byte[]> producer, String reader, MeterRegistry registry) {
        this.producer = producer;
        this.reader = reader;
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Copies an undecodable record to its topic's dead-letter topic.
     * @param record the record as read
     * @param keyBytes its key as bytes (a reader with a String key deserializer passes
     * the UTF-8 bytes)
     * @param value its value as read (a value over {@link #MAX_COPY_BYTES} is cut to
     * {@link #TRUNCATED_BYTES})
     * @param reason the reason category
     * @param cause what went wrong (its message becomes the reason header)
     * @return completes with the dead letter's metadata, or exceptionally if Kafka did
     * not take it
     */
    public CompletableFuture<RecordMetadata> send(ConsumerRecord<?, ?> record, byte[] keyBytes, byte[] value,
            Reason reason, Throwable cause) {
        String category = reason.tag();
        String dlq = Topics.dlqOf(record.topic());
        String origin = origin(record);
        String why = cause == null ? category : cause.getClass().getSimpleName() + ": " + cause.getMessage();
        if (why.length() > 1000) {
            why = why.substring(0, 1000) + "...";
        }
        byte[] copy = value;
        if (value != null && value.length > MAX_COPY_BYTES) {
            copy = Arrays.copyOf(value, TRUNCATED_BYTES);
        }
        if (keyBytes != null && keyBytes.length > MAX_COPY_BYTES) {
            keyBytes = Arrays.copyOf(keyBytes, TRUNCATED_BYTES);
        }
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(dlq, null, keyBytes, copy);
        if (copy != value) {
            out.headers().add(ORIGINAL_SIZE_HEADER, Integer.toString(value.length).getBytes(StandardCharsets.UTF_8));
        }
        out.headers().add(Topics.DLQ_REASON_HEADER, why.getBytes(StandardCharsets.UTF_8));
        out.headers().add(Topics.DLQ_ORIGIN_HEADER, origin.getBytes(StandardCharsets.UTF_8));
        out.headers().add(CATEGORY_HEADER, category.getBytes(StandardCharsets.UTF_8));
        out.headers().add(READER_HEADER, reader.getBytes(StandardCharsets.UTF_8));
        counter(registry, record.topic(), reason, reader).increment();
        CompletableFuture<RecordMetadata> done = new CompletableFuture<>();
        try {
            producer.send(out, (md, e) -> {
                if (e != null) {
                    log.error("{}: could not dead-letter {} to {}: {}", reader, origin, dlq, e.getMessage());
                    done.completeExceptionally(e);
                }
                else {
                    done.complete(md);
                }
            });
        }
        catch (RuntimeException e) {
            log.error("{}: could not dead-letter {} to {}: {}", reader, origin, dlq, e.getMessage());
            done.completeExceptionally(e);
        }
        log.warn("{}: record {} dead-lettered to {} ({})", reader, origin, dlq, why);
        return done;
    }

    /**
     * @param record a record as read
     * @return its origin as the dead-letter header writes it:
     * {@code <topic>/<partition>@<offset>}
     */
    public static String origin(ConsumerRecord<?, ?> record) {
        return record.topic() + "/" + record.partition() + "@" + record.offset();
    }

    /**
     * Registers this reader's counter at zero for each of the topics and every
     * {@link Reason} (idempotent).
     * @param topics the topics the reader reads
     */
    public void registerAtStart(Collection<String> topics) {
        registerAtStart(registry, reader, topics);
    }

    /**
     * Registers a reader's counter at zero for each of the topics and every
     * {@link Reason} (idempotent): the series are there from the start, so
     * {@code increase()} sees the first dead letter.
     * @param registry the registry the reader counts on
     * @param reader the reader's name
     * @param topics the topics the reader reads
     * @throws NullPointerException if {@code registry} is null
     */
    public static void registerAtStart(MeterRegistry registry, String reader, Collection<String> topics) {
        MeterRegistry target = Objects.requireNonNull(registry, "registry");
        for (String topic : topics) {
            for (Reason reason : Reason.values()) {
                counter(target, topic, reason, reader);
            }
        }
    }

    /**
     * The dead-letter counter, for readers that count without writing (none today) and
     * for tests.
     * @param registry the registry
     * @param topic the source topic
     * @param reason the reason category
     * @param reader the reader's name
     * @return {@code chainfeed.dead.letters} (Prometheus:
     * {@code chainfeed_dead_letters_total})
     */
    public static Counter counter(MeterRegistry registry, String topic, Reason reason, String reader) {
        return Counter.builder("chainfeed.dead.letters")
            .description("Records copied to a dead-letter topic instead of being processed")
            .tags("topic", topic, "reason", reason.tag(), "reader", reader)
            .register(registry);
    }

    /**
     * Producer settings for a dead-letter producer: idempotent, {@code acks=all}, byte
     * arrays.
     * @param bootstrapServers {@code host:port[,host:port]}
     * @param clientId client id (shows in broker logs and client metrics)
     * @return the settings
     */
    public static Map<String, Object> producerConfig(String bootstrapServers, String clientId) {
        return Map.of("bootstrap.servers", bootstrapServers, "client.id", clientId, "acks", "all", "enable.idempotence",
                true, "linger.ms", 5, "key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer",
                "value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer");
    }

}
