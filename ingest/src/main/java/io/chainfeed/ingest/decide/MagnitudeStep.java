package io.chainfeed.ingest.decide;

import io.chainfeed.ingest.decide.RuleText.Field;
import io.chainfeed.ingest.decide.RuleText.Hit;
import io.chainfeed.ingest.decide.RuleText.Parsed;
import io.chainfeed.ingest.decide.RuleText.Vote;
import io.chainfeed.ingest.decide.SignalDecider.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The rules' magnitude step: the magnitude of the strongest agreeing cue (the lead; by
 * magnitude, then weight), moved by the intensifier, diminisher and hedge of its sentence
 * and by a long tightening horizon, then held between {@code magnitude.min} and
 * {@code magnitude.max}. The steps are read from {@link DeciderWeights}. Immutable and
 * thread-safe.
 */
final class MagnitudeStep {

    private final int intensifier;

    private final int diminisher;

    private final int hedge;

    private final int longHorizon;

    private final int longHorizonDays;

    private final int min;

    private final int max;

    /**
     * The magnitude decided.
     *
     * @param magnitude from min to max
     * @param evidence the lead cue, then each word that moved it
     * @param lead the strongest agreeing vote
     * @param hedge the hedge of the lead's sentence, null if none
     */
    record Strength(int magnitude, List<Decision.Span> evidence, Vote lead, Hit hedge) {
    }

    /**
     * @param weights where the {@code magnitude.} steps and bounds are read
     * @throws IllegalStateException when a weight is missing or malformed
     */
    MagnitudeStep(DeciderWeights weights) {
        intensifier = weights.whole("magnitude.intensifier");
        diminisher = weights.whole("magnitude.diminisher");
        hedge = weights.whole("magnitude.hedge");
        longHorizon = weights.whole("magnitude.long-horizon");
        longHorizonDays = weights.whole("magnitude.long-horizon-days");
        min = weights.whole("magnitude.min");
        max = weights.whole("magnitude.max");
    }

    /**
     * @param parsed an item as the rules read it
     * @param leaning its direction, with at least one agreeing vote
     * @param horizon its horizon, or none
     * @param observedAt when it was observed
     * @return the magnitude with its evidence
     */
    Strength decide(Parsed parsed, DirectionStep.Leaning leaning, HorizonStep.Stated horizon, Instant observedAt) {
        Vote lead = leaning.agreeing()
            .stream()
            .max(Comparator.comparingInt(Vote::magnitude).thenComparingDouble(Vote::weight))
            .orElseThrow();
        List<Decision.Span> evidence = new ArrayList<>();
        int magnitude = lead.magnitude();
        evidence.add(lead.hit()
            .span("base " + lead.magnitude() + ": " + lead.hit().cue().phrase()
                    + (lead.magnitude() < lead.hit().cue().magnitude() ? " (reversed: one less)" : "")));
        Field lf = parsed.fieldOf(lead.hit());
        Hit up = RuleText.modifier(lf, lead.hit(), Kind.UP);
        if (up != null) {
            magnitude += intensifier;
            evidence.add(up.span("+" + intensifier + " intensifier"));
        }
        Hit down = RuleText.modifier(lf, lead.hit(), Kind.DOWN);
        if (down != null) {
            magnitude -= diminisher;
            evidence.add(down.span("-" + diminisher + " diminisher"));
        }
        Hit hedged = RuleText.modifier(lf, lead.hit(), Kind.HEDGE);
        if (hedged != null) {
            magnitude -= hedge;
            evidence.add(hedged.span("-" + hedge + " hedge"));
        }
        if (horizon.until() != null && leaning.sign() > 0
                && Duration.between(observedAt, horizon.until()).toDays() > longHorizonDays) {
            magnitude += longHorizon;
            evidence.add(horizon.evidence().get(0).withRule("+" + longHorizon + " horizon over a year"));
        }
        magnitude = Math.max(min, Math.min(max, magnitude));
        return new Strength(magnitude, evidence, lead, hedged);
    }

}
