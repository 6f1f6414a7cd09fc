package io.chainfeed.ingest.decide;

import io.chainfeed.avro.Direction;
import java.time.Instant;
import java.util.List;

/**
 * What {@link SignalDecider} decided from a signal's headline and body, with the words
 * behind each value.
 *
 * @param relevant whether the text is about a supply constraint on the chain
 * @param skipReason why not, when not relevant ({@code appointment},
 * {@code no supply-constraint wording}, ...); null when relevant
 * @param direction tightening or easing; null when not relevant
 * @param magnitude 1-5 from the rule table; 0 when not relevant
 * @param until the first instant after the horizon the text states, or null
 * @param layers the layers found, primary ones first
 * @param confidence 0-1: how sure the reader is of direction and layer (the rules:
 * hedges, mixed wording and layers known only from a company lower it; the learned
 * reader: the product of its direction and layer probabilities)
 * @param hedged whether the deciding sentence is hedged ("may", "is expected to")
 * @param relevanceEvidence the words that made it relevant or not
 * @param directionEvidence the words that decided the direction (cues, negations,
 * reversals)
 * @param magnitudeEvidence the base cue and every modifier of the magnitude, each naming
 * its rule
 * @param untilEvidence the horizon phrase, or empty
 * @param reader who decided relevance, direction and layer: {@link #RULES} or
 * {@link #NEWS_READER}
 * @param readerVersion the learned reader's version ({@code news-reader-} and its
 * training set's hash); null for the rules
 */
public record Decision(boolean relevant, String skipReason, Direction direction, int magnitude, Instant until,
        List<LayerPick> layers, double confidence, boolean hedged, List<Span> relevanceEvidence,
        List<Span> directionEvidence, List<Span> magnitudeEvidence, List<Span> untilEvidence, String reader,
        String readerVersion) {

    /** The rules of {@link SignalDecider} decided. */
    public static final String RULES = "rules";

    /** The learned reader ({@link NewsReader}) decided. */
    public static final String NEWS_READER = "news-reader";

    public Decision {
        layers = List.copyOf(layers);
        relevanceEvidence = List.copyOf(relevanceEvidence);
        directionEvidence = List.copyOf(directionEvidence);
        magnitudeEvidence = List.copyOf(magnitudeEvidence);
        untilEvidence = List.copyOf(untilEvidence);
    }

    /**
     * @param confidence any number
     * @return it clamped to 0-1 and rounded to two decimals, as decisions carry it
     */
    static double roundConfidence(double confidence) {
        return Math.round(Math.max(0, Math.min(1, confidence)) * 100) / 100.0;
    }

    /**
     * @return the ids of the primary layers, in order
     */
    public List<String> primaryLayers() {
        return layers.stream().filter(LayerPick::primary).map(LayerPick::id).toList();
    }

    /**
     * A span of a field that decided something.
     *
     * @param field {@code headline} or {@code body}
     * @param offset offset of its first char in the field (UTF-16)
     * @param length its length
     * @param text the words
     * @param rule the rule it fed ({@code tightening cue}, {@code negation},
     * {@code +1 intensifier}, ...)
     */
    public record Span(String field, int offset, int length, String text, String rule) {
        /**
         * @return the same span under another rule
         */
        public Span withRule(String other) {
            return new Span(field, offset, length, text, other);
        }
    }

    /**
     * A layer the text is about.
     *
     * @param id layer id
     * @param primary whether the signal is about it (the highest score, or within 10% of
     * it), not a passing mention
     * @param score the layer's score (docs/decisions.md)
     * @param evidence the words that named it
     */
    public record LayerPick(String id, boolean primary, double score, List<Span> evidence) {
        public LayerPick {
            evidence = List.copyOf(evidence);
        }
    }
}
