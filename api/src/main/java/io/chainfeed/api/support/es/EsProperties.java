package io.chainfeed.api.support.es;

import io.chainfeed.api.support.server.Breakers;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings under {@code chainfeed.api.es}: how the api talks to Elasticsearch (the
 * cluster's address and timeouts are Spring Boot's {@code spring.elasticsearch.*}).
 *
 * @param maxConnections HTTP connections to Elasticsearch, per node and in all (the
 * low-level client's default of 10 and 30 queued concurrent searches in the api; 64
 * covers every concurrent search plus feeds, webhooks and the widget)
 * @param lanes requests in flight at once per class of work ({@code lanes.*})
 * @param breaker the circuit breaker ({@code breaker.*})
 * @param liveness when a slow request makes the api probe Elasticsearch
 * ({@code liveness.*})
 */
@ConfigurationProperties("chainfeed.api.es")
@Validated
public record EsProperties(@DefaultValue("64") @Min(1) int maxConnections,
        @Valid @DefaultValue @NestedConfigurationProperty LaneProperties lanes, @Valid @DefaultValue EsBreaker breaker,
        @Valid @DefaultValue Liveness liveness) {

    /**
     * The circuit breaker in front of Elasticsearch ({@link Breakers}); only transport
     * failures and 5xx answers count, and the slow-call rule is off by default (60 s,
     * past the socket timeout).
     *
     * @param window calls in the sliding window
     * @param minimumCalls calls before the failure rate counts
     * @param slowCall a call slower than this counts as failed
     * @param openFor how long the breaker stays open
     * @param halfOpenCalls calls let through to probe when half open
     */
    public record EsBreaker(@DefaultValue("10") @Min(1) int window, @DefaultValue("3") @Min(1) int minimumCalls,
            @DefaultValue("60s") @NotNull Duration slowCall, @DefaultValue("5s") @NotNull Duration openFor,
            @DefaultValue("2") @Min(1) int halfOpenCalls) {

        /**
         * @return these settings in the shape {@link Breakers#create} takes
         */
        public Breakers.Settings settings() {
            return new Breakers.Settings(window, minimumCalls, slowCall, openFor, halfOpenCalls);
        }
    }

    /**
     * A request unanswered after {@code after} makes the transport probe Elasticsearch
     * ({@code HEAD /}) within {@code timeout}; no answer fails the request at once
     * ({@link GuardedTransport}, {@link LivenessProbe}).
     *
     * @param after how long a request runs before the probe, positive
     * @param timeout the probe's own timeout, positive
     */
    public record Liveness(@DefaultValue("1s") @NotNull Duration after,
            @DefaultValue("500ms") @NotNull Duration timeout) {

        /**
         * @throws IllegalArgumentException when either duration is zero or negative
         */
        public Liveness {
            if (after != null && timeout != null
                    && (after.isNegative() || after.isZero() || timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException("chainfeed.api.es.liveness.after and .timeout must be positive, got "
                        + after + " and " + timeout);
            }
        }
    }
}
