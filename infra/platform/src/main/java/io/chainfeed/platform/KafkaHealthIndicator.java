package io.chainfeed.platform;

import java.time.Duration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Actuator health of a Kafka cluster via {@link KafkaProbe}: UP with the cluster id,
 * controller and broker count, DOWN with the error. Services register it as a bean named
 * {@code kafka}; closing it (Spring does, as a bean's {@code close}) closes the probe's
 * admin client.
 */
public final class KafkaHealthIndicator implements HealthIndicator, AutoCloseable {

    private final KafkaProbe probe;

    /**
     * @param bootstrapServers {@code host:port[,host:port]}
     * @param timeout how long one check may wait
     */
    public KafkaHealthIndicator(String bootstrapServers, Duration timeout) {
        this.probe = new KafkaProbe(bootstrapServers, timeout);
    }

    @Override
    public Health health() {
        try {
            return Health.up().withDetails(probe.describe()).build();
        }
        catch (RuntimeException e) {
            return Health.down(e).build();
        }
    }

    @Override
    public void close() {
        probe.close();
    }

}
