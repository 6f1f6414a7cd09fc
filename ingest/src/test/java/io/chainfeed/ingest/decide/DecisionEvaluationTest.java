package io.chainfeed.ingest.decide;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.corpus.Corpus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the labelled sets through the rules ({@link SignalDecider}) and the shipped
 * decider (the learned reader with the rules, {@link NewsDecider}). The rules keep their
 * floors of round 2 (relevance precision and recall 0.9, direction accuracy 0.92,
 * primary-layer accuracy 0.88) on their tuning set {@code eval.tsv} and on
 * {@code heldout.tsv}; the shipped decider's figures on every held-out round
 * ({@link ReaderTraining#HELD_OUT}) are printed beside the rules'. Prints the figures per
 * class (docs/decisions.md quotes them) and every miss.
 */
class DecisionEvaluationTest {

    static final Instant OBSERVED = Instant.parse("2026-06-15T00:00:00Z");

    private static SignalDecider rules;

    private static NewsDecider shipped;

    @BeforeAll
    static void load() {
        rules = SignalDecider.of(Corpus.loadBundled());
        shipped = new NewsDecider(rules, NewsReader.bundled());
    }

    /** One labelled item. */
    record Item(int line, boolean relevant, Direction direction, String layer, Instant until, List<String> tags,
            String headline, String body) {
    }

    /** Figures of one set. */
    record Figures(double relevancePrecision, double relevanceRecall, double direction, double primaryLayer,
            double horizon, double horizonStated, Map<String, String> perClass, List<String> misses) {
    }

    @Test
    void rulesMeetTheirFloorsOnTheirTuningSet() throws IOException {
        Figures f = evaluate("eval.tsv", rules);
        assertFloors(f);
    }

    @Test
    void rulesMeetTheirFloorsOnHeldOutRoundTwo() throws IOException {
        Figures f = evaluate("heldout.tsv", rules);
        assertFloors(f);
    }

    /**
     * Issue 38's floors (relevance precision and recall 0.93, direction 0.95, primary
     * layer 0.90) on held-out round 2, which they hold; on rounds 3 to 5, written to
     * defeat keyword rules, they are missed (docs/decisions.md has the figures), so there
     * the shipped decider must not fall below the rules on any figure.
     */
    @Test
    void shippedDeciderOnEveryHeldOutRound() throws IOException {
        for (String round : ReaderTraining.HELD_OUT) {
            System.out.println("== " + round + ", rules alone");
            Figures byRules = evaluate(round, rules);
            System.out.println("== " + round + ", shipped (" + shipped.readerVersion() + ")");
            Figures f = evaluate(round, shipped);
            if (round.equals("heldout.tsv")) {
                assertThat(f.relevancePrecision()).as(round + " relevance precision").isGreaterThanOrEqualTo(0.93);
                assertThat(f.relevanceRecall()).as(round + " relevance recall").isGreaterThanOrEqualTo(0.93);
                assertThat(f.direction()).as(round + " direction").isGreaterThanOrEqualTo(0.95);
                assertThat(f.primaryLayer()).as(round + " primary layer").isGreaterThanOrEqualTo(0.90);
            }
            assertThat(f.relevancePrecision()).as(round + " precision against the rules")
                .isGreaterThanOrEqualTo(byRules.relevancePrecision());
            assertThat(f.relevanceRecall()).as(round + " recall against the rules")
                .isGreaterThanOrEqualTo(byRules.relevanceRecall());
            assertThat(f.direction()).as(round + " direction against the rules")
                .isGreaterThanOrEqualTo(byRules.direction());
            assertThat(f.primaryLayer()).as(round + " primary layer against the rules")
                .isGreaterThanOrEqualTo(byRules.primaryLayer());
        }
    }

    private static void assertFloors(Figures f) {
        assertThat(f.relevancePrecision()).as("relevance precision").isGreaterThanOrEqualTo(0.9);
        assertThat(f.relevanceRecall()).as("relevance recall").isGreaterThanOrEqualTo(0.9);
        assertThat(f.direction()).as("direction accuracy").isGreaterThanOrEqualTo(0.92);
        assertThat(f.primaryLayer()).as("primary-layer accuracy").isGreaterThanOrEqualTo(0.88);
    }

    static List<Item> read(String resource) throws IOException {
        List<Item> items = new ArrayList<>();
        try (InputStream in = DecisionEvaluationTest.class.getResourceAsStream("/decide/" + resource)) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i];
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] c = line.split("\t", -1);
                items.add(new Item(i + 1, c[0].equals("1"),
                        c[1].equals("T") ? Direction.TIGHTENING : c[1].equals("E") ? Direction.EASING : null,
                        c[2].equals("-") ? null : c[2], until(c[3]), List.of(c[4].split(",")), c[5],
                        c.length > 6 ? c[6] : ""));
            }
        }
        return items;
    }

    private static Instant until(String label) {
        if (label.equals("-")) {
            return null;
        }
        LocalDate seen = OBSERVED.atZone(ZoneOffset.UTC).toLocalDate();
        if (label.startsWith("+")) {
            int n = Integer.parseInt(label.substring(1, label.length() - 1));
            char unit = label.charAt(label.length() - 1);
            LocalDate d = unit == 'w' ? seen.plusWeeks(n) : unit == 'm' ? seen.plusMonths(n) : seen.plusYears(n);
            return d.atStartOfDay(ZoneOffset.UTC).toInstant();
        }
        return LocalDate.parse(label).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    static Figures evaluate(String resource, TextDecider decider) throws IOException {
        List<Item> items = read(resource);
        int tp = 0;
        int fp = 0;
        int fn = 0;
        int relevant = 0;
        int directionOk = 0;
        int layerOk = 0;
        int horizonOk = 0;
        int stated = 0;
        int statedOk = 0;
        Map<String, int[]> perClass = new TreeMap<>();
        List<String> misses = new ArrayList<>();
        for (Item it : items) {
            Decision d = decider.decide(it.headline(), it.body(), OBSERVED);
            boolean ok;
            if (it.relevant()) {
                relevant++;
                if (d.relevant()) {
                    tp++;
                }
                else {
                    fn++;
                }
                boolean dir = d.relevant() && d.direction() == it.direction();
                boolean layer = d.relevant() && !d.layers().isEmpty() && d.layers().get(0).id().equals(it.layer());
                boolean horizon = d.relevant() && java.util.Objects.equals(d.until(), it.until());
                directionOk += dir ? 1 : 0;
                layerOk += layer ? 1 : 0;
                horizonOk += horizon ? 1 : 0;
                if (it.until() != null) {
                    stated++;
                    statedOk += horizon ? 1 : 0;
                }
                ok = dir && layer && horizon;
                count(perClass, "layer " + it.layer(), dir && layer);
            }
            else {
                if (d.relevant()) {
                    fp++;
                }
                ok = !d.relevant();
            }
            for (String tag : it.tags()) {
                count(perClass, tag, ok);
            }
            if (!ok) {
                misses.add(String.format(Locale.ROOT, "line %d: want %s %s %s %s; got %s", it.line(),
                        it.relevant() ? "relevant" : "skip", it.direction(), it.layer(), it.until(), describe(d))
                        + " | " + it.headline());
            }
        }
        Map<String, String> classes = new LinkedHashMap<>();
        perClass.forEach((k, v) -> classes.put(k, v[0] + "/" + v[1]));
        Figures f = new Figures(ratio(tp, tp + fp), ratio(tp, tp + fn), ratio(directionOk, relevant),
                ratio(layerOk, relevant), ratio(horizonOk, relevant), ratio(statedOk, stated), classes, misses);
        System.out.printf(Locale.ROOT,
                "%s: %d items (%d relevant); relevance P %.3f R %.3f; direction %.3f; "
                        + "primary layer %.3f; horizon %.3f (stated horizons %d/%d = %.3f)%n",
                resource, items.size(), relevant, f.relevancePrecision(), f.relevanceRecall(), f.direction(),
                f.primaryLayer(), f.horizon(), statedOk, stated, f.horizonStated());
        System.out.println("per class (all decided values right / items): " + classes);
        misses.forEach(m -> System.out.println("  miss " + m));
        return f;
    }

    private static String describe(Decision d) {
        if (!d.relevant()) {
            return "skip (" + d.skipReason() + ")";
        }
        return d.direction() + " " + d.primaryLayers() + " m" + d.magnitude() + " until " + d.until() + " conf "
                + d.confidence() + " " + d.directionEvidence().stream().map(s -> s.rule() + ":" + s.text()).toList()
                + " layers " + d.layers().stream().map(l -> l.id() + "=" + l.score()).toList();
    }

    private static void count(Map<String, int[]> m, String key, boolean ok) {
        int[] c = m.computeIfAbsent(key, k -> new int[2]);
        c[0] += ok ? 1 : 0;
        c[1]++;
    }

    private static double ratio(int a, int b) {
        return b == 0 ? 1.0 : (double) a / b;
    }

}
