package io.chainfeed.api.health;

import io.chainfeed.api.ApiProperties;
import io.chainfeed.api.KafkaConnectionProperties;
import io.chainfeed.platform.KafkaHealthIndicator;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Adds Kafka and the processing pipeline ({@link PipelineHealthIndicator}) to actuator
 * health; Elasticsearch's indicator comes from Spring Boot. The pipeline's consumer
 * groups default to the streams service's ({@code chainfeed.api.pipeline.tagging-group},
 * {@code .chain-group}, {@code .indexer-group});
 * {@code chainfeed.api.pipeline.stall-after} (default 60 s) is how long a backlog may sit
 * without progress.
 */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {

    @Bean("kafka")
    KafkaHealthIndicator kafkaHealthIndicator(KafkaConnectionProperties kafka) {
        return new KafkaHealthIndicator(kafka.bootstrapServers(), Duration.ofSeconds(3));
    }

    @Bean(destroyMethod = "close")
    VisibleRecordsProbe visibleRecordsProbe(KafkaConnectionProperties kafka) {
        return new VisibleRecordsProbe(kafka.bootstrapServers());
    }

    @Bean(destroyMethod = "close")
    Admin pipelineAdmin(KafkaConnectionProperties kafka) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                3000));
    }

    @Bean("pipeline")
    PipelineHealthIndicator pipelineHealthIndicator(Admin pipelineAdmin, VisibleRecordsProbe visibleRecords,
            ApiProperties props) {
        ApiProperties.Pipeline p = props.pipeline();
        return new PipelineHealthIndicator(pipelineAdmin, visibleRecords, p.taggingGroup(), p.chainGroup(),
                p.indexerGroup(), p.stallAfter(), Duration.ofSeconds(2), Clock.systemUTC());
    }

}
