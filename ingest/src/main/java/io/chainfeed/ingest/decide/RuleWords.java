package io.chainfeed.ingest.decide;

import io.chainfeed.ingest.decide.SignalDecider.Cue;
import io.chainfeed.ingest.decide.SignalDecider.Kind;
import io.chainfeed.ingest.decide.SignalDecider.LayerWord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;

/**
 * The rules' word lists, read from this package's resources into the lexicons of
 * {@link SignalDecider}: tab-separated rows, {@code #} comments and blank lines skipped.
 */
final class RuleWords {

    private RuleWords() {
    }

    /**
     * Reads {@code cues.tsv}: direction, negation, reversal, hedge, intensity and
     * off-topic cues (columns kind, magnitude, phrase, flags).
     * @param cues receives the direction, reversal, clause and off-topic cues
     * @param modifiers receives negations, hedges, intensifiers and diminishers
     * @param skipReasons receives each off-topic cue's reason
     * @throws IllegalStateException when the file is missing
     */
    static void readCues(PhraseLexicon<Cue> cues, PhraseLexicon<Cue> modifiers, SortedSet<String> skipReasons) {
        for (String[] row : rows("cues.tsv")) {
            Kind kind = Kind.valueOf(row[0]);
            int magnitude = Integer.parseInt(row[1]);
            String flags = row.length > 3 ? row[3] : "";
            boolean modifier = kind == Kind.NEG || kind == Kind.HEDGE || kind == Kind.UP || kind == Kind.DOWN;
            Cue cue = new Cue(kind, magnitude, kind != Kind.SKIP && flags.contains("n"),
                    kind == Kind.SKIP ? flags : null, row[2], row[2].contains("~"),
                    Set.copyOf(TextAnalysis.stems(row[2].replace("~", " ").replace("=", ""))));
            (modifier ? modifiers : cues).add(row[2], cue, false);
            if (kind == Kind.SKIP) {
                skipReasons.add(flags);
            }
        }
    }

    /**
     * Reads {@code layer-words.tsv}: product words per layer (columns layer, weight,
     * phrase).
     * @param layerWords receives them
     * @throws IllegalStateException when the file is missing
     */
    static void readLayerWords(PhraseLexicon<LayerWord> layerWords) {
        for (String[] row : rows("layer-words.tsv")) {
            layerWords.add(row[2], new LayerWord(row[0], Double.parseDouble(row[1]), "layer word"), false);
        }
    }

    private static List<String[]> rows(String resource) {
        List<String[]> out = new ArrayList<>();
        try (InputStream in = RuleWords.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                out.add(line.split("\t", -1));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

}
