package io.chainfeed.backtest;

import io.chainfeed.chain.history.History;
import io.chainfeed.chain.history.History.Status;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The scores of issue 37 (docs/chain-model-prereg.md): for a set of labelled cells, the
 * model's and three baselines' exact agreement, per-class recall, balanced accuracy and
 * quadratic weighted kappa, and McNemar's exact test of the model against the best
 * baseline.
 */
final class Scores {

    private Scores() {
    }

    /** Labels in their ordinal order, loose < balanced < tight. */
    static final List<Status> ORDER = List.of(Status.LOOSE, Status.BALANCED, Status.TIGHT);

    /**
     * One labelled cell of a set.
     *
     * @param layer the layer id
     * @param quarter the quarter
     * @param truth the set's label
     * @param model the model's status, bucketed ({@link Backtest#bucket})
     * @param lastQuarter the same set's label of the same layer in the previous quarter,
     * or null when that quarter is not labelled there
     */
    record Row(String layer, String quarter, Status truth, Status model, Status lastQuarter) {
    }

    /**
     * How a predictor scores on a set.
     *
     * @param n the cells scored
     * @param agreed the cells where the prediction equals the label
     * @param recall per label, the share of its cells predicted right (NaN when the set
     * has none)
     * @param balancedAccuracy the mean recall over the labels present
     * @param kappa the quadratic weighted kappa (NaN when undefined: no expected
     * disagreement)
     */
    record Metrics(int n, int agreed, Map<Status, Double> recall, double balancedAccuracy, double kappa) {
        /**
         * @return agreed / n (NaN when n is 0)
         */
        double agreement() {
            return n == 0 ? Double.NaN : agreed / (double) n;
        }
    }

    /**
     * @param s a label
     * @return its rank, loose 0, balanced 1, tight 2
     */
    static int rank(Status s) {
        return ORDER.indexOf(s);
    }

    /**
     * @param truth the labels
     * @param predicted the predictions, in the same order
     * @return the metrics
     */
    static Metrics of(List<Status> truth, List<Status> predicted) {
        if (truth.size() != predicted.size()) {
            throw new IllegalArgumentException("truth and predictions differ in length");
        }
        int n = truth.size();
        long[][] observed = new long[3][3];
        for (int i = 0; i < n; i++) {
            observed[rank(truth.get(i))][rank(predicted.get(i))]++;
        }
        int agreed = 0;
        Map<Status, Double> recall = new EnumMap<>(Status.class);
        double recallSum = 0;
        int present = 0;
        long[] rows = new long[3];
        long[] cols = new long[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                rows[i] += observed[i][j];
                cols[j] += observed[i][j];
            }
            agreed += (int) observed[i][i];
        }
        for (int i = 0; i < 3; i++) {
            double r = rows[i] == 0 ? Double.NaN : observed[i][i] / (double) rows[i];
            recall.put(ORDER.get(i), r);
            if (rows[i] > 0) {
                recallSum += r;
                present++;
            }
        }
        double disagreeObserved = 0;
        double disagreeExpected = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double w = (i - j) * (i - j) / 4.0;
                disagreeObserved += w * observed[i][j];
                disagreeExpected += n == 0 ? 0 : w * rows[i] * cols[j] / (double) n;
            }
        }
        double kappa = disagreeExpected == 0 ? Double.NaN : 1 - disagreeObserved / disagreeExpected;
        return new Metrics(n, agreed, recall, present == 0 ? Double.NaN : recallSum / present, kappa);
    }

    /**
     * McNemar's exact test: two-sided binomial test of the discordant pairs.
     * @param b cells the first predictor gets right and the second wrong
     * @param c cells the second gets right and the first wrong
     * @return {@code min(1, 2 P(X <= min(b, c)))}, {@code X ~ Binomial(b + c, 1/2)}; 1
     * when there is no discordant pair
     */
    static double mcNemar(int b, int c) {
        int trials = b + c;
        if (trials == 0) {
            return 1;
        }
        BinomialDistribution x = new BinomialDistribution(null, trials, 0.5);
        return Math.min(1, 2 * x.cumulativeProbability(Math.min(b, c)));
    }

    /**
     * @param quarter a quarter, e.g. {@code 2024Q1}
     * @return the one before it, e.g. {@code 2023Q4}
     */
    static String previousQuarter(String quarter) {
        int year = Integer.parseInt(quarter.substring(0, 4));
        int q = Integer.parseInt(quarter.substring(5));
        return q == 1 ? (year - 1) + "Q4" : year + "Q" + (q - 1);
    }

    /**
     * The base-rate baseline: each layer's most frequent label among the reference's
     * tuning cells (quarters up to {@link History#LAST_TUNING_QUARTER}); ties go to
     * balanced, then tight, then loose.
     * @param reference the reference cells
     * @return the label per layer that has tuning cells, and under the key
     * {@link #OTHER_LAYERS} the most frequent label over all tuning cells (for the other
     * layers)
     */
    static Map<String, Status> baseRate(List<History.Cell> reference) {
        Map<String, Map<Status, Integer>> counts = new HashMap<>();
        Map<Status, Integer> all = new EnumMap<>(Status.class);
        for (History.Cell c : reference) {
            if (c.quarter().compareTo(History.LAST_TUNING_QUARTER) > 0) {
                continue;
            }
            counts.computeIfAbsent(c.layer(), k -> new EnumMap<>(Status.class)).merge(c.status(), 1, Integer::sum);
            all.merge(c.status(), 1, Integer::sum);
        }
        Map<String, Status> out = new HashMap<>();
        counts.forEach((layer, byStatus) -> out.put(layer, mode(byStatus)));
        out.put(OTHER_LAYERS, mode(all));
        return out;
    }

    /** The key of {@link #baseRate}'s label for layers without tuning cells. */
    static final String OTHER_LAYERS = "*";

    private static Status mode(Map<Status, Integer> counts) {
        Status best = Status.BALANCED;
        for (Status s : List.of(Status.BALANCED, Status.TIGHT, Status.LOOSE)) {
            if (counts.getOrDefault(s, 0) > counts.getOrDefault(best, 0)) {
                best = s;
            }
        }
        return best;
    }

    /**
     * @param labels a set's cells
     * @param model the model's bucketed status of a cell
     * @return the set's rows, in the labels' order, each with the set's previous-quarter
     * label of its layer
     */
    static List<Row> rows(List<History.Cell> labels, Function<History.Cell, Status> model) {
        Map<String, Status> byCell = new HashMap<>();
        labels.forEach(c -> byCell.put(c.layer() + " " + c.quarter(), c.status()));
        List<Row> out = new ArrayList<>();
        for (History.Cell c : labels) {
            out.add(new Row(c.layer(), c.quarter(), c.status(), model.apply(c),
                    byCell.get(c.layer() + " " + previousQuarter(c.quarter()))));
        }
        return out;
    }

    /**
     * A baseline's scores and the model's paired test against it.
     *
     * @param name the baseline's name
     * @param metrics its scores (over the cells it covers)
     * @param modelOnly cells it covers that the model gets right and it gets wrong
     * @param baselineOnly cells it covers that it gets right and the model wrong
     */
    record Baseline(String name, Metrics metrics, int modelOnly, int baselineOnly) {
        /**
         * @return McNemar's exact p of the model against this baseline
         */
        double p() {
            return mcNemar(modelOnly, baselineOnly);
        }
    }

    /**
     * A set's scores.
     *
     * @param name the set's name
     * @param model the model's scores
     * @param baselines always tight, last quarter's label, base rate
     */
    record Report(String name, Metrics model, List<Baseline> baselines) {
        /**
         * @return the baseline with the highest balanced accuracy (the first on a tie)
         */
        Baseline best() {
            Baseline best = baselines.get(0);
            for (Baseline b : baselines) {
                if (b.metrics().balancedAccuracy() > best.metrics().balancedAccuracy()) {
                    best = b;
                }
            }
            return best;
        }

        /**
         * @param name a baseline's name
         * @return that baseline
         */
        Baseline baseline(String name) {
            return baselines.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
        }
    }

    static final String ALWAYS_TIGHT = "always tight";

    static final String LAST_QUARTER = "last quarter";

    static final String BASE_RATE = "base rate";

    /**
     * @param name the set's name
     * @param rows its rows
     * @param baseRate {@link #baseRate}
     * @return the model's and the baselines' scores on the set
     */
    static Report report(String name, List<Row> rows, Map<String, Status> baseRate) {
        List<Status> truth = rows.stream().map(Row::truth).toList();
        Metrics model = of(truth, rows.stream().map(Row::model).toList());
        List<Baseline> baselines = new ArrayList<>();
        baselines.add(baseline(ALWAYS_TIGHT, rows, r -> Status.TIGHT));
        baselines.add(baseline(LAST_QUARTER, rows, Row::lastQuarter));
        baselines.add(baseline(BASE_RATE, rows, r -> baseRate.getOrDefault(r.layer(), baseRate.get(OTHER_LAYERS))));
        return new Report(name, model, baselines);
    }

    private static Baseline baseline(String name, List<Row> rows, Function<Row, Status> predict) {
        List<Status> truth = new ArrayList<>();
        List<Status> predicted = new ArrayList<>();
        int modelOnly = 0;
        int baselineOnly = 0;
        for (Row r : rows) {
            Status p = predict.apply(r);
            if (p == null) {
                continue;
            }
            truth.add(r.truth());
            predicted.add(p);
            boolean modelRight = r.model() == r.truth();
            boolean baselineRight = p == r.truth();
            if (modelRight && !baselineRight) {
                modelOnly++;
            }
            else if (baselineRight && !modelRight) {
                baselineOnly++;
            }
        }
        return new Baseline(name, of(truth, predicted), modelOnly, baselineOnly);
    }

    /**
     * Prints the reports as one table, a line per set and predictor.
     * @param reports the sets' reports
     * @param out where to print
     */
    static void print(List<Report> reports, PrintStream out) {
        out.println("scores per set (model TIGHT and CRITICAL count as tight; BA balanced accuracy,");
        out.println(
                "  recall per label, QWK quadratic weighted kappa; last quarter only where that quarter is labelled;");
        out.println("  McNemar: exact two-sided p of the model against each baseline on the cells both score,");
        out.println("  [best] marks the baseline with the highest BA)");
        String format = "%-28s %4s %7s %6s %6s %6s %6s %6s%n";
        out.printf(Locale.ROOT, format, "set / predictor", "n", "agree", "BA", "loose", "bal", "tight", "QWK");
        for (Report r : reports) {
            out.println(r.name());
            line(out, format, "  model", r.model());
            for (Baseline b : r.baselines()) {
                line(out, format, "  " + b.name(), b.metrics());
            }
            Baseline best = r.best();
            StringBuilder tests = new StringBuilder("  McNemar p (model only / baseline only):");
            for (Baseline b : r.baselines()) {
                tests.append(String.format(Locale.ROOT, " vs %s%s %.4f (%d/%d);", b.name(), b == best ? " [best]" : "",
                        b.p(), b.modelOnly(), b.baselineOnly()));
            }
            out.println(tests);
        }
    }

    private static void line(PrintStream out, String format, String name, Metrics m) {
        out.printf(Locale.ROOT, format, name, m.n(), percent(m.agreement()), number(m.balancedAccuracy()),
                number(m.recall().get(Status.LOOSE)), number(m.recall().get(Status.BALANCED)),
                number(m.recall().get(Status.TIGHT)), number(m.kappa()));
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

}
