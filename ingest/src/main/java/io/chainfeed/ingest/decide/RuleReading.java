package io.chainfeed.ingest.decide;

import java.util.Map;

/**
 * What the rules see in an item whether or not they decide it: the rule features of the
 * learned reader ({@link NewsReader}).
 *
 * @param offTopicHeadline an off-topic cue in the headline
 * @param offTopicBody an off-topic cue in the body
 * @param votes direction votes (cues after negations and reversals)
 * @param signedSum the votes' signed weight (tightening positive)
 * @param totalWeight the votes' weight
 * @param headlineVotes votes in the headline
 * @param negated a negation among the cues
 * @param hedged a hedge among the cues
 * @param layerScores each layer named and its score (docs/decisions.md), before the
 * minimum score
 */
record RuleReading(boolean offTopicHeadline, boolean offTopicBody, int votes, double signedSum, double totalWeight,
        int headlineVotes, boolean negated, boolean hedged, Map<String, Double> layerScores) {
}
