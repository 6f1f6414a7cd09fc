package io.chainfeed.api.support.health;

import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.platform.KafkaHealthIndicator;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.elasticsearch.client.RestClient;
import org.springframework.boot.actuate.elasticsearch.ElasticsearchRestClientHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Adds Kafka, Elasticsearch and the processing pipeline ({@link PipelineHealthIndicator})
 * to actuator health, each checked in the background ({@link BackgroundHealth}: every
 * {@code chainfeed.api.health.refresh-every}, default 1 s; DOWN when no check has
 * finished for {@code chainfeed.api.health.stale-after}, default 10 s), so a request for
 * health answers at once. Elasticsearch's check is Spring Boot's own (cluster health
 * through the api's {@link RestClient}); Spring Boot's request-time one is off
 * ({@code management.health.elasticsearch.enabled=false}). The pipeline's consumer groups
 * default to the streams service's ({@code chainfeed.api.pipeline.tagging-group},
 * {@code .chain-group}, {@code .indexer-group});
 * {@code chainfeed.api.pipeline.stall-after} (default 60 s) is how long a backlog may sit
 * without progress.
 */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {

    private final Duration refreshEvery;

    private final Duration staleAfter;

    HealthConfiguration(ApiProperties settings) {
        this.refreshEvery = settings.health().refreshEvery();
        this.staleAfter = settings.health().staleAfter();
    }

    @Bean("kafka")
    BackgroundHealth kafkaHealthIndicator(KafkaConnectionProperties kafka) {
        return new BackgroundHealth("kafka", new KafkaHealthIndicator(kafka.bootstrapServers(), Duration.ofSeconds(3)),
                refreshEvery, staleAfter, Clock.systemUTC());
    }

    @Bean("elasticsearch")
    BackgroundHealth elasticsearchHealthIndicator(RestClient restClient) {
        return new BackgroundHealth("elasticsearch", new ElasticsearchRestClientHealthIndicator(restClient),
                refreshEvery, staleAfter, Clock.systemUTC());
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
    BackgroundHealth pipelineHealthIndicator(Admin pipelineAdmin, VisibleRecordsProbe visibleRecords,
            ApiProperties props) {
        ApiProperties.Pipeline p = props.pipeline();
        return new BackgroundHealth("pipeline",
                new PipelineHealthIndicator(pipelineAdmin, visibleRecords, p.taggingGroup(), p.chainGroup(),
                        p.indexerGroup(), p.stallAfter(), Duration.ofSeconds(2), Clock.systemUTC()),
                refreshEvery, staleAfter, Clock.systemUTC());
    }

}
