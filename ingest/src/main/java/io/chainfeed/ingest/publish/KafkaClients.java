package io.chainfeed.ingest.publish;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Factories for the Kafka clients ingest uses, so the CLI and the service configure them
 * alike.
 */
public final class KafkaClients {

    private KafkaClients() {
    }

    /**
     * @param bootstrapServers {@code host:port[,host:port]}
     * @param clientId client id shown in broker logs and metrics
     * @return an idempotent producer with {@code acks=all}, String keys, byte[] values
     */
    public static KafkaProducer<String, byte[]> producer(String bootstrapServers, String clientId) {
        return new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.CLIENT_ID_CONFIG,
                        clientId, ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                        ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 15_000,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000),
                new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * {@code max.request.size} of the ingest producers: topics' {@code max.message.bytes}
     * is the real limit.
     */
    public static final int MAX_REQUEST_SIZE = 8 << 20;

    /**
     * @param bootstrapServers {@code host:port[,host:port]}
     * @param transactionalId the producer's {@code transactional.id} (stable per instance
     * and slot)
     * @param maxBlock how long {@code initTransactions}, {@code send} and
     * {@code commitTransaction} may block ({@code max.block.ms})
     * @return a transactional (hence idempotent, {@code acks=all}) producer, not yet
     * initialised
     */
    public static KafkaProducer<String, byte[]> transactionalProducer(String bootstrapServers, String transactionalId,
            Duration maxBlock) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.CLIENT_ID_CONFIG, transactionalId, ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                transactionalId, ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 0, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, MAX_REQUEST_SIZE,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) maxBlock.toMillis(), ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                15_000, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000), new StringSerializer(),
                new ByteArraySerializer());
    }

    /**
     * @param bootstrapServers {@code host:port[,host:port]}
     * @return a group-less consumer (String keys, byte[] values) for reading compacted
     * topics by assignment
     */
    public static KafkaConsumer<String, byte[]> ledgerConsumer(String bootstrapServers) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"), new StringDeserializer(), new ByteArrayDeserializer());
    }

}
