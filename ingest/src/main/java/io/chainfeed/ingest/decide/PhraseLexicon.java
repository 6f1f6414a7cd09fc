package io.chainfeed.ingest.decide;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Phrases of stems matched over a field's words, longest match first and without overlap.
 * A phrase word {@code ~} lets up to three words of the same sentence stand between its
 * neighbours; a word written {@code =word} must appear exactly so (lower-cased), not just
 * with the same stem; a word given with capitals after its first letter ({@code HBM},
 * {@code CoWoS}) must appear with them.
 *
 * @param <V> what a phrase stands for
 */
final class PhraseLexicon<V> {

    private static final int MAX_GAP = 3;

    private final Map<String, List<Phrase<V>>> byFirst = new HashMap<>();

    /**
     * One phrase: its words (stems, or exact forms), the case each must have, and its
     * value.
     */
    private record Phrase<V>(String[] words, boolean[] exact, String[] cased, boolean capital, V value, int length) {
    }

    /**
     * One match of a phrase in a field.
     *
     * @param value what the phrase stands for
     * @param first index of the first matched word
     * @param last index of the last matched word
     */
    record Match<V>(V value, int first, int last) {
    }

    /**
     * @param phrase the phrase as written (see the class comment)
     * @param value its value
     * @param capital whether each word written with a capital initial must appear with
     * one (company names)
     */
    void add(String phrase, V value, boolean capital) {
        List<String> words = new ArrayList<>();
        List<Boolean> exact = new ArrayList<>();
        List<String> cased = new ArrayList<>();
        for (String w : phrase.strip().split("\\s+")) {
            if (w.equals("~")) {
                words.add("~");
                exact.add(false);
                cased.add(null);
            }
            else if (w.startsWith("=")) {
                words.add(w.substring(1).toLowerCase(Locale.ROOT));
                exact.add(true);
                cased.add(null);
            }
            else {
                for (TextAnalysis.Token t : TextAnalysis.tokens(w)) {
                    String surface = w.substring(t.start(), t.end());
                    words.add(t.stem());
                    exact.add(false);
                    boolean mixed = surface.length() > 1
                            && !surface.substring(1).equals(surface.substring(1).toLowerCase(Locale.ROOT));
                    cased.add(mixed ? surface : capital && Character.isUpperCase(surface.charAt(0)) ? "^" : null);
                }
            }
        }
        if (words.isEmpty() || words.get(0).equals("~")) {
            return;
        }
        boolean[] ex = new boolean[exact.size()];
        for (int i = 0; i < ex.length; i++) {
            ex[i] = exact.get(i);
        }
        int length = (int) words.stream().filter(w -> !w.equals("~")).count();
        Phrase<V> p = new Phrase<>(words.toArray(String[]::new), ex, cased.toArray(String[]::new), capital, value,
                length);
        String key = (ex[0] ? "=" : "") + words.get(0);
        List<Phrase<V>> list = byFirst.computeIfAbsent(key, k -> new ArrayList<>());
        list.add(p);
        list.sort((a, b) -> Integer.compare(b.length, a.length));
    }

    /**
     * @param text the field the words come from (for the case checks)
     * @param tokens the field's words
     * @return the matches, left to right, none overlapping
     */
    List<Match<V>> find(String text, List<TextAnalysis.Token> tokens) {
        List<Match<V>> out = new ArrayList<>();
        int i = 0;
        while (i < tokens.size()) {
            TextAnalysis.Token t = tokens.get(i);
            Match<V> best = null;
            for (String key : new String[] { "=" + t.lower(), t.stem() }) {
                List<Phrase<V>> candidates = byFirst.get(key);
                if (candidates == null) {
                    continue;
                }
                for (Phrase<V> p : candidates) {
                    int last = match(p, text, tokens, i);
                    if (last >= 0 && (best == null || last > best.last())) {
                        best = new Match<>(p.value(), i, last);
                    }
                }
            }
            if (best != null) {
                out.add(best);
                i = best.last() + 1;
            }
            else {
                i++;
            }
        }
        return out;
    }

    private static <V> int match(Phrase<V> p, String text, List<TextAnalysis.Token> tokens, int start) {
        return matchFrom(p, 0, text, tokens, start, tokens.get(start).sentence());
    }

    private static <V> int matchFrom(Phrase<V> p, int w, String text, List<TextAnalysis.Token> tokens, int at,
            int sentence) {
        if (w == p.words().length) {
            return at - 1;
        }
        if (p.words()[w].equals("~")) {
            for (int gap = 0; gap <= MAX_GAP; gap++) {
                int r = matchFrom(p, w + 1, text, tokens, at + gap, sentence);
                if (r >= 0) {
                    return r;
                }
            }
            return -1;
        }
        if (at >= tokens.size()) {
            return -1;
        }
        TextAnalysis.Token t = tokens.get(at);
        if (t.sentence() != sentence || !wordMatches(p, w, text, t)) {
            return -1;
        }
        return matchFrom(p, w + 1, text, tokens, at + 1, sentence);
    }

    private static <V> boolean wordMatches(Phrase<V> p, int w, String text, TextAnalysis.Token t) {
        if (p.exact()[w] ? !t.lower().equals(p.words()[w]) : !t.stem().equals(p.words()[w])) {
            return false;
        }
        String cased = p.cased()[w];
        if (cased == null) {
            return true;
        }
        String surface = text.substring(t.start(), t.end());
        if (cased.equals("^")) {
            return Character.isUpperCase(surface.charAt(0));
        }
        return surface.startsWith(cased)
                && (surface.length() == cased.length() || surface.substring(cased.length()).matches("s|'s|\u2019s|es"));
    }

}
