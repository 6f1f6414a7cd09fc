package io.chainfeed.ingest.decide;

import static io.chainfeed.ingest.decide.DeciderFixture.SEEN;
import static io.chainfeed.ingest.decide.DeciderFixture.weights;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link MagnitudeStep}: the lead cue's magnitude moved by the weights file's steps. */
class MagnitudeStepTest {

    private static MagnitudeStep.Strength magnitude(String headline, String... keysAndValues) {
        RuleText.Parsed p = DeciderFixture.parse(headline);
        DirectionStep.Leaning l = new DirectionStep().decide(p.votes());
        HorizonStep.Stated h = new HorizonStep().decide(p, l.agreeing(), SEEN);
        return new MagnitudeStep(weights(keysAndValues)).decide(p, l, h, SEEN);
    }

    @Test
    void theLeadCuesMagnitudeIsTheBase() {
        MagnitudeStep.Strength s = magnitude("GPU lead times lengthen");
        assertThat(s.magnitude()).isEqualTo(2);
        assertThat(s.evidence()).singleElement().satisfies(sp -> assertThat(sp.rule()).startsWith("base 2: "));
        assertThat(s.hedge()).isNull();
    }

    @Test
    void anIntensifierAddsItsWeight() {
        assertThat(magnitude("Severe HBM shortage").magnitude()).isEqualTo(4);
        MagnitudeStep.Strength two = magnitude("Severe HBM shortage", "magnitude.intensifier", "2");
        assertThat(two.magnitude()).isEqualTo(5);
        assertThat(two.evidence()).extracting(Decision.Span::rule).contains("+2 intensifier");
    }

    @Test
    void aDiminisherAndAHedgeTakeTheirsOff() {
        assertThat(magnitude("GPU lead times lengthen slightly").magnitude()).isEqualTo(1);
        MagnitudeStep.Strength hedged = magnitude("DRAM supply may be tight");
        assertThat(hedged.hedge()).isNotNull();
        assertThat(hedged.magnitude() + 1).isEqualTo(magnitude("DRAM supply is tight").magnitude());
        assertThat(magnitude("DRAM supply may be tight", "magnitude.hedge", "0").magnitude())
            .isEqualTo(magnitude("DRAM supply is tight").magnitude());
    }

    @Test
    void aLongTighteningHorizonAddsOneAndTheBoundsHold() {
        assertThat(magnitude("HBM is sold out through 2028").magnitude()).isEqualTo(5);
        assertThat(magnitude("HBM is sold out through 2028").evidence()).extracting(Decision.Span::rule)
            .contains("+1 horizon over a year");
        assertThat(magnitude("HBM is sold out through 2028", "magnitude.long-horizon-days", "10000").magnitude())
            .isEqualTo(4);
        assertThat(magnitude("HBM is sold out through 2028", "magnitude.max", "3").magnitude()).isEqualTo(3);
        assertThat(magnitude("GPU lead times lengthen slightly", "magnitude.diminisher", "4").magnitude()).isEqualTo(1);
    }

}
