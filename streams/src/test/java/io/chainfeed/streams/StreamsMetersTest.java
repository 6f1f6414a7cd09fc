package io.chainfeed.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The streams counters exist at zero from the start and count on the registry the meters
 * were built with (never Micrometer's global registry).
 */
class StreamsMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final StreamsMeters meters = new StreamsMeters(registry);

    @Test
    void everyCounterIsRegisteredAtZeroBeforeTheFirstRecord() {
        meters.registerAtStart();

        assertThat(registry.get("chainfeed.records.tagged").counters()).hasSize(2)
            .allSatisfy(c -> assertThat(c.count()).isZero())
            .extracting(c -> c.getId().getTag("kind"))
            .containsExactlyInAnyOrder("term", "signal");
        assertThat(registry.get("chainfeed.records.indexed").counter().count()).isZero();
    }

    @Test
    void countsLandInTheGivenRegistryAndNotTheGlobalOne() {
        meters.tagged("signal", 3);
        meters.indexed(5);

        assertThat(registry.get("chainfeed.records.tagged").tag("kind", "signal").counter().count()).isEqualTo(3.0);
        assertThat(registry.get("chainfeed.records.indexed").counter().count()).isEqualTo(5.0);
        assertThat(Metrics.globalRegistry.find("chainfeed.records.indexed").counters()).isEmpty();
    }

    @Test
    void aMissingRegistryIsRefused() {
        assertThatThrownBy(() -> new StreamsMeters(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("registry");
    }

}
