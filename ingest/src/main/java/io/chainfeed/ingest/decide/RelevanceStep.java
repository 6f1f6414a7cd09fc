package io.chainfeed.ingest.decide;

import io.chainfeed.ingest.decide.RuleText.Hit;
import io.chainfeed.ingest.decide.RuleText.Parsed;
import io.chainfeed.ingest.decide.SignalDecider.Kind;
import java.util.List;

/**
 * The rules' relevance step: whether an item is about a supply constraint in the AI
 * chain. Skipped are an item whose headline has an off-topic cue and no direction cue,
 * one with no direction cue at all (with a body off-topic cue's reason if it has one),
 * and one whose top layer scores below {@code relevance.min-layer-score}. The weights are
 * read from {@link DeciderWeights}. Immutable and thread-safe.
 */
final class RelevanceStep {

    private final LayerStep layers;

    private final double minLayerScore;

    private final double skipConfidence;

    /**
     * The step's answer: a skip, or the layers of a relevant item.
     *
     * @param skipped the skip decision, null when relevant
     * @param layers the layers named, primary first (not empty when relevant)
     */
    record Verdict(Decision skipped, List<Decision.LayerPick> layers) {
    }

    /**
     * @param layers scores the layers an item names
     * @param weights where {@code relevance.min-layer-score} and
     * {@code relevance.skip-confidence} are read
     * @throws IllegalStateException when a weight is missing or malformed
     */
    RelevanceStep(LayerStep layers, DeciderWeights weights) {
        this.layers = layers;
        this.minLayerScore = weights.number("relevance.min-layer-score");
        this.skipConfidence = weights.number("relevance.skip-confidence");
    }

    /**
     * @param parsed an item as the rules read it
     * @return the skip decision with its reason and evidence, or the item's layers
     */
    Verdict decide(Parsed parsed) {
        Hit skipHit = parsed.h().hits().stream().filter(x -> x.cue().kind() == Kind.SKIP).findFirst().orElse(null);
        boolean headlineDirectional = parsed.votes().stream().anyMatch(v -> v.hit().inHeadline());
        if (skipHit != null && !headlineDirectional) {
            return skipped(skipHit.cue().reason(), List.of(skipHit.span("off-topic: " + skipHit.cue().reason())));
        }
        if (parsed.votes().isEmpty()) {
            Hit any = parsed.b().hits().stream().filter(x -> x.cue().kind() == Kind.SKIP).findFirst().orElse(null);
            return any != null ? skipped(any.cue().reason(), List.of(any.span("off-topic: " + any.cue().reason())))
                    : skipped(SignalDecider.NO_CONSTRAINT_WORDING, List.of());
        }
        List<Decision.LayerPick> named = layers.score(parsed);
        if (named.isEmpty() || named.get(0).score() < minLayerScore) {
            return skipped(SignalDecider.NO_CHAIN_LAYER,
                    parsed.votes().stream().map(v -> v.hit().span("supply wording")).toList());
        }
        return new Verdict(null, named);
    }

    private Verdict skipped(String reason, List<Decision.Span> evidence) {
        return new Verdict(new Decision(false, reason, null, 0, null, List.of(), skipConfidence, false, evidence,
                List.of(), List.of(), List.of(), Decision.RULES, null), List.of());
    }

}
