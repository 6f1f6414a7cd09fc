package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.platform.ReadsIndex;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankFusionTest {

    private static RankFusion.VectorHit v(String key, double cosine) {
        return new RankFusion.VectorHit(key, cosine);
    }

    @Test
    void scoresAreTheWeightedReciprocalRanks() {
        List<RankFusion.Fused> fused = new RankFusion(60, 0.5, 0).fuse(List.of("a", "b"),
                List.of(v("b", 0.9), v("c", 0.8)));
        assertThat(fused).extracting(RankFusion.Fused::key).containsExactly("b", "a", "c");
        assertThat(fused.get(0).score()).isCloseTo(1.0 / 62 + 0.5 / 61, within(1e-12));
        assertThat(fused.get(1).score()).isCloseTo(1.0 / 61, within(1e-12));
        assertThat(fused.get(2).score()).isCloseTo(0.5 / 62, within(1e-12));
        assertThat(fused.get(2).lexicalRank()).isZero();
        assertThat(fused.get(2).vectorRank()).isEqualTo(2);
    }

    @Test
    void hitsUnderTheFloorAreDroppedBeforeRanking() {
        List<RankFusion.Fused> fused = new RankFusion(10, 1, 0.4).fuse(List.of("a"), List.of(v("x", 0.2), v("y", 0.5)));
        assertThat(fused).extracting(RankFusion.Fused::key).containsExactly("a", "y");
        assertThat(fused.get(1).vectorRank()).isEqualTo(1);
    }

    @Test
    void withoutVectorHitsTheLexicalOrderStands() {
        assertThat(new RankFusion(60, 1, 0).fuse(List.of("c", "a", "b", "a"), List.of()))
            .extracting(RankFusion.Fused::key)
            .containsExactly("c", "a", "b");
    }

    @Test
    void tiesGoToTheBetterLexicalRank() {
        // Equal weights: lexical rank 1 alone and vector rank 1 alone score the same.
        assertThat(new RankFusion(60, 1, 0).fuse(List.of("a"), List.of(v("b", 0.9)))).extracting(RankFusion.Fused::key)
            .containsExactly("a", "b");
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new RankFusion(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RankFusion(60, -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RankFusion(60, 1, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aKnnScoreOnACosineFieldIsTurnedBackIntoTheCosine() {
        assertThat(ReadsIndex.cosineOfScore(0.75)).isCloseTo(0.5, within(1e-12));
        assertThat(ReadsIndex.cosineOfScore(1.0)).isCloseTo(1.0, within(1e-12));
    }

}
