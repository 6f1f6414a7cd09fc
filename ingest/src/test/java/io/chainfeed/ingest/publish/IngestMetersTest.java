package io.chainfeed.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.SignalDecider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The ingest counters exist at zero from the start, for every kind and every reason the
 * decider can skip for, on the registry the meters were built with (never Micrometer's
 * global registry).
 */
class IngestMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final IngestMeters meters = new IngestMeters(registry);

    @Test
    void everyKnownSeriesIsRegisteredAtZeroBeforeTheFirstRecord() {
        SignalDecider decider = SignalDecider.of(Corpus.loadBundled());
        assertThat(decider.skipReasons()).contains("no supply-constraint wording", "names no part of the AI chain")
            .hasSizeGreaterThan(5);

        meters.registerAtStart(decider.skipReasons());

        for (String kind : IngestMeters.KINDS) {
            assertThat(registry.get("chainfeed.records.accepted").tag("kind", kind).counter().count()).isZero();
            assertThat(registry.get("chainfeed.records.published").tag("kind", kind).counter().count()).isZero();
        }
        assertThat(registry.get("chainfeed.signals.skipped").counters()).hasSize(decider.skipReasons().size())
            .allSatisfy(c -> assertThat(c.count()).isZero())
            .extracting(c -> c.getId().getTag("reason"))
            .containsExactlyInAnyOrderElementsOf(decider.skipReasons());
        // a later count adds to the registered series instead of making another
        meters.skipped("no supply-constraint wording", 2);
        Counter none = registry.get("chainfeed.signals.skipped")
            .tag("reason", "no supply-constraint wording")
            .counter();
        assertThat(none.count()).isEqualTo(2.0);
    }

    @Test
    void countsLandInTheGivenRegistryAndNotTheGlobalOne() {
        meters.accepted("reference", 3);
        meters.published("reference", 2);

        assertThat(registry.get("chainfeed.records.accepted").tag("kind", "reference").counter().count())
            .isEqualTo(3.0);
        assertThat(registry.get("chainfeed.records.published").tag("kind", "reference").counter().count())
            .isEqualTo(2.0);
        assertThat(Metrics.globalRegistry.find("chainfeed.records.accepted").counters()).isEmpty();
    }

    @Test
    void aMissingRegistryIsRefused() {
        assertThatThrownBy(() -> new IngestMeters(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("registry");
    }

}
