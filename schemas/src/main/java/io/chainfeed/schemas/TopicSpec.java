package io.chainfeed.schemas;

import java.util.Map;
import java.util.Objects;

/**
 * An immutable description of one Kafka topic: its name, the number of partitions, and
 * the topic configs it is created with (e.g. {@code cleanup.policy=compact}).
 *
 * @param name topic name, {@code chainfeed.<entity>.v<N>}
 * @param partitions partition count at creation (keys keep one key's records on one
 * partition)
 * @param configs topic-level configs
 */
public record TopicSpec(String name, int partitions, Map<String, String> configs) {
    public TopicSpec {
        Objects.requireNonNull(name, "name");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1 for " + name);
        }
        configs = Map.copyOf(configs);
    }

    /**
     * @return whether the topic keeps only the latest record per key
     */
    public boolean compacted() {
        return "compact".equals(configs.get("cleanup.policy"));
    }
}
