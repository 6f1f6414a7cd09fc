package io.chainfeed.ingest.decide;

import static io.chainfeed.ingest.decide.DeciderFixture.weights;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ConfidenceStep}: agreement, the headline, hedges and company-only layers. */
class ConfidenceStepTest {

    private static double confidence(String headline, String body, boolean hedged, String... keysAndValues) {
        RuleText.Parsed p = DeciderFixture.RULES.parse(headline, body);
        DirectionStep.Leaning l = new DirectionStep().decide(p.votes());
        List<Decision.LayerPick> layers = new LayerStep(weights()).score(p);
        return new ConfidenceStep(weights(keysAndValues)).decide(l, hedged, layers);
    }

    @Test
    void fullAgreementInTheHeadlineIsCertain() {
        assertThat(confidence("HBM is sold out", "", false)).isEqualTo(1.0);
        // base 0.5 + 0.4 x agreement 1, no headline bonus: the cue is in the body
        assertThat(confidence("Memory makers report", "HBM is sold out.", false)).isEqualTo(0.9);
    }

    @Test
    void aHedgeTakesItsWeightOff() {
        assertThat(confidence("HBM is sold out", "", true)).isEqualTo(0.7);
        assertThat(confidence("HBM is sold out", "", true, "confidence.hedge", "0.5")).isEqualTo(0.5);
    }

    @Test
    void theBaseAndAgreementWeightsAreTheWeightsFiles() {
        assertThat(confidence("Memory makers report", "HBM is sold out.", false, "confidence.base", "0.2",
                "confidence.agreement", "0.3"))
            .isCloseTo(0.5, within(1e-9));
    }

    @Test
    void onlyCompanyNamesLowerIt() {
        String company = "Micron";
        RuleText.Parsed p = DeciderFixture.parse(company + " is sold out");
        List<Decision.LayerPick> layers = new LayerStep(weights()).score(p);
        assertThat(layers.get(0).evidence()).allMatch(s -> s.rule().startsWith("company"));
        assertThat(confidence(company + " is sold out", "", false)).isEqualTo(0.85);
        assertThat(confidence(company + " is sold out", "", false, "confidence.company-only", "0.5")).isEqualTo(0.5);
    }

}
