package io.chainfeed.api.answers;

import io.chainfeed.api.support.health.VisibleRecordsProbe;
import io.chainfeed.platform.kafka.GroupOffsets;
import io.chainfeed.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The indexer's committed offsets on the reads topic, asked with one admin client kept
 * for the class's life (closed at stop).
 */
final class IndexerOffsets implements IndexedOffsets, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IndexerOffsets.class);

    private final String bootstrapServers;

    private final String group;

    private Admin admin;

    IndexerOffsets(String bootstrapServers, String group) {
        this.bootstrapServers = bootstrapServers;
        this.group = group;
    }

    private VisibleRecordsProbe visible;

    @Override
    public synchronized boolean reached(Map<Integer, Long> start) {
        Map<Integer, Long> committed = committed();
        if (committed == null) {
            return false;
        }
        if (visible == null) {
            visible = new VisibleRecordsProbe(bootstrapServers);
        }
        for (Map.Entry<Integer, Long> e : start.entrySet()) {
            long from = committed.getOrDefault(e.getKey(), 0L);
            if (from < e.getValue() && visible.any(new TopicPartition(Topics.READS, e.getKey()), from, e.getValue())) {
                log.debug("shared answers wait for the indexer: partition {} committed {}, the tail began at {}",
                        e.getKey(), from, e.getValue());
                return false;
            }
        }
        return true;
    }

    /** The group's committed offsets by partition, null when Kafka cannot say. */
    private Map<Integer, Long> committed() {
        try {
            if (admin == null) {
                admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                        AdminClientConfig.CLIENT_ID_CONFIG, "chainfeed-api-shared-answers"));
            }
            return GroupOffsets.committed(admin, group, Topics.READS, Duration.ofSeconds(5));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        catch (ExecutionException | TimeoutException | KafkaException e) {
            log.debug("shared answers could not read the indexer's offsets: {}", e.toString());
            return null;
        }
    }

    @Override
    public synchronized void close() {
        if (visible != null) {
            visible.close();
            visible = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
            admin = null;
        }
    }

}
