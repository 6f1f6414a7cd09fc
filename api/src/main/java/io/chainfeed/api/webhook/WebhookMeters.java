package io.chainfeed.api.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Webhook meters, on the registry they are built with (the api's injected
 * {@link MeterRegistry}, which Spring Boot serves at {@code /actuator/prometheus}):
 * {@code chainfeed_webhook_deliveries_total{outcome}} per attempt (delivered, retry,
 * dead_letter, disabled) and {@code chainfeed_webhook_delivery_seconds{outcome}}, the
 * time of the HTTP exchange with the endpoint. The lag gauges
 * ({@code chainfeed_webhook_lag_records}, {@code _max_records}) are registered by
 * {@link WebhookConfiguration}. Every outcome's counter and timer is registered at start
 * ({@link #registerAtStart}), at zero, so a restarted api shows them before its first
 * delivery.
 */
final class WebhookMeters {

    /** Every outcome an attempt can have. */
    static final List<String> OUTCOMES = List.of("delivered", "retry", "dead_letter", "disabled");

    private final MeterRegistry registry;

    /**
     * @param registry where the meters go
     * @throws NullPointerException if {@code registry} is null
     */
    WebhookMeters(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Registers the counter and timer of every outcome, at zero (idempotent).
     */
    void registerAtStart() {
        for (String outcome : OUTCOMES) {
            counter(outcome);
            timer(outcome);
        }
    }

    /**
     * Counts one attempt and times its HTTP exchange.
     * @param decision what followed the attempt (its outcome)
     * @param nanos how long the exchange took
     */
    void attempt(DeliveryPolicy.Decision decision, long nanos) {
        String outcome = decision instanceof DeliveryPolicy.Delivered ? "delivered"
                : decision instanceof DeliveryPolicy.Retry ? "retry"
                        : decision instanceof DeliveryPolicy.DeadLetter ? "dead_letter" : "disabled";
        counter(outcome).increment();
        timer(outcome).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Counter counter(String outcome) {
        return Counter.builder("chainfeed.webhook.deliveries")
            .description("Webhook attempts by outcome")
            .tag("outcome", outcome)
            .register(registry);
    }

    private Timer timer(String outcome) {
        return Timer.builder("chainfeed.webhook.delivery")
            .description("Time of a webhook's HTTP exchange")
            .tag("outcome", outcome)
            .publishPercentileHistogram()
            .register(registry);
    }

}
