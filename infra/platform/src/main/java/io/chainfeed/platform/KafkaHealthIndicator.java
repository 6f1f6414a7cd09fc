package io.chainfeed.platform;

import java.time.Duration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Actuator health of a Kafka cluster via {@link KafkaProbe}: UP with the cluster id,
 * controller and broker count, DOWN with the error. Services register it as a bean named
 * {@code kafka}.
 *
 * @param bootstrapServers {@code host:port[,host:port]}
 * @param timeout how long one check may wait
 */
public record KafkaHealthIndicator(String bootstrapServers, Duration timeout) implements HealthIndicator {
    @Override
    public Health health() {
        try {
            return Health.up().withDetails(KafkaProbe.describe(bootstrapServers, timeout)).build();
        }
        catch (RuntimeException e) {
            return Health.down(e).build();
        }
    }
}
