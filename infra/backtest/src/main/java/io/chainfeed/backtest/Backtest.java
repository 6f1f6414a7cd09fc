package io.chainfeed.backtest;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.chain.ChainModel;
import io.chainfeed.chain.Inheritance;
import io.chainfeed.chain.StatusRule;
import io.chainfeed.chain.history.History;
import io.chainfeed.chain.reference.ChainReference;
import java.io.PrintStream;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Replays the bundled history through the chain model and compares, for each chain layer
 * and each quarter end since 2023, the status the model gives as of that instant
 * ({@link ChainModel#statesAt}, the same rules the chain-state topology runs) with the
 * reference timeline written from public reporting ({@link History#reference()}). TIGHT
 * and CRITICAL agree with a reference {@code tight}, BALANCED with {@code balanced},
 * LOOSE with {@code loose}; unlabelled cells are shown but not scored.
 */
@Command(name = "backtest", mixinStandardHelpOptions = true,
        description = "Replay the bundled history of constraint signals through the chain model and compare each "
                + "layer's status at every quarter end since 2023 with the reference timeline (history/reference.yaml).")
public final class Backtest implements Callable<Integer> {

    @Option(names = "--no-disagreements", description = "Leave out the list of disagreements (each with its"
            + " reference note and source, and the model's largest causes).")
    boolean noDisagreements;

    @Option(names = "--inheritance", description = "The chain model's inheritance rule: max:0.5 (live), sum (the"
            + " rule before issue 37), or max:<A> / avg:<A> with A at most 0.5 (docs/chain-model-prereg.md).")
    String inheritance = "max:0.5";

    @Option(names = "--sweep-inheritance", description = "Print balanced accuracy and recalls per set for every"
            + " pre-registered stage-1 inheritance variant (docs/chain-model-prereg.md), then stop.")
    boolean sweep;

    @Option(names = "--status", description = "How a layer's status is read: absolute, or <norm>/<normal>/<thresholds>"
            + " (norm none or k<k>, normal fixed or trailing, thresholds p<low>-<tight>-<critical> or z<z1>-<z2>),"
            + " e.g. k1/fixed/p25-75-95 (issue 37, docs/chain-model-prereg.md).")
    String status = "absolute";

    @Option(names = "--sweep-status", description = "Print the scores per set of every pre-registered stage-2 status"
            + " variant on the stage-1 inheritance (docs/chain-model-prereg.md) and the one the tuning rule picks,"
            + " then stop.")
    boolean sweepStatus;

    /** Stage 1's frozen choice (docs/backtest.md). */
    static final String STAGE_ONE_CHOICE = "max:0.5";

    /**
     * The stage-2 variants of docs/chain-model-prereg.md, simplest first (no
     * normalisation before k=1 before k=3, fixed base before trailing, percentiles before
     * z).
     */
    static final List<String> STAGE_TWO = stageTwo();

    private static List<String> stageTwo() {
        List<String> out = new ArrayList<>();
        for (String norm : List.of("none", "k1", "k3")) {
            for (String normal : List.of("fixed", "trailing")) {
                for (String th : List.of("p20-70-95", "p25-75-95", "p30-80-97", "z0.5-2", "z1-2")) {
                    out.add(norm + "/" + normal + "/" + th);
                }
            }
        }
        return List.copyOf(out);
    }

    /** The stage-1 variants of docs/chain-model-prereg.md, after the live rule. */
    static final List<String> STAGE_ONE = List.of("sum", "max:0.25", "max:0.375", "max:0.5", "avg:0.25", "avg:0.375",
            "avg:0.5");

    /**
     * One scored or unscored cell: the model's state of a layer at a quarter end.
     *
     * @param layer the layer id
     * @param quarter the quarter, e.g. {@code 2024Q3}
     * @param state the model's state as of the quarter's last millisecond (UTC)
     * @param reference the reference label, or null when the quarter is not labelled for
     * the layer
     */
    public record Cell(String layer, String quarter, LayerState state, History.Cell reference) {
        /**
         * @return whether the cell is labelled and the model agrees with it
         */
        public boolean agrees() {
            return reference != null && bucket(state.getStatus()) == reference.status();
        }
    }

    /**
     * The backtest's outcome.
     *
     * @param quarters the quarters, oldest first
     * @param layers the layer ids, in corpus order (upstream first)
     * @param cells every layer × quarter, by layer then quarter
     */
    public record Result(List<String> quarters, List<String> layers, Map<String, Map<String, Cell>> cells) {
        /**
         * @return the labelled cells
         */
        public List<Cell> scored() {
            List<Cell> out = new ArrayList<>();
            cells.values()
                .forEach(byQuarter -> byQuarter.values().stream().filter(c -> c.reference() != null).forEach(out::add));
            return out;
        }

        /**
         * @return the share of labelled cells the model agrees with, 0-1 (0 when none is
         * labelled)
         */
        public double agreement() {
            List<Cell> scored = scored();
            return scored.isEmpty() ? 0 : scored.stream().filter(Cell::agrees).count() / (double) scored.size();
        }
    }

    /**
     * @param status a model status
     * @return the reference label it agrees with
     */
    static History.Status bucket(LayerStatus status) {
        return switch (status) {
            case LOOSE -> History.Status.LOOSE;
            case BALANCED -> History.Status.BALANCED;
            case TIGHT, CRITICAL -> History.Status.TIGHT;
        };
    }

    /**
     * Runs the backtest.
     * @param corpus the layers and companies
     * @param history the signals and the reference timeline
     * @param last the last quarter to include (its end need not have passed)
     * @return every layer's state at every quarter end from 2023Q1 to {@code last}, with
     * the reference labels
     */
    public static Result run(ChainReference corpus, History history, String last) {
        return run(corpus, history, last, history.reference());
    }

    /**
     * Runs the backtest against given labels.
     * @param corpus the layers and companies
     * @param history the signals
     * @param last the last quarter to include
     * @param labelled the labels to score against (the reference, or the held-out
     * reference)
     * @return every layer's state at every quarter end from 2023Q1 to {@code last}, with
     * those labels
     */
    public static Result run(ChainReference corpus, History history, String last, List<History.Cell> labelled) {
        return run(corpus, history, last, labelled, Inheritance.LIVE);
    }

    /**
     * Runs the backtest with a given inheritance rule, absolute thresholds.
     * @param corpus the layers and companies
     * @param history the signals
     * @param last the last quarter to include
     * @param labelled the labels to score against
     * @param inheritance the chain model's inheritance rule
     * @return every layer's state at every quarter end from 2023Q1 to {@code last}, with
     * those labels
     */
    public static Result run(ChainReference corpus, History history, String last, List<History.Cell> labelled,
            Inheritance inheritance) {
        return run(corpus, history, last, labelled, inheritance, StatusRule.ABSOLUTE);
    }

    /**
     * Runs the backtest with a given inheritance rule and status rule.
     * @param corpus the layers and companies
     * @param history the signals
     * @param last the last quarter to include
     * @param labelled the labels to score against
     * @param inheritance the chain model's inheritance rule
     * @param statusRule how the model reads a layer's status
     * @return every layer's state at every quarter end from 2023Q1 to {@code last}, with
     * those labels
     */
    public static Result run(ChainReference corpus, History history, String last, List<History.Cell> labelled,
            Inheritance inheritance, StatusRule statusRule) {
        ChainModel model = new ChainModel(corpus.layers(), corpus.companies(), inheritance, statusRule);
        List<ConstraintSignal> signals = history.signals();
        Map<String, History.Cell> labels = new HashMap<>();
        labelled.forEach(c -> labels.put(c.layer() + " " + c.quarter(), c));
        List<String> quarters = quarters(last);
        List<String> layers = corpus.layers().stream().map(ChainLayer::getId).toList();
        Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
        layers.forEach(l -> cells.put(l, new LinkedHashMap<>()));
        for (String q : quarters) {
            Instant end = History.quarterEnd(q);
            Map<String, LayerState> states = model.statesAt(signals, end.toEpochMilli());
            for (String l : layers) {
                cells.get(l).put(q, new Cell(l, q, states.get(l), labels.get(l + " " + q)));
            }
        }
        return new Result(quarters, layers, cells);
    }

    /**
     * @return the quarters from 2023Q1 to {@code last}, e.g. {@code 2026Q3}
     */
    static List<String> quarters(String last) {
        List<String> out = new ArrayList<>();
        for (int year = 2023;; year++) {
            for (int q = 1; q <= 4; q++) {
                String name = year + "Q" + q;
                out.add(name);
                if (name.equals(last)) {
                    return out;
                }
            }
            if (year > 2100) {
                throw new IllegalArgumentException("not a quarter from 2023Q1 on: " + last);
            }
        }
    }

    /**
     * Prints the table (one row per layer, one column per quarter), the agreement and,
     * when asked, every disagreement.
     * @param r the result
     * @param out where to print
     * @param listDisagreements whether to list the disagreements
     */
    static void print(Result r, PrintStream out, boolean listDisagreements) {
        out.println("chainfeed backtest: the chain model's status of each layer at each quarter end (UTC),");
        out.println("against the reference timeline (history/reference.yaml).");
        out.println("  L loose, B balanced, T tight, C critical; after it: '=' agrees with the reference,");
        out.println("  'x' disagrees (the reference label follows in lower case), blank: quarter not labelled");
        out.println();
        int width = r.layers().stream().mapToInt(String::length).max().orElse(10);
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-" + width + "s", "layer"));
        r.quarters().forEach(q -> head.append(' ').append(String.format(Locale.ROOT, "%-7s", q.substring(2))));
        out.println(head);
        for (String l : r.layers()) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-" + width + "s", l));
            for (String q : r.quarters()) {
                Cell c = r.cells().get(l).get(q);
                String mark = c.reference() == null ? "" : c.agrees() ? "="
                        : "x" + c.reference().status().name().substring(0, 1).toLowerCase(Locale.ROOT);
                row.append(' ')
                    .append(String.format(Locale.ROOT, "%-7s", c.state().getStatus().name().charAt(0) + mark));
            }
            out.println(row);
        }
        List<Cell> scored = r.scored();
        long agreed = scored.stream().filter(Cell::agrees).count();
        out.println();
        out.printf(Locale.ROOT, "agreement: %d of %d labelled cells (%.1f%%)%n", agreed, scored.size(),
                100 * r.agreement());
        if (!listDisagreements) {
            return;
        }
        out.println();
        out.println("disagreements:");
        for (Cell c : scored) {
            if (c.agrees()) {
                continue;
            }
            LayerState s = c.state();
            out.printf(Locale.ROOT,
                    "- %s %s: model %s (pressure %.2f, direct %.2f, squeeze %.2f), reference %s: %s (%s)%n", c.layer(),
                    c.quarter(), s.getStatus().name().toLowerCase(Locale.ROOT), s.getPressure(), s.getDirectPressure(),
                    s.getSqueezeReceived(), c.reference().status().name().toLowerCase(Locale.ROOT),
                    c.reference().note(), c.reference().source());
            for (SignalCause cause : s.getCauses().subList(0, Math.min(3, s.getCauses().size()))) {
                out.printf(Locale.ROOT, "    cause %+.2f %s%n", cause.getContribution(), cause.getSignalId());
            }
        }
    }

    /**
     * @return the quarter holding a day, e.g. {@code 2024Q3}
     */
    static String quarterOf(LocalDate day) {
        return day.getYear() + "Q" + ((day.getMonthValue() - 1) / 3 + 1);
    }

    @Override
    public Integer call() {
        ChainReference corpus = ChainReference.loadBundled();
        History history = History.loadBundled(corpus);
        String last = lastQuarter(history);
        if (sweep) {
            sweep(corpus, history, last, System.out);
            return 0;
        }
        if (sweepStatus) {
            sweepStatus(corpus, history, last, System.out);
            return 0;
        }
        Result all = run(corpus, history, last, history.reference(), Inheritance.parse(inheritance),
                StatusRule.parse(status));
        System.out.println("inheritance: " + Inheritance.parse(inheritance) + ", status: " + StatusRule.parse(status));
        print(all, System.out, !noDisagreements);
        System.out.println();
        ChainModel model = new ChainModel(corpus.layers(), corpus.companies(), Inheritance.parse(inheritance),
                StatusRule.parse(status));
        String newest = all.quarters().get(all.quarters().size() - 1);
        for (Map.Entry<String, Instant> at : criticalInstants(history, newest).entrySet()) {
            List<String> critical = critical(model, history.signals(), at.getValue());
            System.out.printf(Locale.ROOT, "critical at %s (%s): %d of %d layers %s%n", at.getKey(), at.getValue(),
                    critical.size(), corpus.layers().size(), critical);
        }
        Result held = run(all, history.holdout());
        System.out.println();
        System.out.printf(Locale.ROOT,
                "held-out reference (history/reference-holdout.yaml, other cells, not tuned on):"
                        + " %d of %d labelled cells (%.1f%%)%n",
                held.scored().stream().filter(Cell::agrees).count(), held.scored().size(), 100 * held.agreement());
        System.out.println();
        Scores.print(reports(all, history), System.out);
        return 0;
    }

    /** The instant the issue's chain map was read at (a fresh install, 2026-07-01). */
    static final Instant ISSUE_INSTANT = Instant.parse("2026-07-01T00:00:00Z");

    /**
     * @param history the bundled history
     * @param newest the newest quarter of the backtest
     * @return the instants the number of critical layers is printed for: the newest
     * quarter's end, 2026-07-01 and the newest signal's instant (where a fresh install's
     * chain stands)
     */
    static Map<String, Instant> criticalInstants(History history, String newest) {
        Map<String, Instant> out = new LinkedHashMap<>();
        out.put("the end of " + newest, History.quarterEnd(newest));
        out.put("2026-07-01", ISSUE_INSTANT);
        history.signals()
            .stream()
            .map(ConstraintSignal::getObservedAt)
            .max(Instant::compareTo)
            .ifPresent(t -> out.put("the newest signal", t));
        return out;
    }

    /**
     * @param model the chain model
     * @param signals the signals
     * @param at an instant
     * @return the layers CRITICAL at that instant, in id order, each with its pressure
     * (own and inherited)
     */
    static List<String> critical(ChainModel model, List<ConstraintSignal> signals, Instant at) {
        return model.statesAt(signals, at.toEpochMilli())
            .values()
            .stream()
            .filter(s -> s.getStatus() == LayerStatus.CRITICAL)
            .map(s -> String.format(Locale.ROOT, "%s %.2f (own %.2f + inherited %.2f)", s.getId(), s.getPressure(),
                    s.getDirectPressure(), s.getSqueezeReceived()))
            .toList();
    }

    /**
     * The same model states against other labels.
     * @param r a result
     * @param labelled the labels
     * @return r's states with those labels
     */
    static Result run(Result r, List<History.Cell> labelled) {
        Map<String, History.Cell> labels = new HashMap<>();
        labelled.forEach(c -> labels.put(c.layer() + " " + c.quarter(), c));
        Map<String, Map<String, Cell>> cells = new LinkedHashMap<>();
        r.cells().forEach((l, byQuarter) -> {
            Map<String, Cell> row = new LinkedHashMap<>();
            byQuarter.forEach((q, c) -> row.put(q, new Cell(l, q, c.state(), labels.get(l + " " + q))));
            cells.put(l, row);
        });
        return new Result(r.quarters(), r.layers(), cells);
    }

    /**
     * Prints, per stage-1 variant and per set, the model's balanced accuracy, recalls and
     * agreement, and the share of scored cells it calls tight.
     * @param corpus the layers and companies
     * @param history the signals and sets
     * @param last the last quarter
     * @param out where to print
     */
    static void sweep(ChainReference corpus, History history, String last, PrintStream out) {
        out.println("stage-1 inheritance variants (docs/chain-model-prereg.md); per set: BA / recall loose,"
                + " balanced, tight / agreement");
        for (String v : STAGE_ONE) {
            Result r = run(corpus, history, last, List.of(), Inheritance.parse(v));
            out.println(v);
            for (Scores.Report rep : reports(r, history)) {
                Scores.Metrics m = rep.model();
                out.printf(Locale.ROOT, "  %-40s BA %.3f / %.2f %.2f %.2f / %d of %d%n", rep.name(),
                        m.balancedAccuracy(), nan(m.recall().get(History.Status.LOOSE)),
                        nan(m.recall().get(History.Status.BALANCED)), nan(m.recall().get(History.Status.TIGHT)),
                        m.agreed(), m.n());
            }
        }
    }

    /**
     * Prints, per stage-2 variant (docs/chain-model-prereg.md) and per set, the model's
     * scores; the baselines once per set; then the variant the pre-registered tuning rule
     * picks on the reference tuning cells alone, and whether it beats stage 1's choice
     * there.
     * @param corpus the layers and companies
     * @param history the signals and sets
     * @param last the last quarter
     * @param out where to print
     * @return the chosen status rule ({@code absolute} when stage 2 does not beat stage
     * 1)
     */
    static String sweepStatus(ChainReference corpus, History history, String last, PrintStream out) {
        Inheritance inh = Inheritance.parse(STAGE_ONE_CHOICE);
        out.println("stage-2 status variants on inheritance " + STAGE_ONE_CHOICE + " (docs/chain-model-prereg.md);"
                + " per set: BA / recall loose, balanced, tight / agreement / QWK");
        Result one = run(corpus, history, last, List.of(), inh);
        List<Scores.Report> stageOne = reports(one, history);
        out.println("baselines");
        for (Scores.Report rep : stageOne) {
            for (Scores.Baseline b : rep.baselines()) {
                line(out, rep.name() + ", " + b.name(), b.metrics());
            }
        }
        out.println("stage 1: " + STAGE_ONE_CHOICE + "/absolute");
        stageOne.forEach(rep -> line(out, rep.name(), rep.model()));
        List<Scores.Metrics> tuning = new ArrayList<>();
        for (String v : STAGE_TWO) {
            Result r = run(corpus, history, last, List.of(), inh, StatusRule.parse(v));
            out.println(v);
            for (Scores.Report rep : reports(r, history)) {
                line(out, rep.name(), rep.model());
                if (rep.name().equals(REFERENCE_TUNING)) {
                    tuning.add(rep.model());
                }
            }
        }
        int chosen = choose(tuning);
        Scores.Metrics best = tuning.get(chosen);
        Scores.Metrics first = stageOne.stream()
            .filter(rep -> rep.name().equals(REFERENCE_TUNING))
            .findFirst()
            .orElseThrow()
            .model();
        boolean beats = best.balancedAccuracy() > first.balancedAccuracy();
        out.printf(Locale.ROOT,
                "stage 2 picks %s (tuning BA %.3f, smallest recall %.2f); stage 1 %s has BA %.3f:" + " %s%n",
                STAGE_TWO.get(chosen), best.balancedAccuracy(), minRecall(best), STAGE_ONE_CHOICE,
                first.balancedAccuracy(), beats ? "stage 2's pick is the candidate" : "stage 1's choice stays");
        return beats ? STAGE_TWO.get(chosen) : "absolute";
    }

    /**
     * The pre-registered tuning rule: the highest balanced accuracy; within 0.01 of it,
     * the higher smallest per-class recall; then the first (simplest) variant.
     * @param tuning each variant's scores on the tuning cells, simplest first
     * @return the index of the chosen variant
     */
    static int choose(List<Scores.Metrics> tuning) {
        double top = tuning.stream().mapToDouble(Scores.Metrics::balancedAccuracy).max().orElseThrow();
        int chosen = -1;
        for (int i = 0; i < tuning.size(); i++) {
            Scores.Metrics m = tuning.get(i);
            if (m.balancedAccuracy() < top - 0.01 - 1e-9) {
                continue;
            }
            if (chosen < 0 || minRecall(m) > minRecall(tuning.get(chosen)) + 1e-9) {
                chosen = i;
            }
        }
        return chosen;
    }

    private static double minRecall(Scores.Metrics m) {
        return m.recall()
            .values()
            .stream()
            .filter(v -> v != null && !v.isNaN())
            .mapToDouble(Double::doubleValue)
            .min()
            .orElse(0);
    }

    private static void line(PrintStream out, String name, Scores.Metrics m) {
        if (m == null) {
            return;
        }
        out.printf(Locale.ROOT, "  %-52s BA %.3f / %.2f %.2f %.2f / %d of %d / %.2f%n", name, m.balancedAccuracy(),
                nan(m.recall().get(History.Status.LOOSE)), nan(m.recall().get(History.Status.BALANCED)),
                nan(m.recall().get(History.Status.TIGHT)), m.agreed(), m.n(), m.kappa());
    }

    private static double nan(Double v) {
        return v == null ? Double.NaN : v;
    }

    /** The reference's tuning quarters, as the scores name them. */
    static final String REFERENCE_TUNING = "reference, tuning (<= " + History.LAST_TUNING_QUARTER + ")";

    /** The held-out set and the third set as one, as the scores name them. */
    static final String HELD_OUT_TOGETHER = "held-out together (held-out + third)";

    /**
     * The scores of issue 37 per set (docs/chain-model-prereg.md): the whole reference,
     * its tuning quarters, its later quarters, the held-out set, the third set, and the
     * held-out and third sets together.
     * @param r the model's states at every quarter end (labels ignored)
     * @param history the labelled sets
     * @return a report per set, in that order
     */
    static List<Scores.Report> reports(Result r, History history) {
        Function<History.Cell, History.Status> model = c -> {
            Cell cell = r.cells().get(c.layer()).get(c.quarter());
            if (cell == null) {
                throw new IllegalArgumentException(
                        c.layer() + " " + c.quarter() + " is outside the backtest's quarters");
            }
            return bucket(cell.state().getStatus());
        };
        Map<String, History.Status> baseRate = Scores.baseRate(history.reference());
        List<Scores.Row> reference = Scores.rows(history.reference(), model);
        List<Scores.Row> held = Scores.rows(history.holdout(), model);
        List<Scores.Row> third = Scores.rows(history.third(), model);
        List<Scores.Row> together = new ArrayList<>(held);
        together.addAll(third);
        String tuning = History.LAST_TUNING_QUARTER;
        return List.of(Scores.report("reference, all", reference, baseRate),
                Scores.report(REFERENCE_TUNING,
                        reference.stream().filter(x -> x.quarter().compareTo(tuning) <= 0).toList(), baseRate),
                Scores.report("reference, scoring (> " + tuning + ")",
                        reference.stream().filter(x -> x.quarter().compareTo(tuning) > 0).toList(), baseRate),
                Scores.report("held-out", held, baseRate), Scores.report("third", third, baseRate),
                Scores.report(HELD_OUT_TOGETHER, together, baseRate));
    }

    /**
     * @return the quarter of the newest bundled signal, or the newest quarter labelled in
     * any set when that is later
     */
    static String lastQuarter(History history) {
        LocalDate newest = history.signals()
            .stream()
            .map(s -> s.getObservedAt().atZone(ZoneOffset.UTC).toLocalDate())
            .max(LocalDate::compareTo)
            .orElse(History.START);
        String last = quarterOf(newest);
        List<History.Cell> labelled = new ArrayList<>(history.reference());
        labelled.addAll(history.holdout());
        labelled.addAll(history.third());
        for (History.Cell c : labelled) {
            if (c.quarter().compareTo(last) > 0) {
                last = c.quarter();
            }
        }
        return last;
    }

    /**
     * Prints the backtest to standard output.
     * @param args {@code --no-disagreements} to leave out the list of disagreements
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new Backtest()).execute(args));
    }

}
