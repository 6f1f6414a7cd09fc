package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The webhook delivery meters exist at zero from the start, for every outcome, and
 * attempts count, on the registry the meters were built with (never Micrometer's global
 * registry).
 */
class WebhookMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final WebhookMeters meters = new WebhookMeters(registry);

    @Test
    void everyOutcomeIsRegisteredAtZeroBeforeTheFirstDelivery() {
        meters.registerAtStart();
        for (String outcome : WebhookMeters.OUTCOMES) {
            assertThat(registry.get("chainfeed.webhook.deliveries").tag("outcome", outcome).counter().count()).isZero();
            assertThat(registry.get("chainfeed.webhook.delivery").tag("outcome", outcome).timer().count()).isZero();
        }
        assertThat(registry.get("chainfeed.webhook.deliveries").counters()).hasSize(WebhookMeters.OUTCOMES.size());
    }

    @Test
    void anAttemptCountsAndIsTimedInTheGivenRegistryAndNotTheGlobalOne() {
        meters.attempt(new DeliveryPolicy.Retry(Duration.ofSeconds(1)), TimeUnit.MILLISECONDS.toNanos(250));
        meters.attempt(new DeliveryPolicy.Delivered(), TimeUnit.MILLISECONDS.toNanos(50));

        assertThat(registry.get("chainfeed.webhook.deliveries").tag("outcome", "retry").counter().count())
            .isEqualTo(1.0);
        assertThat(registry.get("chainfeed.webhook.delivery")
            .tag("outcome", "retry")
            .timer()
            .totalTime(TimeUnit.MILLISECONDS)).isEqualTo(250.0);
        assertThat(registry.get("chainfeed.webhook.deliveries").tag("outcome", "delivered").counter().count())
            .isEqualTo(1.0);
        assertThat(Metrics.globalRegistry.find("chainfeed.webhook.deliveries").counters()).isEmpty();
    }

    @Test
    void aMissingRegistryIsRefused() {
        assertThatThrownBy(() -> new WebhookMeters(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("registry");
    }

}
