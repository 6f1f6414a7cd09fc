package io.chainfeed.streams;

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
 */
@ConfigurationProperties("chainfeed.streams")
public record StreamsProperties(String applicationId, String stateDir, String indexerGroupId, String chainApplicationId,
        Integer standbyReplicas) {
    public StreamsProperties {
        applicationId = applicationId == null ? "chainfeed-tagging" : applicationId;
        stateDir = stateDir == null ? System.getProperty("java.io.tmpdir") + "/chainfeed-streams" : stateDir;
        indexerGroupId = indexerGroupId == null ? "chainfeed-indexer" : indexerGroupId;
        chainApplicationId = chainApplicationId == null ? "chainfeed-chain" : chainApplicationId;
        standbyReplicas = standbyReplicas == null ? 0 : standbyReplicas;
    }
}
