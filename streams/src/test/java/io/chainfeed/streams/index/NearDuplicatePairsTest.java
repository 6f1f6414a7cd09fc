package io.chainfeed.streams.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.Source;
import io.chainfeed.embeddings.SentenceEmbedder;
import io.chainfeed.streams.chain.SignalReads;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The near-duplicate threshold of docs/near-duplicates-prereg.md: chosen by its rule on
 * the tune half of {@code near-duplicates/pairs.tsv} and reported on the held-out half,
 * beside the two no-skill references, in {@code target/near-duplicates.txt}. Each side is
 * embedded as the streams service embeds a signal read: the read {@link SignalReads}
 * makes of it, through {@link ReadEmbedder.Text#WITH_SECTIONS}, with the bundled
 * quantised MiniLM.
 */
class NearDuplicatePairsTest {

    /**
     * What the rule chose on the tune half when it was first run (2026-12-07, held-out
     * figures in docs/search.md); a change to the pairs, the model or the text of a
     * signal read that moves it fails this test.
     */
    static final Double CHOSEN = 0.83;

    /** The window of the protocol: two signals observed within 7 days. */
    static final Duration WINDOW = NearDuplicates.WINDOW;

    record Side(String direction, int magnitude, LocalDate date, String headline, String body) {
    }

    record Pair(int n, boolean same, boolean tune, String other, Side anchor, Side against, double cosine) {

        boolean inWindow() {
            return Math.abs(anchor.date.toEpochDay() - against.date.toEpochDay()) <= WINDOW.toDays();
        }

        boolean hard() {
            return other.startsWith("hard:");
        }

    }

    private static List<Pair> pairs;

    @BeforeAll
    static void embedPairs() throws IOException {
        SignalReads reads = new SignalReads(List.of(), List.of(), List.of());
        List<String[]> rows = new ArrayList<>();
        try (InputStream in = NearDuplicatePairsTest.class.getResourceAsStream("/near-duplicates/pairs.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rows.add(line.split("\t", -1));
                }
            }
        }
        List<String> texts = new ArrayList<>();
        for (String[] r : rows) {
            texts.add(text(reads, side(r, 5)));
            texts.add(text(reads, side(r, 10)));
        }
        List<float[]> vectors = SentenceEmbedder.shared().embedAll(texts);
        pairs = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            pairs.add(new Pair(Integer.parseInt(r[0]), r[1].equals("same"), r[2].equals("tune"), r[4], side(r, 5),
                    side(r, 10), SentenceEmbedder.cosine(vectors.get(2 * i), vectors.get(2 * i + 1))));
        }
    }

    private static Side side(String[] r, int from) {
        return new Side(r[from], Integer.parseInt(r[from + 1]), LocalDate.parse(r[from + 2]), r[from + 3], r[from + 4]);
    }

    /** The text the embedder makes of the signal read of one side. */
    private static String text(SignalReads reads, Side s) {
        Instant observed = s.date.atStartOfDay(ZoneOffset.UTC).toInstant();
        ConstraintSignal signal = ConstraintSignal.newBuilder()
            .setId("pair")
            .setHeadline(s.headline)
            .setBody(s.body)
            .setDirection(Direction.valueOf(s.direction.toUpperCase(Locale.ROOT)))
            .setMagnitude(s.magnitude)
            .setObservedAt(observed)
            .setSource(new Source("pair", "https://example.org/pair"))
            .build();
        return ReadEmbedder.Text.WITH_SECTIONS.of(reads.read(signal));
    }

    /**
     * The protocol's rule: the smallest t on a 0.01 grid from 0.50 to 0.99 with no
     * {@code different} pair of the tune half at or above it; null if there is none.
     */
    static Double choose(List<Pair> all) {
        for (int step = 50; step <= 99; step++) {
            double t = step / 100.0;
            if (all.stream().noneMatch(p -> p.tune() && !p.same() && p.cosine() >= t)) {
                return t;
            }
        }
        return null;
    }

    @Test
    void theRuleChoosesTheRecordedThresholdAndTheHeldOutHalfIsReported() throws IOException {
        assertThat(pairs).hasSize(120);
        assertThat(pairs.stream().filter(p -> p.tune() && p.same())).hasSize(20);
        Double t = choose(pairs);
        List<String> out = new ArrayList<>();
        out.add("near-duplicate threshold (docs/near-duplicates-prereg.md), model " + SentenceEmbedder.MODEL);
        out.add("chosen on the tune half: " + (t == null ? "none (every grid value has a false merge)" : t));
        for (boolean tune : new boolean[] { true, false }) {
            String half = tune ? "tune" : "held-out";
            List<Pair> h = pairs.stream().filter(p -> p.tune() == tune).toList();
            out.add(String.format(Locale.ROOT, "%s: %s", half, figures(h, t)));
            out.add(String.format(Locale.ROOT, "%s, exact rule (Stories): recall 0/%d, false merges 0", half,
                    h.stream().filter(Pair::same).count()));
            out.add(String.format(Locale.ROOT, "%s, merge all in the 7-day window: recall %d/%d, false merges %d/%d",
                    half, h.stream().filter(p -> p.same() && p.inWindow()).count(),
                    h.stream().filter(Pair::same).count(), h.stream().filter(p -> !p.same() && p.inWindow()).count(),
                    h.stream().filter(p -> !p.same()).count()));
        }
        out.add("pairs (n, label, half, other, cosine):");
        for (Pair p : pairs) {
            out.add(String.format(Locale.ROOT, "%d\t%s\t%s\t%s\t%.3f", p.n(), p.same() ? "same" : "different",
                    p.tune() ? "tune" : "held-out", p.other(), p.cosine()));
        }
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "near-duplicates.txt"), out);
        out.stream().limit(8).forEach(System.out::println);
        assertThat(t).as("the rule's choice, recorded in CHOSEN").isEqualTo(CHOSEN);
        assertThat(NearDuplicates.COSINE).as("what the embedder uses").isEqualTo(CHOSEN);
    }

    private static String figures(List<Pair> h, Double t) {
        if (t == null) {
            return "no threshold";
        }
        long same = h.stream().filter(Pair::same).count();
        long merged = h.stream().filter(p -> p.same() && p.cosine() >= t).count();
        long hard = h.stream().filter(p -> !p.same() && p.hard()).count();
        long hardMerged = h.stream().filter(p -> !p.same() && p.hard() && p.cosine() >= t).count();
        long easy = h.stream().filter(p -> !p.same() && !p.hard()).count();
        long easyMerged = h.stream().filter(p -> !p.same() && !p.hard() && p.cosine() >= t).count();
        return String.format(Locale.ROOT, "at %.2f recall %d/%d (%.0f%%), false merges hard %d/%d, easy %d/%d", t,
                merged, same, 100.0 * merged / same, hardMerged, hard, easyMerged, easy);
    }

}
