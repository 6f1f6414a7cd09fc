package io.chainfeed.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The chainfeed HTTP API (default port 8080): search and reads over the reads index. */
@SpringBootApplication
public class ApiApplication {
    /** @param args Spring Boot arguments, e.g. {@code --spring.elasticsearch.uris=http://127.0.0.1:19200} */
    public static void main(String[] args) {
        SpringApplication.run(ApiApplication.class, args);
    }
}
