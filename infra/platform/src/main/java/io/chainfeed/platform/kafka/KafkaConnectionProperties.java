package io.chainfeed.platform.kafka;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where a service's own Kafka clients connect: {@code spring.kafka.bootstrap-servers},
 * the key Spring Boot uses (the services build their producers, consumers, admin clients
 * and Kafka Streams themselves, so no other {@code spring.kafka.*} key applies). Every
 * service binds this one record; no class reads the key by name.
 *
 * @param bootstrapServers {@code host:port} pairs, comma-separated; required
 */
@ConfigurationProperties("spring.kafka")
public record KafkaConnectionProperties(String bootstrapServers) {

    /**
     * @throws IllegalArgumentException when {@code bootstrapServers} is null or blank
     * (the start fails with the property's name)
     */
    public KafkaConnectionProperties {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("spring.kafka.bootstrap-servers is required");
        }
    }
}
