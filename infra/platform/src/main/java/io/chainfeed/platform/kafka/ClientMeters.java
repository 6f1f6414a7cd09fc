package io.chainfeed.platform.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/**
 * Binds a Kafka client's own metrics to Micrometer with its {@link KafkaClientMetrics}
 * binder ({@code kafka_consumer_*}, {@code kafka_producer_*} in Prometheus, tagged with
 * the {@code client_id}; a consumer's
 * {@code kafka_consumer_fetch_manager_records_lag_max} is its lag in records). Close the
 * returned binder when the client is closed.
 */
public final class ClientMeters {

    private ClientMeters() {
    }

    /**
     * @param consumer a consumer
     * @param registry where to bind; null for Micrometer's global registry (Spring Boot
     * adds its own to it)
     * @return the binder, to close with the client
     */
    public static KafkaClientMetrics bind(Consumer<?, ?> consumer, MeterRegistry registry) {
        KafkaClientMetrics m = new KafkaClientMetrics(consumer);
        m.bindTo(registry == null ? Metrics.globalRegistry : registry);
        return m;
    }

    /**
     * @param producer a producer
     * @param registry where to bind; null for Micrometer's global registry
     * @return the binder, to close with the client
     */
    public static KafkaClientMetrics bind(Producer<?, ?> producer, MeterRegistry registry) {
        KafkaClientMetrics m = new KafkaClientMetrics(producer);
        m.bindTo(registry == null ? Metrics.globalRegistry : registry);
        return m;
    }

    /**
     * Closes a binder, ignoring null.
     * @param binder a binder from {@link #bind}, or null
     */
    public static void close(KafkaClientMetrics binder) {
        if (binder != null) {
            binder.close();
        }
    }

}
