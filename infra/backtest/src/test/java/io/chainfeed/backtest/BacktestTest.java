package io.chainfeed.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.chain.StatusRule;
import io.chainfeed.chain.history.History;
import io.chainfeed.chain.reference.ChainReference;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The backtest of the chain model on the bundled history, against the floor of issue 24.
 */
class BacktestTest {

    /**
     * The agreement measured on the bundled history with the frozen model of issue 37
     * (max:0.5 inheritance, absolute thresholds): 93 of 110 (84.5%), and 92 of 110
     * (83.6%) since the demand-only signals were dropped (issue 37 item 4). It was 94 of
     * 110 (85.5%, the goal of issue 24) under the sum rule; the reference is reported,
     * not a target, under issue 37's pre-registration, and the frozen rule was chosen on
     * its tuning quarters by balanced accuracy (docs/backtest.md).
     */
    private static final double REFERENCE_FLOOR = 0.836;

    /**
     * The held-out agreement measured the same way: 28 of 45 (62.2%) until issue 37's
     * history fixes removed two held-out cells (cloud-compute 2023Q2,
     * datacenter-facilities 2024Q1) whose only sources were an AI-written aggregator and
     * a staging host, both cells the model agreed with; 26 of 43 (60.5%) since. No model
     * status changed. 27 of 43 (62.8%) since the demand-only signals were dropped (issue
     * 37 item 4).
     */
    private static final double HOLDOUT_FLOOR = 0.62;

    private static ChainReference corpus;

    private static History history;

    private static Backtest.Result result;

    @BeforeAll
    static void run() {
        corpus = ChainReference.loadBundled();
        history = History.loadBundled(corpus);
        result = Backtest.run(corpus, history, Backtest.lastQuarter(history));
    }

    /**
     * The floor is the agreement measured on the bundled history
     * ({@link #REFERENCE_FLOOR}; see docs/backtest.md), so a change that makes the model
     * agree less with what happened fails here. The goal of issue 24, 85%, is met since
     * the segment rule (io.chainfeed.chain.reference.ChainSegments): raise the floor as
     * the history and the calibration move on.
     */
    @Test
    void theModelAgreesWithTheReferenceAtLeastAsWellAsWhenMeasured() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Backtest.print(result, new PrintStream(text, true, StandardCharsets.UTF_8), true);
        assertThat(result.scored()).hasSameSizeAs(history.reference());
        assertThat(result.agreement()).as(text.toString(StandardCharsets.UTF_8))
            .isGreaterThanOrEqualTo(REFERENCE_FLOOR);
    }

    /**
     * The held-out reference labels other cells than the reference: the same floor holds
     * there (measured 2026-12-01).
     */
    @Test
    void theHeldOutReferenceIsScoredToo() {
        Backtest.Result held = Backtest.run(corpus, history, Backtest.lastQuarter(history), history.holdout());
        assertThat(held.scored()).hasSameSizeAs(history.holdout()).hasSizeGreaterThanOrEqualTo(40);
        assertThat(held.agreement()).isGreaterThanOrEqualTo(HOLDOUT_FLOOR);
    }

    /*
     * The frozen model's scores on the held-out and third sets together (83 cells),
     * measured 2026-12-03 after the demand-only signals were dropped: balanced accuracy
     * 0.592, loose recall 7/23 (0.304), balanced recall 14/24 (0.583), 0.259 over
     * always-tight's BA, 0.054 over the base rate's (before the drop: 0.559, 5/23, 13/24,
     * 0.225, 0.021). Issue 37's floors (BA 0.70, loose and balanced recall 0.6, 0.15 over
     * always-tight and over the base rate) are missed, so these are the measured figures,
     * less rounding: a change that scores worse fails here. Raise them to the issue's
     * when a model meets those.
     */

    private static final double TOGETHER_BA_FLOOR = 0.59;

    private static final double TOGETHER_LOOSE_FLOOR = 0.30;

    private static final double TOGETHER_BALANCED_FLOOR = 0.58;

    private static final double OVER_ALWAYS_TIGHT_FLOOR = 0.25;

    private static final double OVER_BASE_RATE_FLOOR = 0.05;

    @Test
    void theHeldOutSetsTogetherScoreAtLeastAsMeasuredOnTheFrozenModel() {
        List<Scores.Report> reports = Backtest.reports(result, history);
        Scores.Report together = reports.stream()
            .filter(r -> r.name().equals(Backtest.HELD_OUT_TOGETHER))
            .findFirst()
            .orElseThrow();
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Scores.print(reports, new PrintStream(text, true, StandardCharsets.UTF_8));
        String table = text.toString(StandardCharsets.UTF_8);
        Scores.Metrics m = together.model();
        assertThat(m.balancedAccuracy()).as(table).isGreaterThanOrEqualTo(TOGETHER_BA_FLOOR);
        assertThat(m.recall().get(History.Status.LOOSE)).as(table).isGreaterThanOrEqualTo(TOGETHER_LOOSE_FLOOR);
        assertThat(m.recall().get(History.Status.BALANCED)).as(table).isGreaterThanOrEqualTo(TOGETHER_BALANCED_FLOOR);
        assertThat(m.balancedAccuracy() - together.baseline(Scores.ALWAYS_TIGHT).metrics().balancedAccuracy()).as(table)
            .isGreaterThanOrEqualTo(OVER_ALWAYS_TIGHT_FLOOR);
        assertThat(m.balancedAccuracy() - together.baseline(Scores.BASE_RATE).metrics().balancedAccuracy()).as(table)
            .isGreaterThanOrEqualTo(OVER_BASE_RATE_FLOOR);
    }

    /**
     * The third reference set (issue 37): every cell names a layer of the corpus and a
     * quarter the backtest scores, and is labelled with one of the three labels; at least
     * 40 cells with at least 12 of each label.
     */
    @Test
    void theThirdSetLabelsCellsTheBacktestScores() {
        Set<String> layers = corpus.layers().stream().map(ChainLayer::getId).collect(Collectors.toSet());
        List<History.Cell> third = history.third();
        assertThat(third).hasSizeGreaterThanOrEqualTo(40);
        for (History.Cell c : third) {
            assertThat(layers).as(c.layer() + " " + c.quarter()).contains(c.layer());
            assertThat(result.quarters()).as(c.layer() + " " + c.quarter()).contains(c.quarter());
            assertThat(c.status()).as(c.layer() + " " + c.quarter())
                .isIn(History.Status.LOOSE, History.Status.BALANCED, History.Status.TIGHT);
        }
        for (History.Status s : History.Status.values()) {
            assertThat(third.stream().filter(c -> c.status() == s).count()).as(s.name()).isGreaterThanOrEqualTo(12);
        }
        Backtest.Result scored = Backtest.run(result, third);
        assertThat(scored.scored()).hasSameSizeAs(third);
    }

    /**
     * The scores of issue 37 cover every set, and the baselines are scored on the same
     * cells as the model (last quarter's label on those it covers).
     */
    @Test
    void theScoresCoverEverySet() {
        List<Scores.Report> reports = Backtest.reports(result, history);
        assertThat(reports).extracting(Scores.Report::name)
            .contains(Backtest.REFERENCE_TUNING, Backtest.HELD_OUT_TOGETHER);
        assertThat(reports.get(0).model().n()).isEqualTo(history.reference().size());
        Scores.Report together = reports.get(reports.size() - 1);
        assertThat(together.model().n()).isEqualTo(history.holdout().size() + history.third().size());
        assertThat(together.baseline(Scores.ALWAYS_TIGHT).metrics().n()).isEqualTo(together.model().n());
        assertThat(together.baseline(Scores.LAST_QUARTER).metrics().n()).isLessThan(together.model().n());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Scores.print(reports, new PrintStream(text, true, StandardCharsets.UTF_8));
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("McNemar p", "[best]", "third", "base rate");
    }

    /**
     * The stage-2 grid is the pre-registered one (3 normalisations × 2 normals × 5
     * threshold sets, simplest first), and the tuning rule picks as written: the highest
     * balanced accuracy, within 0.01 the higher smallest recall, then the simpler.
     */
    @Test
    void theStageTwoGridAndTheTuningRuleAreThePreRegisteredOnes() {
        assertThat(Backtest.STAGE_TWO).hasSize(30)
            .startsWith("none/fixed/p20-70-95", "none/fixed/p25-75-95")
            .endsWith("k3/trailing/z1-2")
            .doesNotHaveDuplicates();
        Backtest.STAGE_TWO.forEach(v -> assertThat(StatusRule.parse(v)).hasToString(v));
        Scores.Metrics a = metrics(0.700, 0.50);
        Scores.Metrics b = metrics(0.705, 0.40);
        Scores.Metrics c = metrics(0.695, 0.60);
        Scores.Metrics d = metrics(0.720, 0.30);
        assertThat(Backtest.choose(List.of(a, b))).as("within 0.01: the higher smallest recall").isZero();
        assertThat(Backtest.choose(List.of(b, a, c))).isEqualTo(2);
        assertThat(Backtest.choose(List.of(a, b, c, d))).as("d is 0.015 ahead of a").isEqualTo(3);
        assertThat(Backtest.choose(List.of(a, a))).as("a tie: the simpler").isZero();
    }

    private static Scores.Metrics metrics(double ba, double smallest) {
        return new Scores.Metrics(10, 5, java.util.Map.of(History.Status.LOOSE, smallest, History.Status.BALANCED, 0.9,
                History.Status.TIGHT, Double.NaN), ba, 0.5);
    }

    @Test
    void everyLayerHasAStateAtEveryQuarterEnd() {
        assertThat(result.quarters()).startsWith("2023Q1", "2023Q2").contains("2025Q4");
        assertThat(result.layers()).hasSize(corpus.layers().size());
        result.cells()
            .values()
            .forEach(byQuarter -> assertThat(byQuarter.keySet()).containsExactlyElementsOf(result.quarters()));
        assertThat(result.cells().get("memory").get("2025Q4").state().getAsOf().toString())
            .isEqualTo("2025-12-31T23:59:59.999Z");
    }

    @Test
    void statusesBucketAsTheReferenceLabelsThem() {
        assertThat(Backtest.bucket(LayerStatus.CRITICAL)).isEqualTo(History.Status.TIGHT);
        assertThat(Backtest.bucket(LayerStatus.TIGHT)).isEqualTo(History.Status.TIGHT);
        assertThat(Backtest.bucket(LayerStatus.BALANCED)).isEqualTo(History.Status.BALANCED);
        assertThat(Backtest.bucket(LayerStatus.LOOSE)).isEqualTo(History.Status.LOOSE);
        assertThat(Backtest.quarterOf(LocalDate.of(2024, 9, 30))).isEqualTo("2024Q3");
        assertThat(Backtest.quarterOf(LocalDate.of(2024, 10, 1))).isEqualTo("2024Q4");
        assertThat(Backtest.quarters("2023Q3")).containsExactly("2023Q1", "2023Q2", "2023Q3");
    }

}
