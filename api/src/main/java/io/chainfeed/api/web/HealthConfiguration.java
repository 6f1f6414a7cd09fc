package io.chainfeed.api.web;

import io.chainfeed.platform.KafkaHealthIndicator;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Adds Kafka and the processing pipeline ({@link PipelineHealthIndicator}) to actuator health;
 * Elasticsearch's indicator comes from Spring Boot. The pipeline's consumer groups default to the streams
 * service's ({@code chainfeed.api.pipeline.tagging-group}, {@code .chain-group}, {@code .indexer-group});
 * {@code chainfeed.api.pipeline.stall-after} (default 60 s) is how long a backlog may sit without progress.
 */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {
    @Bean("kafka")
    KafkaHealthIndicator kafkaHealthIndicator(@Value("${spring.kafka.bootstrap-servers}") String bootstrap) {
        return new KafkaHealthIndicator(bootstrap, Duration.ofSeconds(3));
    }

    @Bean(destroyMethod = "close")
    Admin pipelineAdmin(@Value("${spring.kafka.bootstrap-servers}") String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000));
    }

    @Bean("pipeline")
    PipelineHealthIndicator pipelineHealthIndicator(Admin pipelineAdmin,
            @Value("${chainfeed.api.pipeline.tagging-group:chainfeed-tagging}") String taggingGroup,
            @Value("${chainfeed.api.pipeline.chain-group:chainfeed-chain}") String chainGroup,
            @Value("${chainfeed.api.pipeline.indexer-group:chainfeed-indexer}") String indexerGroup,
            @Value("${chainfeed.api.pipeline.stall-after:60s}") Duration stallAfter) {
        return new PipelineHealthIndicator(pipelineAdmin, taggingGroup, chainGroup, indexerGroup, stallAfter,
                Duration.ofSeconds(2), Clock.systemUTC());
    }
}
