package io.chainfeed.streams.tagging;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.TermTag;
import io.chainfeed.avro.TermUpdate;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Measures the tagger against a labelled evaluation set ({@code tagging/eval.tsv}) over
 * the full bundled reference data (plus {@code tagging/eval-extra-companies.yaml}, real
 * companies whose tickers are the common-word traps: A, F, T, ON, IT, ALL, COST, LOW,
 * KEY), prints precision, recall and F1 per entity type and per trap category, and fails
 * when companies fall below precision 0.97 or recall 0.95.
 *
 * <p>
 * Format of {@code eval.tsv}:
 * {@code category<TAB>sentence<TAB>companies<TAB>terms<TAB>layers}; lists are
 * comma-separated ids, {@code -} for none; a layers column of {@code *} means the row is
 * not scored for layers. Lines starting with {@code #} are comments. Every tag the tagger
 * emits counts, whatever its confidence.
 */
class TaggerEvaluationTest {

    static final double MIN_COMPANY_PRECISION = 0.97;
    static final double MIN_COMPANY_RECALL = 0.95;

    /** The traps the issue names; each must have rows in the set. */
    static final Set<String> REQUIRED_CATEGORIES = Set.of("ticker-word", "cashtag", "exchange", "parenthesised",
            "possessive", "plural", "suffix", "bare-number", "ampersand", "dots", "non-latin", "dedupe", "case",
            "ordinary-word", "negative", "boundary", "term", "layer", "mixed");

    record Row(int line, String category, String sentence, Set<String> companies, Set<String> terms,
            Set<String> layers) {
    }

    /** True/false positives and false negatives of one entity type. */
    static final class Score {

        int tp;

        int fp;

        int fn;

        void add(Set<String> expected, Set<String> actual) {
            for (String a : actual) {
                if (expected.contains(a)) {
                    tp++;
                }
                else {
                    fp++;
                }
            }
            for (String e : expected) {
                if (!actual.contains(e)) {
                    fn++;
                }
            }
        }

        double precision() {
            return tp + fp == 0 ? 1.0 : (double) tp / (tp + fp);
        }

        double recall() {
            return tp + fn == 0 ? 1.0 : (double) tp / (tp + fn);
        }

        double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }

    }

    private static Tagger tagger;

    private static List<Row> rows;

    @BeforeAll
    static void setUp() throws IOException {
        ReferenceData data = ReferenceData.bundled().withCompaniesFrom("/tagging/eval-extra-companies.yaml");
        tagger = Tagger.build(data.layers, data.companies, data.terms);
        rows = load();
    }

    static List<Row> load() throws IOException {
        List<Row> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                TaggerEvaluationTest.class.getResourceAsStream("/tagging/eval.tsv"), StandardCharsets.UTF_8))) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length != 5) {
                    throw new IllegalArgumentException("eval.tsv line " + n + ": expected 5 columns, got " + f.length);
                }
                out.add(new Row(n, f[0].strip(), f[1], ids(f[2]), ids(f[3]),
                        f[4].strip().equals("*") ? null : ids(f[4])));
            }
        }
        return out;
    }

    private static Set<String> ids(String column) {
        String c = column.strip();
        if (c.equals("-") || c.isEmpty()) {
            return Set.of();
        }
        return Arrays.stream(c.split(",")).map(String::strip).collect(Collectors.toCollection(TreeSet::new));
    }

    static Read tag(Tagger tagger, String sentence, int line) {
        return tagger.tag(TermUpdate.newBuilder()
            .setSlug("eval-" + line)
            .setTitle("")
            .setDefinition("")
            .setSections(List.of(new Section("body", "Body", sentence)))
            .setDisclaimer("")
            .setVersion(0)
            .setUpdatedAt(Instant.EPOCH)
            .build());
    }

    @Test
    void setIsLargeAndCoversEveryTrap() {
        assertThat(rows).hasSizeGreaterThanOrEqualTo(300);
        Map<String, Long> perCategory = rows.stream()
            .collect(Collectors.groupingBy(Row::category, Collectors.counting()));
        assertThat(perCategory.keySet()).containsAll(REQUIRED_CATEGORIES);
        assertThat(perCategory).allSatisfy((k, v) -> assertThat(v).as(k).isGreaterThanOrEqualTo(5));
        assertThat(rows.stream().map(Row::sentence).toList()).as("sentences").doesNotHaveDuplicates();
    }

    @Test
    void companyPrecisionAndRecallAreHighEnough() {
        Score companies = new Score();
        Score terms = new Score();
        Score layers = new Score();
        Map<String, Score> byCategory = new TreeMap<>();
        List<String> misses = new ArrayList<>();
        for (Row row : rows) {
            Read read = tag(tagger, row.sentence(), row.line());
            Set<String> c = read.getCompanies()
                .stream()
                .map(CompanyTag::getId)
                .collect(Collectors.toCollection(TreeSet::new));
            Set<String> t = read.getTerms()
                .stream()
                .map(TermTag::getSlug)
                .collect(Collectors.toCollection(TreeSet::new));
            Set<String> l = read.getLayers()
                .stream()
                .map(LayerTag::getId)
                .collect(Collectors.toCollection(TreeSet::new));
            companies.add(row.companies(), c);
            byCategory.computeIfAbsent(row.category(), k -> new Score()).add(row.companies(), c);
            terms.add(row.terms(), t);
            if (row.layers() != null) {
                layers.add(row.layers(), l);
            }
            diff("company", row, row.companies(), c, misses);
            diff("term", row, row.terms(), t, misses);
            if (row.layers() != null) {
                diff("layer", row, row.layers(), l, misses);
            }
        }
        Map<String, Score> table = new LinkedHashMap<>();
        table.put("company", companies);
        table.put("term", terms);
        table.put("layer", layers);
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nTagger evaluation: %d sentences (tagging/eval.tsv)%n", rows.size()));
        out.append(String.format("%-10s %6s %5s %5s %9s %7s %6s%n", "entity", "tp", "fp", "fn", "precision", "recall",
                "F1"));
        table.forEach((k, s) -> out.append(String.format("%-10s %6d %5d %5d %9.3f %7.3f %6.3f%n", k, s.tp, s.fp, s.fn,
                s.precision(), s.recall(), s.f1())));
        out.append(String.format("%ncompanies per trap category%n"));
        byCategory.forEach((k, s) -> out
            .append(String.format("%-14s %4d %3d %3d %9.3f %7.3f%n", k, s.tp, s.fp, s.fn, s.precision(), s.recall())));
        out.append(String.format("%ndisagreements (%d)%n", misses.size()));
        misses.forEach(m -> out.append(m).append(System.lineSeparator()));
        System.out.println(out);

        assertThat(companies.precision()).as("company precision").isGreaterThanOrEqualTo(MIN_COMPANY_PRECISION);
        assertThat(companies.recall()).as("company recall").isGreaterThanOrEqualTo(MIN_COMPANY_RECALL);
    }

    private static void diff(String kind, Row row, Set<String> expected, Set<String> actual, List<String> out) {
        Set<String> fp = new TreeSet<>(actual);
        fp.removeAll(expected);
        Set<String> fn = new TreeSet<>(expected);
        fn.removeAll(actual);
        if (!fp.isEmpty() || !fn.isEmpty()) {
            out.add(String.format("  line %d %s: +%s -%s  | %s", row.line(), kind, fp, fn, row.sentence()));
        }
    }

}
