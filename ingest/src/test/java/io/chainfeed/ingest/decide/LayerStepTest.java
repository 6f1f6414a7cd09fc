package io.chainfeed.ingest.decide;

import static io.chainfeed.ingest.decide.DeciderFixture.parse;
import static io.chainfeed.ingest.decide.DeciderFixture.weights;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LayerStep}: layer scores from the phrase weights and the layer weights. */
class LayerStepTest {

    private static double memory(LayerStep step, String headline) {
        return step.score(parse(headline))
            .stream()
            .filter(p -> p.id().equals("memory"))
            .findFirst()
            .orElseThrow()
            .score();
    }

    @Test
    void theLayerNamedBesideTheCueIsPrimary() {
        List<Decision.LayerPick> picks = new LayerStep(weights()).score(parse("HBM is sold out"));
        assertThat(picks.get(0).id()).isEqualTo("memory");
        assertThat(picks.get(0).primary()).isTrue();
        assertThat(picks.get(0).evidence()).extracting(Decision.Span::text).contains("HBM");
    }

    @Test
    void theBesideBonusIsTheWeightsFiles() {
        String h = "HBM is sold out";
        double with = memory(new LayerStep(weights()), h);
        double without = memory(new LayerStep(weights("layer.beside.bonus", "0")), h);
        // in the headline, in the cue's sentence: weight x 3 x 2, plus 2 x weight x 3
        // beside the cue; the bonus is half the score
        assertThat(without).isEqualTo(with / 2);
    }

    @Test
    void theHeadlinesFirstPhraseFactorIsTheWeightsFiles() {
        String h = "HBM is sold out";
        double usual = memory(new LayerStep(weights()), h);
        double doubled = memory(new LayerStep(weights("layer.first-in-headline.factor", "3.0")), h);
        assertThat(doubled).isEqualTo(usual * 2);
    }

    @Test
    void aSecondLayerWithinTheShareIsPrimaryToo() {
        String h = "HBM shortage slows GPU shipments";
        List<Decision.LayerPick> strict = new LayerStep(weights("layer.primary.share", "1.0")).score(parse(h));
        List<Decision.LayerPick> loose = new LayerStep(weights("layer.primary.share", "0.0")).score(parse(h));
        assertThat(strict).filteredOn(Decision.LayerPick::primary).hasSize(1);
        assertThat(loose).hasSizeGreaterThan(1).allMatch(Decision.LayerPick::primary);
    }

    @Test
    void noLayerNamedNoScores() {
        assertThat(new LayerStep(weights()).score(parse("Coffee shortage pushes prices higher"))).isEmpty();
    }

}
