package io.chainfeed.streams;

import io.chainfeed.platform.KafkaProbe;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.streams.index.ReadIndexer;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Health of the Kafka side: UP only while both the tagging and the chain-state topologies
 * are RUNNING, the broker answers (a cluster description within {@value #PROBE_MILLIS}
 * ms) and the indexer's last bulk succeeded; DOWN otherwise (a rebalance, a dead stream
 * thread, an unreachable broker), with the reason in the details. Elasticsearch has its
 * own indicator from Spring Boot.
 */
@Component("kafka")
class StreamsHealth implements HealthIndicator, AutoCloseable {

    static final int PROBE_MILLIS = 2000;

    private final StreamsRunner runner;

    private final KafkaProbe probe;

    StreamsHealth(StreamsRunner runner, KafkaConnectionProperties kafka) {
        this.runner = runner;
        this.probe = new KafkaProbe(kafka.bootstrapServers(), Duration.ofMillis(PROBE_MILLIS));
    }

    @Override
    public Health health() {
        KafkaStreams.State state = runner.streamsState();
        ReadIndexer indexer = runner.indexer();
        KafkaStreams.State chainState = runner.chainStreamsState();
        boolean streamsOk = state == KafkaStreams.State.RUNNING && chainState == KafkaStreams.State.RUNNING;
        boolean indexerOk = indexer != null && indexer.healthy();
        String broker;
        boolean brokerOk;
        try {
            broker = "reachable: " + probe.describe();
            brokerOk = true;
        }
        catch (RuntimeException e) {
            broker = e.getMessage();
            brokerOk = false;
        }
        Health.Builder b = streamsOk && indexerOk && brokerOk ? Health.up() : Health.down();
        return b.withDetail("streamsState", String.valueOf(state))
            .withDetail("chainStreamsState", String.valueOf(chainState))
            .withDetail("broker", broker)
            .withDetail("indexerHealthy", indexerOk)
            .withDetail("readsIndexed", indexer == null ? 0 : indexer.indexedCount())
            .build();
    }

    /** Closes the broker probe's admin client. */
    @Override
    public void close() {
        probe.close();
    }

}
