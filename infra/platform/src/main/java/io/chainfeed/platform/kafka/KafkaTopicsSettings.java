package io.chainfeed.platform.kafka;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.kafka}, the same for every service that creates topics
 * at start (ingest, streams; {@code TopicSetup}).
 *
 * @param createTopics create missing topics at start (off when a cluster's topics are
 * managed elsewhere)
 * @param partitions partitions of keyed data topics created here, at least 1
 * @param replicationFactor replication factor of topics created here, and of Kafka
 * Streams' internal topics, at least 1
 */
@ConfigurationProperties("chainfeed.kafka")
public record KafkaTopicsSettings(@DefaultValue("true") boolean createTopics, @DefaultValue("3") int partitions,
        @DefaultValue("1") short replicationFactor) {

    /**
     * @throws IllegalArgumentException when partitions or the replication factor is below
     * 1
     */
    public KafkaTopicsSettings {
        if (partitions < 1 || replicationFactor < 1) {
            throw new IllegalArgumentException(
                    "chainfeed.kafka.partitions and .replication-factor must be at least 1, got " + partitions + " and "
                            + replicationFactor);
        }
    }
}
