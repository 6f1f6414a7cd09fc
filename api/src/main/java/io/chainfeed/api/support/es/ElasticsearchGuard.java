package io.chainfeed.api.support.es;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.chainfeed.api.support.server.Breakers;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.elasticsearch.client.RestClient;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The api's Elasticsearch transport: Spring Boot's {@link RestClient} (connect and socket
 * timeouts from {@code spring.elasticsearch.connection-timeout} / {@code socket-timeout};
 * the socket timeout is the longest a live Elasticsearch may take) behind a circuit
 * breaker named {@value #BREAKER}. Spring Boot builds its {@code ElasticsearchClient} on
 * this transport, so every Elasticsearch-backed endpoint is guarded.
 *
 * <p>
 * Breaker settings ({@code chainfeed.api.es.breaker.*}): opens when at least half of the
 * last {@code window} calls (at least {@code minimum-calls} of them) failed or were
 * slower than {@code slow-call}; stays open {@code open-for}, then lets
 * {@code half-open-calls} through to probe. Its state and calls are meters
 * ({@code resilience4j_circuitbreaker_*{name="elasticsearch"}}). The slow-call rule is
 * off by default ({@code slow-call} 60 s, longer than any socket timeout): a slow but
 * answering Elasticsearch is busy, not down; a frozen one is caught by the socket
 * timeout.
 *
 * <p>
 * Bulkheads: one per class of work ({@link EsLanes}, limits in {@link LaneProperties},
 * {@code chainfeed.api.es.lanes.*}); a request beyond its lane's limit waits up to the
 * lane's wait for a slot, then is answered 503 {@code busy} with {@code Retry-After}
 * ({@link GuardedTransport}). Meters:
 * {@code resilience4j_bulkhead_*{name="elasticsearch-<lane>"}}.
 *
 * <p>
 * Liveness settings ({@code chainfeed.api.es.liveness.*}): a request unanswered after
 * {@code after} (default 1 s) makes the transport probe Elasticsearch with {@code HEAD /}
 * and a {@code timeout} of its own (default 500 ms); no answer fails the request at once
 * as unreachable, an answer lets it run to the socket timeout ({@link GuardedTransport},
 * {@link LivenessProbe}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(EsProperties.class)
public class ElasticsearchGuard {

    /** The breaker's name (meters, health, logs). */
    public static final String BREAKER = "elasticsearch";

    @Bean
    CircuitBreaker elasticsearchBreaker(MeterRegistry registry, EsProperties settings) {
        // A 4xx error answer is Elasticsearch refusing the request, not failing: only
        // transport failures and 5xx answers count.
        return Breakers.create(registry, BREAKER, settings.breaker().settings(), ElasticsearchGuard::refusedRequest);
    }

    /**
     * @param e what an Elasticsearch call threw
     * @return whether it is Elasticsearch's answer to a bad request (an error answer with
     * a 4xx status), which says nothing of Elasticsearch's health
     */
    static boolean refusedRequest(Throwable e) {
        return e instanceof ElasticsearchException answer && answer.status() >= 400 && answer.status() < 500;
    }

    @Bean
    EsLanes elasticsearchLanes(MeterRegistry registry, EsProperties settings) {
        LaneProperties lanes = settings.lanes();
        BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
        Map<EsLanes.Lane, Bulkhead> byLane = new EnumMap<>(EsLanes.Lane.class);
        for (EsLanes.Lane lane : EsLanes.Lane.values()) {
            int max = switch (lane) {
                case SEARCH -> lanes.search();
                case PUBLIC -> lanes.publicReads();
                case FEEDS -> lanes.feeds();
                case BACKGROUND -> lanes.background();
            };
            Duration wait = lane == EsLanes.Lane.SEARCH ? lanes.searchMaxWait() : lanes.maxWait();
            byLane.put(lane,
                    bulkheads.bulkhead(BREAKER + "-" + lane.id(),
                            BulkheadConfig.custom()
                                .maxConcurrentCalls(max)
                                .maxWaitDuration(wait)
                                .fairCallHandlingStrategyEnabled(true)
                                .build()));
        }
        TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(registry);
        return new EsLanes(byLane);
    }

    @Bean
    FilterRegistrationBean<EsLanes.Filter> elasticsearchLaneFilter() {
        FilterRegistrationBean<EsLanes.Filter> bean = new FilterRegistrationBean<>(new EsLanes.Filter());
        bean.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return bean;
    }

    @Bean
    ElasticsearchTransport elasticsearchTransport(RestClient restClient, JsonpMapper jsonpMapper,
            CircuitBreaker elasticsearchBreaker, EsLanes elasticsearchLanes, EsProperties settings) {
        Duration livenessAfter = settings.liveness().after();
        Duration livenessTimeout = settings.liveness().timeout();
        // An answer of the probe stands for as long as a request may wait before asking.
        LivenessProbe probe = LivenessProbe.of(restClient, livenessTimeout, livenessAfter);
        return new GuardedTransport(new RestClientTransport(restClient, jsonpMapper), elasticsearchBreaker,
                elasticsearchLanes, probe, livenessAfter);
    }

}
