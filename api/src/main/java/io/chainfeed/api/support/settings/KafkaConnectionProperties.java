package io.chainfeed.api.support.settings;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Where the api's own Kafka clients connect: {@code spring.kafka.bootstrap-servers}, the
 * same key Spring Boot uses (the api builds its consumers, producers and admin clients
 * itself). Required.
 *
 * @param bootstrapServers {@code host:port} pairs, comma-separated
 */
@ConfigurationProperties("spring.kafka")
@Validated
public record KafkaConnectionProperties(@NotBlank String bootstrapServers) {
}
