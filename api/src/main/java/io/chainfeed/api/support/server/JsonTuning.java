package io.chainfeed.api.support.server;

import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The api's JSON mapper (Spring Boot's auto-configured {@code ObjectMapper}, which
 * registers every Jackson module bean) reads and writes record and bean properties
 * through accessors generated at run time with {@code LambdaMetafactory} (Jackson's
 * Blackbird module) instead of reflective {@code Method.invoke} calls. The JSON is the
 * same; a search answer costs less CPU to write (measured in docs/search.md).
 */
@Configuration(proxyBeanMethods = false)
class JsonTuning {

    @Bean
    BlackbirdModule blackbirdModule() {
        return new BlackbirdModule();
    }

}
