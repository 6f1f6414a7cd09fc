package io.chainfeed.ingest.decide;

import io.chainfeed.ingest.decide.RuleText.Field;
import io.chainfeed.ingest.decide.RuleText.Parsed;
import io.chainfeed.ingest.decide.RuleText.Vote;
import java.time.Instant;
import java.util.List;

/**
 * The rules' horizon step: the first horizon ({@link Horizons}) stated in a sentence with
 * an agreeing cue, in the order of the votes (headline first). It reads no weights.
 * Stateless and thread-safe.
 */
final class HorizonStep {

    /**
     * A horizon found, or none.
     *
     * @param until the end of the period the item speaks of, null when none is stated
     * @param evidence the words that state it, empty when none
     */
    record Stated(Instant until, List<Decision.Span> evidence) {
    }

    /**
     * @param parsed an item as the rules read it
     * @param agreeing the votes of the decided direction
     * @param observedAt when the item was observed (relative horizons count from it)
     * @return the horizon stated beside an agreeing cue, or none
     */
    Stated decide(Parsed parsed, List<Vote> agreeing, Instant observedAt) {
        for (Vote v : agreeing) {
            Field f = parsed.fieldOf(v.hit());
            int s = v.hit().sentence();
            int from = s == 0 ? 0 : f.sentenceEnds()[s - 1];
            Horizons.Horizon found = Horizons.find(f.text(), from, f.sentenceEnds()[s], observedAt);
            if (found != null) {
                Decision.Span span = new Decision.Span(f.name(), found.start(), found.end() - found.start(),
                        f.text().substring(found.start(), found.end()), "horizon: " + found.rule());
                return new Stated(found.until(), List.of(span));
            }
        }
        return new Stated(null, List.of());
    }

}
