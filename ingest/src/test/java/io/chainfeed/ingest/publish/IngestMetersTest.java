package io.chainfeed.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.SignalDecider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ingest counters exist at zero from the start, for every kind and every reason the
 * decider can skip for.
 */
class IngestMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void attach() {
        Metrics.addRegistry(registry);
    }

    @AfterEach
    void detach() {
        Metrics.removeRegistry(registry);
    }

    @Test
    void everyKnownSeriesIsRegisteredAtZeroBeforeTheFirstRecord() {
        SignalDecider decider = SignalDecider.of(Corpus.loadBundled());
        assertThat(decider.skipReasons()).contains("no supply-constraint wording", "names no part of the AI chain")
            .hasSizeGreaterThan(5);

        IngestMeters.registerAtStart(decider.skipReasons());

        for (String kind : IngestMeters.KINDS) {
            assertThat(registry.get("chainfeed.records.accepted").tag("kind", kind).counter().count()).isZero();
            assertThat(registry.get("chainfeed.records.published").tag("kind", kind).counter().count()).isZero();
        }
        assertThat(registry.get("chainfeed.signals.skipped").counters()).hasSize(decider.skipReasons().size())
            .allSatisfy(c -> assertThat(c.count()).isZero())
            .extracting(c -> c.getId().getTag("reason"))
            .containsExactlyInAnyOrderElementsOf(decider.skipReasons());
        // a later count adds to the registered series instead of making another
        IngestMeters.skipped("no supply-constraint wording", 2);
        Counter none = registry.get("chainfeed.signals.skipped")
            .tag("reason", "no supply-constraint wording")
            .counter();
        assertThat(none.count()).isEqualTo(2.0);
    }

}
