package io.chainfeed.api.web;

import io.chainfeed.api.KafkaConnectionProperties;
import io.chainfeed.platform.KafkaHealthIndicator;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Adds Kafka to actuator health; Elasticsearch's indicator comes from Spring Boot. */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {
    @Bean("kafka")
    KafkaHealthIndicator kafkaHealthIndicator(KafkaConnectionProperties kafka) {
        return new KafkaHealthIndicator(kafka.bootstrapServers(), Duration.ofSeconds(3));
    }
}
