package io.chainfeed.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A client's Kafka metrics are bound to the registry given (the service's injected one),
 * never to Micrometer's global registry; a missing registry is refused. The clients point
 * at a closed port and are never polled or sent to, so nothing connects.
 */
class ClientMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aConsumersMetricsLandInTheGivenRegistry() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9", ConsumerConfig.CLIENT_ID_CONFIG,
                        "client-meters-consumer"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            KafkaClientMetrics binder = ClientMeters.bind(consumer, registry);
            try {
                assertThat(registry.find("kafka.consumer.connection.count")
                    .tag("client.id", "client-meters-consumer")
                    .gauges()).isNotEmpty();
                assertThat(Metrics.globalRegistry.find("kafka.consumer.connection.count")
                    .tag("client.id", "client-meters-consumer")
                    .gauges()).isEmpty();
            }
            finally {
                ClientMeters.close(binder);
            }
        }
    }

    @Test
    void aProducersMetricsLandInTheGivenRegistry() {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9", ProducerConfig.CLIENT_ID_CONFIG,
                        "client-meters-producer", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            KafkaClientMetrics binder = ClientMeters.bind(producer, registry);
            try {
                assertThat(registry.find("kafka.producer.connection.count")
                    .tag("client.id", "client-meters-producer")
                    .gauges()).isNotEmpty();
            }
            finally {
                ClientMeters.close(binder);
            }
        }
    }

    @Test
    void aMissingRegistryIsRefused() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            assertThatThrownBy(() -> ClientMeters.bind(consumer, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("registry");
        }
    }

}
