package io.chainfeed.streams;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code chainfeed.streams}.
 *
 * @param applicationId Kafka Streams {@code application.id} of the tagging topology
 * @param stateDir Kafka Streams state directory (one per instance)
 * @param indexerGroupId consumer group of the indexer
 * @param chainApplicationId Kafka Streams {@code application.id} of the chain-state
 * topology
 * @param standbyReplicas Kafka Streams {@code num.standby.replicas}: warm copies of each
 * store on other instances (0 by default; 1 on a cluster of several instances)
 * @param queryHost this instance's {@code application.server} ({@code host:port} of its
 * HTTP port, where the other instances forward chain queries; default
 * {@code 127.0.0.1:<server.port>})
 * @param maxStandbyLag the most records a standby copy of the chain-state stores may be
 * behind its changelog to answer a chain query when the active instance cannot (default
 * 100)
 * @param forwardTimeout how long a chain query forwarded to the active instance may take
 * (default 3 s)
 */
@ConfigurationProperties("chainfeed.streams")
public record StreamsProperties(String applicationId, String stateDir, String indexerGroupId, String chainApplicationId,
        Integer standbyReplicas, String queryHost, Long maxStandbyLag, Duration forwardTimeout) {
    public StreamsProperties {
        applicationId = applicationId == null ? "chainfeed-tagging" : applicationId;
        stateDir = stateDir == null ? System.getProperty("java.io.tmpdir") + "/chainfeed-streams" : stateDir;
        indexerGroupId = indexerGroupId == null ? "chainfeed-indexer" : indexerGroupId;
        chainApplicationId = chainApplicationId == null ? "chainfeed-chain" : chainApplicationId;
        standbyReplicas = standbyReplicas == null ? 0 : standbyReplicas;
        maxStandbyLag = maxStandbyLag == null ? 100 : maxStandbyLag;
        forwardTimeout = forwardTimeout == null ? Duration.ofSeconds(3) : forwardTimeout;
    }
}
