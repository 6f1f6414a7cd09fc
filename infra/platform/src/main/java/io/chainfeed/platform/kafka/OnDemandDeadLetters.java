package io.chainfeed.platform.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * {@link DeadLetters} whose producer is made on the first dead letter: for readers
 * (in-memory views of small topics, the feed's read log) that almost never meet a poison
 * record and should not hold a producer for it. Thread-safe.
 */
public final class OnDemandDeadLetters implements AutoCloseable {

    private final String bootstrapServers;

    private final String reader;

    private final MeterRegistry registry;

    private KafkaProducer<byte[], byte[]> producer;

    private DeadLetters deadLetters;

    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param reader the reader's name (header and meter tag), also the producer's client
     * id
     * @param registry where the dead-letter counter goes: the service's injected registry
     * @throws NullPointerException if {@code registry} is null
     */
    public OnDemandDeadLetters(String bootstrapServers, String reader, MeterRegistry registry) {
        this.bootstrapServers = bootstrapServers;
        this.reader = reader;
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * As {@link DeadLetters#send}: copies an undecodable record to its topic's
     * dead-letter topic.
     * @param record the record as read
     * @param keyBytes its key as bytes
     * @param value its value as read
     * @param reason the reason category
     * @param cause what went wrong
     * @return completes once Kafka has the dead letter
     */
    public CompletableFuture<RecordMetadata> send(ConsumerRecord<?, ?> record, byte[] keyBytes, byte[] value,
            DeadLetters.Reason reason, Throwable cause) {
        DeadLetters d;
        synchronized (this) {
            if (deadLetters == null) {
                producer = new KafkaProducer<>(DeadLetters.producerConfig(bootstrapServers, reader + "-dlq"));
                deadLetters = new DeadLetters(producer, reader, registry);
            }
            d = deadLetters;
        }
        return d.send(record, keyBytes, value, reason, cause);
    }

    /**
     * Registers this reader's dead-letter counter at zero for the topics and every
     * reason, on the registry it was given, without making the producer
     * ({@link DeadLetters#registerAtStart(MeterRegistry, String, Collection)}).
     * @param topics the topics the reader reads
     */
    public void registerAtStart(Collection<String> topics) {
        DeadLetters.registerAtStart(registry, reader, topics);
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
            deadLetters = null;
        }
    }

}
