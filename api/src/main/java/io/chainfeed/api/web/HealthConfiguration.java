package io.chainfeed.api.web;

import io.chainfeed.platform.KafkaHealthIndicator;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Adds Kafka to actuator health; Elasticsearch's indicator comes from Spring Boot. */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {
    @Bean("kafka")
    KafkaHealthIndicator kafkaHealthIndicator(@Value("${spring.kafka.bootstrap-servers}") String bootstrap) {
        return new KafkaHealthIndicator(bootstrap, Duration.ofSeconds(3));
    }
}
