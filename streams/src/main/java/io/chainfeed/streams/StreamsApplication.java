package io.chainfeed.streams;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The streams service: the tagging topology (terms to tagged reads) and the indexer (reads to
 * Elasticsearch). Default HTTP port 8082 serves only actuator health.
 */
@SpringBootApplication
@EnableConfigurationProperties({StreamsProperties.class, KafkaTopicsSettings.class})
public class StreamsApplication {

    /**
     * Starts the service; Spring Boot arguments ({@code --spring.kafka.bootstrap-servers=...}).
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(StreamsApplication.class, args);
    }
}
