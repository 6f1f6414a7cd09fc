package io.chainfeed.backtest;

import static io.chainfeed.chain.history.History.Status.BALANCED;
import static io.chainfeed.chain.history.History.Status.LOOSE;
import static io.chainfeed.chain.history.History.Status.TIGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.chain.history.History;
import io.chainfeed.chain.history.History.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scores of issue 37 against small examples worked by hand.
 */
class ScoresTest {

    /**
     * Labels L B T T, predictions L T T B: 2 of 4 agree; recall loose 1, balanced 0,
     * tight 1/2, balanced accuracy 1/2. Kappa: observed weighted disagreement (1,2) and
     * (2,1), 1/4 each, 0.5; row and column totals both 1 1 2, expected weighted
     * disagreement (1×1×1/4 + 1×2×1 + 1×1×1/4 + 1×2×1/4 + 2×1×1 + 2×1×1/4) / 4 = 5.5 / 4
     * = 1.375; kappa 1 − 0.5/1.375 = 7/11.
     */
    @Test
    void metricsOfASmallExample() {
        Scores.Metrics m = Scores.of(List.of(LOOSE, BALANCED, TIGHT, TIGHT), List.of(LOOSE, TIGHT, TIGHT, BALANCED));
        assertThat(m.n()).isEqualTo(4);
        assertThat(m.agreed()).isEqualTo(2);
        assertThat(m.agreement()).isEqualTo(0.5);
        assertThat(m.recall()).containsEntry(LOOSE, 1.0).containsEntry(BALANCED, 0.0).containsEntry(TIGHT, 0.5);
        assertThat(m.balancedAccuracy()).isEqualTo(0.5);
        assertThat(m.kappa()).isCloseTo(7.0 / 11, within(1e-12));
    }

    /**
     * Always tight on labels T T B: agreement 2/3, recall tight 1 and balanced 0, loose
     * absent (NaN) and left out of the balanced accuracy (1/2); kappa 0, as for any
     * constant prediction.
     */
    @Test
    void aConstantPredictionHasKappaZeroAndAbsentLabelsAreLeftOut() {
        Scores.Metrics m = Scores.of(List.of(TIGHT, TIGHT, BALANCED), List.of(TIGHT, TIGHT, TIGHT));
        assertThat(m.agreement()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(m.recall().get(LOOSE)).isNaN();
        assertThat(m.balancedAccuracy()).isEqualTo(0.5);
        assertThat(m.kappa()).isEqualTo(0.0);
        Scores.Metrics perfect = Scores.of(List.of(LOOSE, TIGHT), List.of(LOOSE, TIGHT));
        assertThat(perfect.kappa()).isEqualTo(1.0);
        assertThat(perfect.balancedAccuracy()).isEqualTo(1.0);
    }

    /**
     * Exact McNemar: with 1 and 5 discordant pairs, 2 × P(X ≤ 1), X ~ Bin(6, 1/2), = 2 ×
     * 7/64 = 0.21875; 0 and 6: 2/64; equal counts or none: 1.
     */
    @Test
    void mcNemarIsTheExactBinomialTest() {
        assertThat(Scores.mcNemar(1, 5)).isCloseTo(14.0 / 64, within(1e-12));
        assertThat(Scores.mcNemar(5, 1)).isCloseTo(14.0 / 64, within(1e-12));
        assertThat(Scores.mcNemar(0, 6)).isCloseTo(2.0 / 64, within(1e-12));
        assertThat(Scores.mcNemar(3, 3)).isEqualTo(1.0);
        assertThat(Scores.mcNemar(0, 0)).isEqualTo(1.0);
        // 2 and 10 discordant: 2 × (1 + 12 + 66) / 4096
        assertThat(Scores.mcNemar(2, 10)).isCloseTo(2 * 79.0 / 4096, within(1e-12));
    }

    @Test
    void previousQuarterCrossesTheYear() {
        assertThat(Scores.previousQuarter("2024Q1")).isEqualTo("2023Q4");
        assertThat(Scores.previousQuarter("2024Q3")).isEqualTo("2024Q2");
    }

    /**
     * The base rate counts only tuning quarters (up to 2024Q4), ties go to balanced, and
     * the overall mode stands for layers without tuning cells.
     */
    @Test
    void baseRateIsEachLayersModeOverTheTuningQuarters() {
        List<History.Cell> ref = List.of(cell("a", "2023Q1", TIGHT), cell("a", "2023Q2", TIGHT),
                cell("a", "2024Q4", LOOSE), cell("a", "2025Q1", LOOSE), cell("a", "2025Q2", LOOSE),
                cell("b", "2023Q1", LOOSE), cell("b", "2023Q2", BALANCED), cell("c", "2023Q1", TIGHT));
        Map<String, Status> base = Scores.baseRate(ref);
        assertThat(base).containsEntry("a", TIGHT).containsEntry("b", BALANCED).containsEntry("c", TIGHT);
        assertThat(base.get(Scores.OTHER_LAYERS)).isEqualTo(TIGHT);
    }

    /**
     * A set of four cells: the model is right on three; always tight on two; last quarter
     * covers the two cells whose previous quarter is labelled and gets one; the base rate
     * (layer a tight, b loose) gets three. Best baseline by balanced accuracy, and the
     * discordant pairs against it.
     */
    @Test
    void reportScoresTheBaselinesOnTheSameCells() {
        List<History.Cell> set = List.of(cell("a", "2023Q1", TIGHT), cell("a", "2023Q2", BALANCED),
                cell("b", "2023Q1", LOOSE), cell("b", "2023Q2", LOOSE));
        Map<History.Cell, Status> model = Map.of(set.get(0), TIGHT, set.get(1), BALANCED, set.get(2), LOOSE, set.get(3),
                TIGHT);
        List<Scores.Row> rows = Scores.rows(set, model::get);
        assertThat(rows.get(1).lastQuarter()).isEqualTo(TIGHT);
        assertThat(rows.get(0).lastQuarter()).isNull();
        Scores.Report r = Scores.report("s", rows, Map.of("a", TIGHT, "b", LOOSE));
        assertThat(r.model().agreed()).isEqualTo(3);
        assertThat(r.baseline(Scores.ALWAYS_TIGHT).metrics().agreed()).isEqualTo(1);
        Scores.Baseline last = r.baseline(Scores.LAST_QUARTER);
        assertThat(last.metrics().n()).isEqualTo(2);
        assertThat(last.metrics().agreed()).isEqualTo(1);
        Scores.Baseline base = r.baseline(Scores.BASE_RATE);
        assertThat(base.metrics().agreed()).isEqualTo(3);
        // base rate: recall loose 1, balanced 0, tight 1 -> 2/3; model: 1/2, 1, 1 -> 5/6
        assertThat(r.best()).isSameAs(base);
        assertThat(base.modelOnly()).isEqualTo(1);
        assertThat(base.baselineOnly()).isEqualTo(1);
        assertThat(base.p()).isEqualTo(1.0);
    }

    private static History.Cell cell(String layer, String quarter, Status status) {
        return new History.Cell(layer, quarter, status, "note", "https://example.org/" + layer + quarter);
    }

}
