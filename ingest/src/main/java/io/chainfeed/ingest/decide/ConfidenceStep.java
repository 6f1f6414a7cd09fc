package io.chainfeed.ingest.decide;

import java.util.List;

/**
 * The rules' confidence step: {@code confidence.base} plus {@code confidence.agreement}
 * times the share of the votes' weight that agrees, plus {@code confidence.headline} when
 * an agreeing cue is in the headline; less {@code confidence.hedge} for a hedge in the
 * lead cue's sentence and {@code confidence.company-only} when only company names point
 * to the top layer; held between 0 and 1 and rounded to hundredths
 * ({@link Decision#roundConfidence}). The weights are read from {@link DeciderWeights}.
 * Immutable and thread-safe.
 */
final class ConfidenceStep {

    private final double base;

    private final double agreement;

    private final double headline;

    private final double hedge;

    private final double companyOnly;

    /**
     * @param weights where the {@code confidence.} weights are read
     * @throws IllegalStateException when a weight is missing or malformed
     */
    ConfidenceStep(DeciderWeights weights) {
        base = weights.number("confidence.base");
        agreement = weights.number("confidence.agreement");
        headline = weights.number("confidence.headline");
        hedge = weights.number("confidence.hedge");
        companyOnly = weights.number("confidence.company-only");
    }

    /**
     * @param leaning the direction decided, with its votes
     * @param hedged whether the lead cue's sentence hedges
     * @param layers the layers named, the top one first
     * @return the confidence, 0 to 1, in hundredths
     */
    double decide(DirectionStep.Leaning leaning, boolean hedged, List<Decision.LayerPick> layers) {
        double agreed = leaning.total() == 0 ? 0 : Math.abs(leaning.sum()) / leaning.total();
        double confidence = base + agreement * agreed;
        if (leaning.inHeadline()) {
            confidence += headline;
        }
        if (hedged) {
            confidence -= hedge;
        }
        boolean onlyCompanies = layers.get(0).evidence().stream().allMatch(s -> s.rule().startsWith("company"));
        if (onlyCompanies) {
            confidence -= companyOnly;
        }
        return Decision.roundConfidence(confidence);
    }

}
