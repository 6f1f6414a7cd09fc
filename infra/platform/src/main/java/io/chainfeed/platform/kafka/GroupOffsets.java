package io.chainfeed.platform.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/**
 * The committed offsets of a consumer group on one topic, as Kafka's admin API reports
 * them: how far another service's consumer (the indexer, for the api's shared answers and
 * the embedder) has come.
 */
public final class GroupOffsets {

    private GroupOffsets() {
    }

    /**
     * @param admin an admin client of the cluster
     * @param group the consumer group id
     * @param topic the topic
     * @param timeout how long to wait for the answer
     * @return the group's committed offset per partition of the topic; a partition
     * without one is absent, and so is every partition of a group that has none
     * @throws ExecutionException when Kafka refuses (e.g. not authorised)
     * @throws TimeoutException when Kafka does not answer in time
     * @throws InterruptedException when interrupted while waiting
     */
    public static Map<Integer, Long> committed(Admin admin, String group, String topic, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        Map<Integer, Long> out = new HashMap<>();
        admin.listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .forEach((tp, offset) -> {
                if (tp.topic().equals(topic) && offset != null) {
                    out.put(tp.partition(), offset.offset());
                }
            });
        return out;
    }

}
