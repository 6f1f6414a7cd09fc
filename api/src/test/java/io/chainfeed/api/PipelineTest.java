package io.chainfeed.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * An api integration test over the real pipeline: the api on a random port, an embedded
 * KRaft broker (one partition per topic unless a test creates a topic itself) as
 * {@code spring.kafka.bootstrap-servers}, and {@code spring.elasticsearch.uris} pointing
 * at the Elasticsearch of the class's {@link TestPipeline}, which the class registers as
 * a static {@code @RegisterExtension} field. The context is closed after the class: the
 * next class gets a broker and an Elasticsearch of its own.
 *
 * <p>
 * By default the api waits up to 10 s for Elasticsearch (socket timeout and the breaker's
 * slow-call threshold) instead of the 1 s it runs with: a test on a loaded 2-core machine
 * tests its feature, not how fast a starved Elasticsearch answers. A test that gives
 * {@link #properties()} replaces these; {@code ResilienceIT} gives the production 1 s.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@EmbeddedKafka(kraft = true, partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
@DirtiesContext
@ContextCustomizerFactories(TestPipeline.ElasticsearchUris.class)
@interface PipelineTest {

    /**
     * @return extra {@code key=value} properties for the api under test, as
     * {@link SpringBootTest#properties()}
     */
    @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
    String[] properties() default { "spring.elasticsearch.socket-timeout=10s",
            "chainfeed.api.es.breaker.slow-call=10s" };

}
