package io.chainfeed.api.kafka;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The partitions of a topic as a consumer finds them, for readers that assign partitions themselves. */
public final class TopicPartitions {
    private static final Logger log = LoggerFactory.getLogger(TopicPartitions.class);
    /** How long one metadata request may wait. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private TopicPartitions() {
    }

    /**
     * @param consumer the consumer that asks the cluster for the topic's metadata (waiting up to 10 s)
     * @param topic    the topic's name
     * @return its partitions in partition order; empty while the topic cannot be read yet (it does not exist,
     *         has no partitions or the metadata request failed, which is logged at info)
     * @throws WakeupException    passed on: the consumer was woken up to stop
     * @throws InterruptException passed on: the thread was interrupted
     */
    public static List<TopicPartition> of(Consumer<?, ?> consumer, String topic) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, TIMEOUT);
        } catch (WakeupException | InterruptException e) {
            throw e;
        } catch (KafkaException e) {
            log.info("{} not readable yet ({}); retrying", topic, e.getMessage());
            return List.of();
        }
        if (infos == null) {
            return List.of();
        }
        return infos.stream().map(i -> new TopicPartition(i.topic(), i.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
    }
}
