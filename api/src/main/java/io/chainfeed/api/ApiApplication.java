package io.chainfeed.api;

import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.api.widget.WidgetProperties;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The chainfeed HTTP API (default port 8080): search and reads over the reads index. */
@SpringBootApplication
@EnableConfigurationProperties({ ApiProperties.class, KafkaConnectionProperties.class, WidgetProperties.class })
public class ApiApplication {

    /**
     * @param args Spring Boot arguments, e.g.
     * {@code --spring.elasticsearch.uris=http://127.0.0.1:19200}
     */
    public static void main(String[] args) {
        SpringApplication.run(ApiApplication.class, args);
    }

}
