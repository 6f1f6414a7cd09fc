package io.chainfeed.platform.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.util.Objects;
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
     * @param registry where to bind: the service's injected registry
     * @return the binder, to close with the client
     * @throws NullPointerException if {@code registry} is null
     */
    public static KafkaClientMetrics bind(Consumer<?, ?> consumer, MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        KafkaClientMetrics m = new KafkaClientMetrics(consumer);
        m.bindTo(registry);
        return m;
    }

    /**
     * @param producer a producer
     * @param registry where to bind: the service's injected registry
     * @return the binder, to close with the client
     * @throws NullPointerException if {@code registry} is null
     */
    public static KafkaClientMetrics bind(Producer<?, ?> producer, MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        KafkaClientMetrics m = new KafkaClientMetrics(producer);
        m.bindTo(registry);
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
