package io.chainfeed.api.support.server;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * The api's circuit breakers (Resilience4j), one per dependency, all alike: count-based
 * over the last {@code window} calls, open when at least half of them (and at least
 * {@code minimumCalls}) failed or were slower than {@code slowCall}; open for
 * {@code openFor}, then {@code halfOpenCalls} probes. Each breaker's state and calls are
 * meters {@code resilience4j_circuitbreaker_*{name="<name>"}}.
 */
public final class Breakers {

    private Breakers() {
    }

    /**
     * The settings of one breaker.
     *
     * @param window calls in the sliding window
     * @param minimumCalls calls before the failure rate counts
     * @param slowCall a call slower than this counts as failed
     * @param openFor how long the breaker stays open
     * @param halfOpenCalls calls let through to probe when half open
     */
    public record Settings(int window, int minimumCalls, Duration slowCall, Duration openFor, int halfOpenCalls) {
    }

    /**
     * @param meters where the breaker's meters go
     * @param name the breaker's name (meters, logs)
     * @param settings its settings
     * @param answered which exceptions are answers of the dependency to a bad request (a
     * 4xx: the caller's error), not failures of it; they neither count nor open the
     * breaker. Only what is left (timeouts, connection failures, 5xx answers) counts.
     * @return the breaker
     */
    public static CircuitBreaker create(MeterRegistry meters, String name, Settings settings,
            Predicate<Throwable> answered) {
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(settings.window())
            .minimumNumberOfCalls(settings.minimumCalls())
            .failureRateThreshold(50)
            .slowCallRateThreshold(100)
            .slowCallDurationThreshold(settings.slowCall())
            .waitDurationInOpenState(settings.openFor())
            .permittedNumberOfCallsInHalfOpenState(settings.halfOpenCalls())
            .ignoreException(answered)
            .build();
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.of(config);
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
        return breakers.circuitBreaker(name);
    }

}
