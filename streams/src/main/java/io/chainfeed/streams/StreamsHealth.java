package io.chainfeed.streams;

import io.chainfeed.streams.index.ReadIndexer;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Health of the Kafka side: UP while the tagging and chain-state topologies are RUNNING (or
 * rebalancing) and the indexer's last bulk succeeded. Elasticsearch has its own indicator from Spring Boot.
 */
@Component("kafka")
class StreamsHealth implements HealthIndicator {
    private final StreamsRunner runner;

    StreamsHealth(StreamsRunner runner) {
        this.runner = runner;
    }

    @Override
    public Health health() {
        KafkaStreams.State state = runner.streamsState();
        ReadIndexer indexer = runner.indexer();
        KafkaStreams.State chainState = runner.chainStreamsState();
        boolean streamsOk = up(state) && up(chainState);
        boolean indexerOk = indexer != null && indexer.healthy();
        Health.Builder b = streamsOk && indexerOk ? Health.up() : Health.down();
        return b.withDetail("streamsState", String.valueOf(state))
                .withDetail("chainStreamsState", String.valueOf(chainState))
                .withDetail("indexerHealthy", indexerOk)
                .withDetail("readsIndexed", indexer == null ? 0 : indexer.indexedCount())
                .build();
    }

    private static boolean up(KafkaStreams.State state) {
        return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    }
}
