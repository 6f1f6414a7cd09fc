package io.chainfeed.ingest.decide;

import static io.chainfeed.ingest.decide.DeciderFixture.parse;
import static io.chainfeed.ingest.decide.DeciderFixture.weights;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link RelevanceStep}: which items are skipped, and why. */
class RelevanceStepTest {

    private static RelevanceStep step(String... keysAndValues) {
        DeciderWeights w = weights(keysAndValues);
        return new RelevanceStep(new LayerStep(w), w);
    }

    @Test
    void aConstraintInTheChainIsRelevantWithItsLayers() {
        RelevanceStep.Verdict v = step().decide(parse("HBM is sold out"));
        assertThat(v.skipped()).isNull();
        assertThat(v.layers()).extracting(Decision.LayerPick::id).startsWith("memory");
    }

    @Test
    void anOffTopicHeadlineIsSkippedWithItsReason() {
        Decision d = step().decide(parse("Micron to report quarterly results on June 25")).skipped();
        assertThat(d.relevant()).isFalse();
        assertThat(d.skipReason()).isEqualTo("results or earnings date");
        assertThat(d.relevanceEvidence()).extracting(Decision.Span::rule).allMatch(r -> r.startsWith("off-topic: "));
    }

    @Test
    void noConstraintWordingIsSkipped() {
        assertThat(step().decide(parse("Nvidia holds its annual meeting")).skipped().skipReason())
            .isEqualTo(SignalDecider.NO_CONSTRAINT_WORDING);
    }

    @Test
    void aTopLayerBelowTheMinimumScoreIsSkipped() {
        assertThat(step().decide(parse("Coffee shortage pushes prices higher")).skipped().skipReason())
            .isEqualTo(SignalDecider.NO_CHAIN_LAYER);
        Decision d = step("relevance.min-layer-score", "1000").decide(parse("HBM is sold out")).skipped();
        assertThat(d.skipReason()).isEqualTo(SignalDecider.NO_CHAIN_LAYER);
        assertThat(d.relevanceEvidence()).extracting(Decision.Span::text).containsExactly("sold out");
    }

    @Test
    void aSkipsConfidenceIsTheWeightsFiles() {
        assertThat(step().decide(parse("Nvidia holds its annual meeting")).skipped().confidence()).isEqualTo(1.0);
        assertThat(step("relevance.skip-confidence", "0.5").decide(parse("Nvidia holds its annual meeting"))
            .skipped()
            .confidence()).isEqualTo(0.5);
    }

}
