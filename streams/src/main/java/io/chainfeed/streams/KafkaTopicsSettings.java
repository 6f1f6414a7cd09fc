package io.chainfeed.streams;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code chainfeed.kafka}, shared in name with the other services.
 *
 * @param createTopics create missing topics at start (off when a cluster's topics are
 * managed elsewhere)
 * @param partitions partitions of keyed data topics created here
 * @param replicationFactor replication factor of topics created here, and of Kafka
 * Streams' internal topics
 */
@ConfigurationProperties("chainfeed.kafka")
public record KafkaTopicsSettings(Boolean createTopics, Integer partitions, Short replicationFactor) {
    public KafkaTopicsSettings {
        createTopics = createTopics == null || createTopics;
        partitions = partitions == null ? 3 : partitions;
        replicationFactor = replicationFactor == null ? 1 : replicationFactor;
    }
}
