package io.chainfeed.ingest.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.corpus.Corpus;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link SignalDecider} one at a time: negation, reversal, hedges,
 * magnitude, horizon, evidence.
 */
class SignalDeciderTest {

    private static final Instant SEEN = Instant.parse("2026-06-15T00:00:00Z");

    private static SignalDecider decider;

    @BeforeAll
    static void load() {
        decider = SignalDecider.of(Corpus.loadBundled());
    }

    private static Decision decide(String headline) {
        return decider.decide(headline, "", SEEN);
    }

    @Test
    void plainTighteningWithItsWordsAsEvidence() {
        Decision d = decide("HBM is sold out");
        assertThat(d.relevant()).isTrue();
        assertThat(d.direction()).isEqualTo(Direction.TIGHTENING);
        assertThat(d.primaryLayers()).containsExactly("memory");
        assertThat(d.magnitude()).isEqualTo(4);
        assertThat(d.directionEvidence()).singleElement().satisfies(s -> {
            assertThat(s.text()).isEqualTo("sold out");
            assertThat(s.field()).isEqualTo("headline");
            assertThat(s.offset()).isEqualTo(7);
            assertThat(s.length()).isEqualTo(8);
            assertThat(s.rule()).isEqualTo("tightening cue");
        });
        assertThat(d.layers().get(0).evidence()).extracting(Decision.Span::text).contains("HBM");
        assertThat(d.confidence()).isEqualTo(1.0);
    }

    @Test
    void negationAndReversalTurnTheDirection() {
        assertThat(decide("HBM is no longer sold out").direction()).isEqualTo(Direction.EASING);
        assertThat(decide("The DRAM shortage is over").direction()).isEqualTo(Direction.EASING);
        assertThat(decide("The DRAM shortage shows no sign of easing").direction()).isEqualTo(Direction.TIGHTENING);
        assertThat(decide("No new foundry capacity this year").direction()).isEqualTo(Direction.TIGHTENING);
        Decision over = decide("The DRAM shortage is over");
        assertThat(over.directionEvidence()).extracting(Decision.Span::rule).contains("reversal");
        assertThat(over.magnitude()).as("a reversed condition counts one less").isEqualTo(2);
    }

    @Test
    void hedgesLowerConfidenceAndMagnitude() {
        Decision sure = decide("DRAM supply is tight");
        Decision hedged = decide("DRAM supply may be tight");
        assertThat(hedged.direction()).isEqualTo(Direction.TIGHTENING);
        assertThat(hedged.hedged()).isTrue();
        assertThat(hedged.confidence()).isLessThan(sure.confidence());
        assertThat(hedged.magnitude()).isEqualTo(sure.magnitude() - 1);
        assertThat(hedged.magnitudeEvidence()).extracting(Decision.Span::rule).contains("-1 hedge");
    }

    @Test
    void magnitudeFollowsTheRuleTable() {
        assertThat(decide("GPU lead times lengthen slightly").magnitude()).isEqualTo(1);
        assertThat(decide("GPU lead times lengthen").magnitude()).isEqualTo(2);
        assertThat(decide("Severe HBM shortage").magnitude()).isEqualTo(4);
        assertThat(decide("HBM is sold out through 2028").magnitude()).as("+1 for a horizon over a year").isEqualTo(5);
    }

    @Test
    void horizonsBecomeUntilWithTheirWords() {
        assertThat(decide("HBM is sold out through 2027").until()).isEqualTo(Instant.parse("2028-01-01T00:00:00Z"));
        assertThat(decide("HBM is sold out for next year").until()).isEqualTo(Instant.parse("2028-01-01T00:00:00Z"));
        assertThat(decide("HBM stays tight until mid-2027").until()).isEqualTo(Instant.parse("2027-07-01T00:00:00Z"));
        assertThat(decide("Switch lead times of 50 weeks").until()).isEqualTo(Instant.parse("2027-05-31T00:00:00Z"));
        assertThat(decide("CoWoS is sold out through the third quarter of 2027").until())
            .isEqualTo(Instant.parse("2027-10-01T00:00:00Z"));
        assertThat(decide("New HBM capacity arrives by 2027").until()).as("'by' is not a horizon").isNull();
        assertThat(decide("HBM is sold out through 2027").untilEvidence()).singleElement()
            .satisfies(s -> assertThat(s.text()).isEqualTo("through 2027"));
    }

    @Test
    void offTopicAndOffChainTextIsSkippedWithTheReason() {
        Decision results = decide("Micron to report quarterly results on June 25");
        assertThat(results.relevant()).isFalse();
        assertThat(results.skipReason()).isEqualTo("results or earnings date");
        assertThat(decide("Nvidia appoints a new chief financial officer").skipReason()).isEqualTo("appointment");
        assertThat(decide("Coffee shortage pushes prices higher").skipReason())
            .isEqualTo("names no part of the AI chain");
        assertThat(decide("Nvidia holds its annual meeting").skipReason()).isEqualTo("no supply-constraint wording");
    }

    @Test
    void theSameTextAlwaysGivesTheSameDecision() {
        String h = "Foundry raises 3nm wafer prices as demand outstrips supply";
        assertThat(decider.decide(h, "body", SEEN)).isEqualTo(decider.decide(h, "body", SEEN));
    }

}
