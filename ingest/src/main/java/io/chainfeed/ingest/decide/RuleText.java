package io.chainfeed.ingest.decide;

import io.chainfeed.ingest.decide.SignalDecider.Cue;
import io.chainfeed.ingest.decide.SignalDecider.Kind;
import io.chainfeed.ingest.decide.SignalDecider.LayerWord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The rules' reading of an item's text: each field's words, the cues and layer phrases
 * matched in it, and the direction votes (cues with their negations and reversals
 * applied), which every step of {@link SignalDecider} decides from. Immutable and
 * thread-safe.
 */
final class RuleText {

    private final PhraseLexicon<Cue> cues;

    private final PhraseLexicon<Cue> modifiers;

    private final PhraseLexicon<LayerWord> layerWords;

    /** Words between a negation and the cue it reverses, at most. */
    private final int negationWindow;

    /** Words between a condition and a reversal after it, at most. */
    private final int reversalWindow;

    /** A headline vote's weight is its cue's magnitude times this. */
    private final double headlineFactor;

    /** The weight of a vote after "until", "before", "unless" or "once", as a factor. */
    private final double clauseFactor;

    /** A negated or reversed cue's magnitude is this much less. */
    private final int reversedDrop;

    /** The lowest magnitude. */
    private final int minMagnitude;

    /**
     * @param cues direction, reversal, clause and off-topic cues
     * @param modifiers negations, hedges, intensifiers and diminishers, matched on their
     * own so that they count inside a gap ("prices may rise")
     * @param layerWords phrases naming a layer
     * @param weights where the windows and vote weights are read (the {@code vote.} keys
     * and {@code magnitude.min})
     * @throws IllegalStateException when a weight is missing or malformed
     */
    RuleText(PhraseLexicon<Cue> cues, PhraseLexicon<Cue> modifiers, PhraseLexicon<LayerWord> layerWords,
            DeciderWeights weights) {
        this.cues = cues;
        this.modifiers = modifiers;
        this.layerWords = layerWords;
        this.negationWindow = weights.whole("vote.negation.window");
        this.reversalWindow = weights.whole("vote.reversal.window");
        this.headlineFactor = weights.number("vote.headline.factor");
        this.clauseFactor = 1.0 / weights.number("vote.clause.divisor");
        this.reversedDrop = weights.whole("vote.reversed.drop");
        this.minMagnitude = weights.whole("magnitude.min");
    }

    /** A matched cue in a field. */
    record Hit(Cue cue, String field, String text, List<TextAnalysis.Token> tokens, int first, int last) {
        int sentence() {
            return tokens.get(first).sentence();
        }

        int start() {
            return tokens.get(first).start();
        }

        int end() {
            return tokens.get(last).end();
        }

        Decision.Span span(String rule) {
            return new Decision.Span(field, start(), end() - start(), text.substring(start(), end()), rule);
        }

        boolean directional() {
            return cue.kind() == Kind.T || cue.kind() == Kind.E || cue.kind() == Kind.FLIP;
        }

        boolean inHeadline() {
            return field.equals("headline");
        }
    }

    /** A direction-bearing reading of one cue (with its negation or reversal). */
    record Vote(Hit hit, int sign, int magnitude, double weight, List<Decision.Span> spans) {
    }

    /** One field's words and matches. */
    record Field(String name, String text, List<TextAnalysis.Token> tokens, List<Hit> hits,
            List<PhraseLexicon.Match<LayerWord>> layers, int[] sentenceEnds) {
    }

    /**
     * One reading of an item: both fields' words and matches, and the direction votes.
     */
    record Parsed(Field h, Field b, List<Vote> votes) {
        /**
         * @param hit a hit of this reading
         * @return its field
         */
        Field fieldOf(Hit hit) {
            return hit.inHeadline() ? h : b;
        }
    }

    /**
     * @param headline the item's headline, may be null
     * @param body its body, may be null
     * @return both fields read and the votes, headline first
     */
    Parsed parse(String headline, String body) {
        Field h = field("headline", headline == null ? "" : headline);
        Field b = field("body", body == null ? "" : body);
        List<Vote> votes = new ArrayList<>();
        votes(h, votes);
        votes(b, votes);
        return new Parsed(h, b, votes);
    }

    private Field field(String name, String text) {
        List<TextAnalysis.Token> tokens = TextAnalysis.tokens(text);
        List<Hit> hits = new ArrayList<>();
        List<PhraseLexicon.Match<Cue>> main = cues.find(text, tokens);
        for (PhraseLexicon.Match<Cue> m : main) {
            hits.add(new Hit(m.value(), name, text, tokens, m.first(), m.last()));
        }
        for (PhraseLexicon.Match<Cue> m : modifiers.find(text, tokens)) {
            boolean inWords = main.stream()
                .anyMatch(c -> m.first() <= c.last() && m.last() >= c.first()
                        && !(c.value().gap() && !c.value().words().contains(tokens.get(m.first()).stem())
                                && m.first() > c.first() && m.last() < c.last()));
            if (!inWords) {
                hits.add(new Hit(m.value(), name, text, tokens, m.first(), m.last()));
            }
        }
        hits.sort(Comparator.comparingInt(Hit::first));
        return new Field(name, text, tokens, hits, layerWords.find(text, tokens),
                text.isEmpty() ? new int[] { 0 } : TextAnalysis.sentenceEnds(text));
    }

    /**
     * Turns a field's direction cues into votes: negations and reversals applied,
     * reversals consumed.
     */
    private void votes(Field f, List<Vote> out) {
        boolean[] attached = new boolean[f.hits.size()];
        for (int i = 0; i < f.hits.size(); i++) {
            Hit x = f.hits.get(i);
            if (x.cue.kind() != Kind.T && x.cue.kind() != Kind.E) {
                continue;
            }
            int sign = x.cue.kind() == Kind.T ? 1 : -1;
            List<Decision.Span> spans = new ArrayList<>();
            spans.add(x.span(x.cue.kind() == Kind.T ? "tightening cue" : "easing cue"));
            boolean reversed = false;
            Hit neg = negation(f.hits, i);
            if (neg != null) {
                sign = -sign;
                reversed = true;
                spans.add(neg.span("negation"));
            }
            if (x.cue.condition()) {
                int flip = flipFor(f.hits, i, attached);
                if (flip >= 0) {
                    attached[flip] = true;
                    Hit fh = f.hits.get(flip);
                    Hit flipNeg = negation(f.hits, flip);
                    if (flipNeg == null || flipNeg == neg) {
                        sign = -sign;
                        reversed = true;
                        spans.add(fh.span("reversal"));
                    }
                    else {
                        spans.add(fh.span("reversal, negated"));
                        spans.add(flipNeg.span("negation"));
                    }
                }
            }
            out.add(vote(f.hits, i, sign, reversed, spans));
        }
        for (int i = 0; i < f.hits.size(); i++) {
            Hit x = f.hits.get(i);
            if (x.cue.kind() != Kind.FLIP || attached[i]) {
                continue;
            }
            int sign = -1;
            List<Decision.Span> spans = new ArrayList<>();
            spans.add(x.span("easing cue"));
            Hit neg = negation(f.hits, i);
            boolean reversed = false;
            if (neg != null) {
                sign = 1;
                reversed = true;
                spans.add(neg.span("negation"));
            }
            out.add(vote(f.hits, i, sign, reversed, spans));
        }
    }

    /**
     * The vote of hit i: its magnitude (less when reversed) and its weight, the cue's
     * magnitude times the headline factor in the headline and times the clause factor
     * after "until", "before", "unless" or "once" in its sentence.
     */
    private Vote vote(List<Hit> hits, int i, int sign, boolean reversed, List<Decision.Span> spans) {
        Hit x = hits.get(i);
        int magnitude = reversed ? Math.max(minMagnitude, x.cue.magnitude() - reversedDrop) : x.cue.magnitude();
        double weight = x.cue.magnitude();
        if (x.inHeadline()) {
            weight *= headlineFactor;
        }
        if (afterClause(hits, i)) {
            weight *= clauseFactor;
        }
        return new Vote(x, sign, magnitude, weight, spans);
    }

    /** Whether a clause cue comes before hit i in its sentence. */
    private static boolean afterClause(List<Hit> hits, int i) {
        Hit x = hits.get(i);
        for (int j = i - 1; j >= 0 && hits.get(j).sentence() == x.sentence(); j--) {
            if (hits.get(j).cue.kind() == Kind.CLAUSE) {
                return true;
            }
        }
        return false;
    }

    /**
     * The nearest negation before hit i: same sentence, within the window, no other
     * direction cue between.
     */
    private Hit negation(List<Hit> hits, int i) {
        Hit x = hits.get(i);
        for (int j = i - 1; j >= 0; j--) {
            Hit y = hits.get(j);
            if (y.sentence() != x.sentence() || x.first - y.last > negationWindow) {
                return null;
            }
            if (y.directional()) {
                return null;
            }
            if (y.cue.kind() == Kind.NEG) {
                return y;
            }
        }
        return null;
    }

    /**
     * The reversal of condition i: after it (nearest first), else before it; same
     * sentence, within the window.
     */
    private int flipFor(List<Hit> hits, int i, boolean[] attached) {
        int after = nearestFlip(hits, i, attached, 1, reversalWindow);
        return after >= 0 ? after : nearestFlip(hits, i, attached, -1, negationWindow);
    }

    /**
     * The nearest unattached reversal of condition i on one side of it ({@code step} 1:
     * after, -1: before) in the same sentence, at most {@code window} characters away and
     * with no other condition in between; -1 if none.
     */
    private static int nearestFlip(List<Hit> hits, int i, boolean[] attached, int step, int window) {
        Hit x = hits.get(i);
        for (int j = i + step; j >= 0 && j < hits.size(); j += step) {
            Hit y = hits.get(j);
            int gap = step > 0 ? y.first - x.last : x.first - y.last;
            if (y.sentence() != x.sentence() || gap > window) {
                return -1;
            }
            if (y.cue.kind() == Kind.FLIP && !attached[j]) {
                return j;
            }
            if (y.cue.kind() == Kind.T || y.cue.kind() == Kind.E) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * @param f a field
     * @param lead a hit in it
     * @param kind a modifier's kind
     * @return the first modifier of the kind in the hit's sentence, null if none
     */
    static Hit modifier(Field f, Hit lead, Kind kind) {
        for (Hit y : f.hits) {
            if (y.cue.kind() == kind && y.sentence() == lead.sentence()) {
                return y;
            }
        }
        return null;
    }

}
