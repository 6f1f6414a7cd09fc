package io.chainfeed.streams;

import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.platform.kafka.KafkaTopicsSettings;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The streams service: the tagging topology (terms and signals to tagged reads), the
 * chain-state topology (signals to layer states, causes and state reads) and the indexer
 * (reads to Elasticsearch). Its HTTP port (default 8082) serves actuator health and
 * metrics and the chain's interactive queries under {@code /internal/v1}
 * ({@link ChainQueryController}: the chain as of an instant, a layer's history), which
 * the api calls for time travel.
 */
@SpringBootApplication
@EnableConfigurationProperties({ StreamsProperties.class, KafkaTopicsSettings.class, KafkaConnectionProperties.class })
public class StreamsApplication {

    /**
     * Starts the service; Spring Boot arguments
     * ({@code --spring.kafka.bootstrap-servers=...}).
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(StreamsApplication.class, args);
    }

}
