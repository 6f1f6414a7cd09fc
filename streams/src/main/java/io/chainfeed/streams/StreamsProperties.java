package io.chainfeed.streams;

import io.chainfeed.streams.index.EmbeddingProperties;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.streams}, the streams service's tree (with
 * {@code chainfeed.kafka} and {@code spring.kafka}, shared with ingest). Defaults are the
 * {@code @DefaultValue}s here; {@code docs/configuration.md} is checked against the
 * metadata the configuration processor writes from this record.
 *
 * @param applicationId Kafka Streams {@code application.id} of the tagging topology
 * @param stateDir Kafka Streams state directory, one per instance (default
 * {@code <java.io.tmpdir>/chainfeed-streams})
 * @param indexerGroupId consumer group of the indexer
 * @param chainApplicationId Kafka Streams {@code application.id} of the chain-state
 * topology
 * @param standbyReplicas Kafka Streams {@code num.standby.replicas}: warm copies of each
 * store on other instances (1 on a cluster of several instances)
 * @param queryHost this instance's {@code application.server} ({@code host:port} of its
 * HTTP port, where the other instances forward chain queries; default
 * {@code 127.0.0.1:<server.port>})
 * @param maxStandbyLag the most records a standby copy of the chain-state stores may be
 * behind its changelog to answer a chain query when the active instance cannot
 * @param forwardTimeout how long a chain query forwarded to the active instance may take
 * @param embedding the reads' sentence vectors ({@code embedding.*})
 */
@ConfigurationProperties("chainfeed.streams")
public record StreamsProperties(@DefaultValue("chainfeed-tagging") String applicationId, String stateDir,
        @DefaultValue("chainfeed-indexer") String indexerGroupId,
        @DefaultValue("chainfeed-chain") String chainApplicationId, @DefaultValue("0") int standbyReplicas,
        String queryHost, @DefaultValue("100") long maxStandbyLag, @DefaultValue("3s") Duration forwardTimeout,
        @DefaultValue @NestedConfigurationProperty EmbeddingProperties embedding) {

    /** Fills the state directory, which depends on the machine, when unset. */
    public StreamsProperties {
        stateDir = stateDir == null ? System.getProperty("java.io.tmpdir") + "/chainfeed-streams" : stateDir;
    }
}
