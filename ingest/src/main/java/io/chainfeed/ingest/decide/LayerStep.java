package io.chainfeed.ingest.decide;

import io.chainfeed.ingest.decide.RuleText.Field;
import io.chainfeed.ingest.decide.RuleText.Parsed;
import io.chainfeed.ingest.decide.RuleText.Vote;
import io.chainfeed.ingest.decide.SignalDecider.LayerWord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules' layer step: scores each layer an item names and says which are primary. Each
 * phrase naming a layer counts its weight, times {@code layer.headline.factor} in the
 * headline and times {@code layer.cue-sentence.factor} in a sentence with a direction
 * cue; bonuses, in phrase weights (times the headline factor there), for a phrase beside
 * or near a cue, for the word right before a condition ("HBM shortage") and for the
 * object of a cue ("a shortage of X", "waits for X"); the headline's first phrase counts
 * {@code layer.first-in-headline.factor} times as much. Layers within
 * {@code layer.primary.share} of the top score are primary. The weights are read from
 * {@link DeciderWeights}. Immutable and thread-safe.
 */
final class LayerStep {

    /** Scores are kept to hundredths: multiplied by this, rounded, divided again. */
    private static final double SCORE_SCALE = 100.0;

    private final double headlineFactor;

    private final double cueSentenceFactor;

    private final int besideWords;

    private final double besideBonus;

    private final int nearWords;

    private final double nearBonus;

    private final double conditionThingBonus;

    private final double objectBonus;

    private final int objectForWords;

    private final int objectOfReach;

    private final int objectOfWords;

    private final double firstInHeadlineFactor;

    private final double primaryShare;

    /**
     * @param weights where the {@code layer.} factors and bonuses are read
     * @throws IllegalStateException when a weight is missing or malformed
     */
    LayerStep(DeciderWeights weights) {
        headlineFactor = weights.number("layer.headline.factor");
        cueSentenceFactor = weights.number("layer.cue-sentence.factor");
        besideWords = weights.whole("layer.beside.words");
        besideBonus = weights.number("layer.beside.bonus");
        nearWords = weights.whole("layer.near.words");
        nearBonus = weights.number("layer.near.bonus");
        conditionThingBonus = weights.number("layer.condition-thing.bonus");
        objectBonus = weights.number("layer.object.bonus");
        objectForWords = weights.whole("layer.object.for-words");
        objectOfReach = weights.whole("layer.object.of-reach");
        objectOfWords = weights.whole("layer.object.of-words");
        firstInHeadlineFactor = weights.number("layer.first-in-headline.factor");
        primaryShare = weights.number("layer.primary.share");
    }

    /**
     * @param parsed an item as the rules read it
     * @return each layer named, with its score and evidence: primary ones first, then by
     * score; empty when it names none
     */
    List<Decision.LayerPick> score(Parsed parsed) {
        List<Vote> votes = parsed.votes();
        Map<String, double[]> scores = new LinkedHashMap<>();
        Map<String, List<Decision.Span>> evidence = new LinkedHashMap<>();
        for (Field f : List.of(parsed.h(), parsed.b())) {
            boolean firstInHeadline = f.name().equals("headline");
            for (PhraseLexicon.Match<LayerWord> m : f.layers()) {
                TextAnalysis.Token first = f.tokens().get(m.first());
                TextAnalysis.Token last = f.tokens().get(m.last());
                int sentence = first.sentence();
                boolean cueSentence = votes.stream()
                    .anyMatch(v -> v.hit().field().equals(f.name()) && v.hit().sentence() == sentence);
                // a body phrase counts at its weight
                double fieldFactor = f.name().equals("headline") ? headlineFactor : 1;
                double s = m.value().weight() * fieldFactor * (cueSentence ? cueSentenceFactor : 1);
                int distance = votes.stream()
                    .filter(v -> v.hit().field().equals(f.name()) && v.hit().sentence() == sentence)
                    .mapToInt(v -> Math.max(v.hit().first() - m.last(), m.first() - v.hit().last()) - 1)
                    .min()
                    .orElse(Integer.MAX_VALUE);
                if (distance <= besideWords) {
                    s += besideBonus * m.value().weight() * fieldFactor;
                }
                else if (distance <= nearWords) {
                    s += nearBonus * m.value().weight() * fieldFactor;
                }
                boolean modifier = votes.stream()
                    .anyMatch(v -> v.hit().field().equals(f.name()) && v.hit().cue().condition()
                            && v.hit().first() == m.last() + 1);
                if (modifier) {
                    s += conditionThingBonus * m.value().weight() * fieldFactor;
                }
                if (objectOfCue(f, m, votes)) {
                    s += objectBonus * m.value().weight() * fieldFactor;
                }
                if (m.value().weight() == 0) {
                    continue;
                }
                if (firstInHeadline) {
                    s *= firstInHeadlineFactor;
                    firstInHeadline = false;
                }
                scores.computeIfAbsent(m.value().layer(), k -> new double[1])[0] += s;
                evidence.computeIfAbsent(m.value().layer(), k -> new ArrayList<>())
                    .add(new Decision.Span(f.name(), first.start(), last.end() - first.start(),
                            f.text().substring(first.start(), last.end()), m.value().rule()));
            }
        }
        if (scores.isEmpty()) {
            return List.of();
        }
        double top = scores.values().stream().mapToDouble(a -> a[0]).max().orElse(0);
        List<Decision.LayerPick> out = new ArrayList<>();
        scores.forEach((id, s) -> out.add(new Decision.LayerPick(id, s[0] >= primaryShare * top,
                Math.round(s[0] * SCORE_SCALE) / SCORE_SCALE, evidence.get(id))));
        out.sort(Comparator.comparing((Decision.LayerPick p) -> !p.primary()).thenComparing(p -> -p.score()));
        return out;
    }

    /**
     * Whether a layer match is the object of a cue: "of" among the last
     * {@code layer.object.of-words} words before it, within {@code layer.object.of-reach}
     * words after the cue ("a shortage of X"), or "for" right after the cue and X within
     * {@code layer.object.for-words} words of it ("scramble for X", "waits for X"; not
     * "lengthens for data centers", where the cue is further away).
     */
    private boolean objectOfCue(Field f, PhraseLexicon.Match<LayerWord> m, List<Vote> votes) {
        int sentence = f.tokens().get(m.first()).sentence();
        for (Vote v : votes) {
            if (!v.hit().field().equals(f.name()) || v.hit().sentence() != sentence || v.hit().last() >= m.first()) {
                continue;
            }
            int after = v.hit().last() + 1;
            if (after < m.first() && f.tokens().get(after).lower().equals("for")
                    && m.first() - after <= objectForWords) {
                return true;
            }
            if (m.first() - v.hit().last() <= objectOfReach) {
                for (int k = m.first() - 1; k >= Math.max(after, m.first() - objectOfWords); k--) {
                    if (f.tokens().get(k).lower().equals("of")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

}
