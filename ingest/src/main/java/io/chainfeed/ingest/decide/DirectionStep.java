package io.chainfeed.ingest.decide;

import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.decide.RuleText.Vote;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules' direction step: the sign of the votes' weighted sum (a vote's weight is set
 * when the text is read, {@link RuleText}), the headline's votes breaking a tie, and
 * tightening when even they are silent. It reads no weights of its own. Stateless and
 * thread-safe.
 */
final class DirectionStep {

    /**
     * The direction decided and the votes behind it.
     *
     * @param direction tightening or easing
     * @param sign 1 for tightening, -1 for easing
     * @param sum the votes' signed weight (tightening positive)
     * @param total the votes' weight
     * @param agreeing the votes of the decided sign, in reading order
     * @param evidence the agreeing votes' spans
     */
    record Leaning(Direction direction, int sign, double sum, double total, List<Vote> agreeing,
            List<Decision.Span> evidence) {
        /**
         * @return whether an agreeing vote is in the headline
         */
        boolean inHeadline() {
            return agreeing.stream().anyMatch(v -> v.hit().inHeadline());
        }
    }

    /**
     * @param votes an item's votes (with none, both sums are zero and it leans to
     * tightening)
     * @return the direction they lean to, with the agreeing votes
     */
    Leaning decide(List<Vote> votes) {
        double sum = 0;
        double total = 0;
        double headlineSum = 0;
        for (Vote v : votes) {
            sum += v.sign() * v.weight();
            total += v.weight();
            if (v.hit().inHeadline()) {
                headlineSum += v.sign() * v.weight();
            }
        }
        int sign = sum > 0 ? 1 : sum < 0 ? -1 : headlineSum < 0 ? -1 : 1;
        Direction direction = sign > 0 ? Direction.TIGHTENING : Direction.EASING;
        List<Vote> agreeing = votes.stream().filter(v -> v.sign() == sign).toList();
        List<Decision.Span> evidence = new ArrayList<>();
        agreeing.forEach(v -> evidence.addAll(v.spans()));
        return new Leaning(direction, sign, sum, total, agreeing, evidence);
    }

}
