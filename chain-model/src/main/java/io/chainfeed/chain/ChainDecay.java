package io.chainfeed.chain;

import io.chainfeed.avro.Direction;

/**
 * The arithmetic of the chain model that both its writer (the chain-state topology in
 * streams) and its readers (the api, which pages a layer's causes) need, so they agree to
 * the last bit.
 *
 * <p>
 * A signal of magnitude {@code m} whose decay starts at {@code t} weighs
 * {@code ±m × 2^(−max(0, asOf − t) / H)} at an instant {@code asOf} (+ for TIGHTENING, −
 * for EASING), with half-life {@code H} = {@value #HALF_LIFE_DAYS} days; downstream of
 * the layer it named, each hop multiplies it by {@value #ATTENUATION}. Its decay starts
 * when it was observed, or at the end of the period it speaks of ({@code until}, e.g.
 * "sold out through 2025") when that is later ({@link #decayStart}): until then it keeps
 * its full weight. Because every decaying signal decays by the same factor as
 * {@code asOf} moves, {@link #weight} (taken at the decay start) orders signals by
 * absolute weight at every instant after both have started to decay.
 */
public final class ChainDecay {

    /** Half-life of a signal's weight, in days. */
    public static final double HALF_LIFE_DAYS = 60;

    /** The half-life in milliseconds. */
    public static final double HALF_LIFE_MS = 86_400_000d * HALF_LIFE_DAYS;

    /** Share of a layer's positive pressure passed to each direct downstream layer. */
    public static final double ATTENUATION = 0.5;

    /**
     * Causes smaller than this (absolute) are left out of cause lists; they still count
     * in the sums.
     */
    public static final double MIN_CAUSE = 0.0001;

    /**
     * Below this absolute pressure the soft cap leaves a layer's direct pressure as it
     * is.
     */
    public static final double SOFT_CAP_KNEE = 6.0;

    /** The bound the soft cap approaches: no layer's direct pressure reaches ± this. */
    public static final double SOFT_CAP = 10.0;

    private static final double LOG2_ATTENUATION = Math.log(ATTENUATION) / Math.log(2);

    private ChainDecay() {
    }

    /**
     * When a signal starts to decay.
     * @param observedAt when it was observed, epoch ms (UTC)
     * @param until the end of the period it speaks of, epoch ms (UTC), or null when it
     * states none
     * @return {@code until} when it is later than {@code observedAt}, else
     * {@code observedAt}
     */
    public static long decayStart(long observedAt, Long until) {
        return until == null ? observedAt : Math.max(observedAt, until);
    }

    /**
     * @param direction the signal's direction
     * @param magnitude its magnitude (1-5)
     * @param decayStart when its decay starts, epoch ms ({@link #decayStart}: when it was
     * observed, or its horizon when later)
     * @param asOf the instant to weigh it at, epoch ms (an earlier instant weighs it in
     * full)
     * @param hops hops downstream of the layer it named (0 for that layer)
     * @return its signed contribution:
     * {@code ±magnitude × 2^(−max(0, asOf − decayStart) / H) × A^hops}
     */
    public static double contribution(Direction direction, int magnitude, long decayStart, long asOf, int hops) {
        double sign = direction == Direction.TIGHTENING ? 1 : -1;
        double age = Math.max(0, asOf - decayStart);
        return sign * magnitude * Math.pow(2, -age / HALF_LIFE_MS) * Math.pow(ATTENUATION, hops);
    }

    /**
     * A signal's contribution to a layer where it counts with a share
     * ({@link ChainSegments#share}).
     * @param direction the signal's direction
     * @param magnitude its magnitude (1-5)
     * @param decayStart when its decay starts, epoch ms
     * @param asOf the instant to weigh it at, epoch ms
     * @param hops hops downstream of the layer it named (0 for that layer)
     * @param share the factor for the layer it named (1 for a signal about the whole
     * layer)
     * @return {@code share ×} {@link #contribution(Direction, int, long, long, int)}
     */
    public static double contribution(Direction direction, int magnitude, long decayStart, long asOf, int hops,
            double share) {
        return share * contribution(direction, magnitude, decayStart, asOf, hops);
    }

    /**
     * @param magnitude a signal's magnitude (positive)
     * @param decayStart when its decay starts, epoch ms ({@link #decayStart})
     * @param share the factor for the layer ({@link ChainSegments#share}), positive
     * @return the sort key of its contribution to that layer,
     * {@code log2(magnitude × share) + decayStart / H}: {@link #weight(int, long)} plus
     * {@code log2(share)}
     */
    public static double weight(int magnitude, long decayStart, double share) {
        return weight(magnitude, decayStart) + Math.log(share) / Math.log(2);
    }

    /**
     * @param magnitude a signal's magnitude (positive)
     * @param decayStart when its decay starts, epoch ms ({@link #decayStart})
     * @return its sort key, {@code log2(magnitude) + decayStart / H} (half-lives since
     * the epoch): of two signals the one with the larger key has the larger absolute
     * contribution at any instant after both decay starts (and, for signals without a
     * horizon, at any instant)
     */
    public static double weight(int magnitude, long decayStart) {
        return Math.log(magnitude) / Math.log(2) + decayStart / HALF_LIFE_MS;
    }

    /**
     * @param weight a signal's {@link #weight}
     * @param hops hops downstream of the layer it named
     * @return the sort key of its share {@code hops} layers downstream:
     * {@code weight + hops × log2(A)}
     */
    public static double weightAt(double weight, int hops) {
        return weight + hops * LOG2_ATTENUATION;
    }

    /**
     * The soft cap on a layer's direct pressure, so many signals saturate instead of
     * adding up without bound: the identity up to the knee {@code K} =
     * {@value #SOFT_CAP_KNEE}, then {@code K + (C − K) × tanh((|x| − K) / (C − K))}
     * towards the cap {@code C} = {@value #SOFT_CAP}, with the sign of {@code x}. Odd,
     * increasing, continuous with a continuous slope (1 at the knee).
     * @param raw the raw decayed sum of a layer's signals
     * @return the capped pressure, in (−C, C)
     */
    public static double softCap(double raw) {
        double a = Math.abs(raw);
        if (a <= SOFT_CAP_KNEE) {
            return raw;
        }
        double room = SOFT_CAP - SOFT_CAP_KNEE;
        return Math.signum(raw) * (SOFT_CAP_KNEE + room * Math.tanh((a - SOFT_CAP_KNEE) / room));
    }

    /**
     * @param raw the raw decayed sum of a layer's signals
     * @return {@code softCap(raw) / raw}, the factor every one of those signals'
     * contributions is scaled by so that they add up to the capped pressure; 1 when
     * {@code raw} is within the knee
     */
    public static double softCapScale(double raw) {
        return Math.abs(raw) <= SOFT_CAP_KNEE ? 1.0 : softCap(raw) / raw;
    }

}
