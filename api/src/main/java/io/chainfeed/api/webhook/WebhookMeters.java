package io.chainfeed.api.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * Webhook meters, on Micrometer's global registry (Spring Boot adds the Prometheus
 * registry to it): {@code chainfeed_webhook_deliveries_total{outcome}} per attempt
 * (delivered, retry, dead_letter, disabled) and
 * {@code chainfeed_webhook_delivery_seconds{outcome}}, the time of the HTTP exchange with
 * the endpoint. The lag gauges ({@code chainfeed_webhook_lag_records},
 * {@code _max_records}) are registered by {@link WebhookConfiguration}.
 */
final class WebhookMeters {

    private WebhookMeters() {
    }

    static void attempt(DeliveryPolicy.Decision decision, long nanos) {
        String outcome = decision instanceof DeliveryPolicy.Delivered ? "delivered"
                : decision instanceof DeliveryPolicy.Retry ? "retry"
                        : decision instanceof DeliveryPolicy.DeadLetter ? "dead_letter" : "disabled";
        Counter.builder("chainfeed.webhook.deliveries")
            .description("Webhook attempts by outcome")
            .tag("outcome", outcome)
            .register(Metrics.globalRegistry)
            .increment();
        Timer.builder("chainfeed.webhook.delivery")
            .description("Time of a webhook's HTTP exchange")
            .tag("outcome", outcome)
            .publishPercentileHistogram()
            .register(Metrics.globalRegistry)
            .record(nanos, TimeUnit.NANOSECONDS);
    }

}
