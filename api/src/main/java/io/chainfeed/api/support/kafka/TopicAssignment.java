package io.chainfeed.api.support.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Manual assignment of a whole topic, for readers that need every record and no consumer
 * group.
 */
public final class TopicAssignment {

    private static final Logger log = LoggerFactory.getLogger(TopicAssignment.class);

    private TopicAssignment() {
    }

    /**
     * Assigns every partition of a topic to a consumer (positions are left to the
     * caller).
     * @param consumer the consumer, on its own thread
     * @param topic the topic
     * @return the partitions assigned; empty if Kafka or the topic is not there yet
     * (logged; ask again later)
     * @throws WakeupException if the consumer was woken up (it is stopping)
     */
    public static Optional<List<TopicPartition>> assignAll(Consumer<?, ?> consumer, String topic) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
        }
        catch (WakeupException e) {
            throw e;
        }
        catch (KafkaException e) {
            log.info("{} not readable yet ({}); retrying", topic, e.getMessage());
            return Optional.empty();
        }
        if (infos == null || infos.isEmpty()) {
            return Optional.empty();
        }
        List<TopicPartition> partitions = new ArrayList<>();
        infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        consumer.assign(partitions);
        return Optional.of(partitions);
    }

}
