package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The webhook delivery meters exist at zero from the start, for every outcome. */
class WebhookMetersTest {

    @Test
    void everyOutcomeIsRegisteredAtZeroBeforeTheFirstDelivery() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        try {
            WebhookMeters.registerAtStart();
            for (String outcome : WebhookMeters.OUTCOMES) {
                assertThat(registry.get("chainfeed.webhook.deliveries").tag("outcome", outcome).counter().count())
                    .isZero();
                assertThat(registry.get("chainfeed.webhook.delivery").tag("outcome", outcome).timer().count()).isZero();
            }
            assertThat(registry.get("chainfeed.webhook.deliveries").counters()).hasSize(WebhookMeters.OUTCOMES.size());
        }
        finally {
            Metrics.removeRegistry(registry);
        }
    }

}
