package io.chainfeed.chain;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.chain.reference.ChainSegments;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The chain model: from the kept constraint signals (a {@link ChainBook}) and the
 * reference data (layers and companies) to the state of every layer. Nothing here depends
 * on arrival order or wall clock, so the same signals give the same state (sums equal to
 * within floating-point rounding, far below the four decimals published).
 *
 * <p>
 * <b>Stories.</b> Repeats of one story count once: of the signals sharing a source URL,
 * or a headline from the same source, only the one with the largest weight (magnitude and
 * recency, see {@link ChainDecay#weight}; then the smaller id) counts, and a signal
 * counts only while it leads both of its groups ({@link ChainBook}). Which signals count
 * depends only on the set of signals.
 *
 * <p>
 * <b>Decay.</b> Decay is computed at {@code asOf} = the newest {@code observedAt} of all
 * signals (event time). A counted signal {@code s} naming layer {@code l} contributes
 * <pre>  c(s) = sign(s) × magnitude(s) × 2^(−max(0, asOf − decayStart(s)) / H)</pre> with
 * {@code sign} +1 for TIGHTENING and −1 for EASING, half-life {@code H} =
 * {@value #HALF_LIFE_DAYS} days, and {@code decayStart} the signal's {@code observedAt},
 * or its horizon {@code until} when later ({@link ChainDecay#decayStart}): a signal that
 * speaks of a period ("sold out through 2025") keeps its full weight until the period
 * ends, then decays as any other. A signal naming several layers contributes fully to
 * each. {@code raw(l) = Σ c(s)} over the counted signals naming {@code l}; the
 * {@link ChainBook} keeps that sum up to date per signal (rebasing it by one
 * multiplication when {@code asOf} moves), so a signal costs the same however many are
 * kept.
 *
 * <p>
 * <b>Segments.</b> Where a layer's market is reported in parts that can diverge
 * ({@link ChainSegments}: memory's HBM and conventional DRAM/NAND, foundry's leading-edge
 * and mature nodes), a signal that speaks of one segment alone ({@code segment}) counts
 * in that layer with the segment's share of the layer's market, {@code c(s) × share}, and
 * in full in the other layers it names. So a segmented layer's raw pressure is the
 * share-weighted mean of its segments' pressures, each segment's being the layer-wide
 * signals plus its own: {@code raw(l) = U + Σ share(g) × S_g = Σ share(g) × (U + S_g)}.
 * The status describes the layer's market as a whole rather than its most constrained
 * part; a layer without segmented signals is unchanged.
 *
 * <p>
 * <b>Soft cap.</b> {@code direct(l) = softCap(raw(l))} ({@link ChainDecay#softCap}):
 * unchanged up to ±{@value ChainDecay#SOFT_CAP_KNEE}, then bending towards
 * ±{@value ChainDecay#SOFT_CAP}. The cap is applied to the exact running sum when states
 * are built, so the book stays exact; each of the layer's signals is credited
 * {@code c(s) × direct(l) / raw(l)} ({@code directScale}), so the causes still add up to
 * the pressure.
 *
 * <p>
 * <b>Propagation (inheritance).</b> Pressure flows downstream along the layer graph (from
 * a layer to the layers that name it as upstream), by the model's {@link Inheritance}.
 * The live rule (issue 37, docs/chain-model-prereg.md and docs/backtest.md) is the
 * tightest supplier, damped by {@code A} = 1/2, computed upstream first:
 * <pre>  inh(l) = A × max over suppliers u of l of P(u)⁺
 *  P(l)   = direct(l) + inh(l)</pre> so a layer inherits at most half of its tightest
 * supplier's pressure, which itself holds at most half of its own tightest supplier's,
 * and so on: inherited pressure never exceeds the largest own pressure upstream, and a
 * layer without signals of its own is never tighter than its tightest supplier. Only
 * tightening is inherited. The rule before issue 37 ({@link Rule#SUM}, still available)
 * summed {@code A^hops(u,l) × direct(u)} over every upstream layer whose direct pressure
 * is tight or critical. Either way the attribution is linear: a signal's share of a
 * downstream layer is a fixed coefficient times its contribution where it landed, so a
 * layer's causes add up to its pressure (easing signals on a tight layer appear as
 * negative causes downstream).
 *
 * <p>
 * <b>Causes.</b> A layer lists its {@value #TOP_CAUSES} largest causes by absolute
 * contribution before the soft cap's factor (ties by signal id, origin layer, hops; the
 * order is by {@link ChainDecay#weight}, which never changes as time passes), each with
 * its source and its contribution after the factor, leaving out those under
 * {@value ChainDecay#MIN_CAUSE}; the rest are summed in {@code otherCauseCount} and
 * {@code otherCauseTotal} ({@code pressure −} the listed contributions). The full list is
 * published per signal and layer on the chain-causes topic for paging. {@code squeezedBy}
 * names each squeezing layer with its hops.
 *
 * <p>
 * <b>Status.</b> {@code P ≤} {@value #LOOSE_BELOW} is LOOSE, {@code P <}
 * {@value #TIGHT_FROM} is BALANCED, {@code P <} {@value #CRITICAL_FROM} is TIGHT, above
 * that CRITICAL.
 *
 * <p>
 * <b>Trend.</b> The pressure now against the pressure {@value #TREND_WINDOW_DAYS} days
 * earlier ({@code asOf − 7 d}, from the signals observed by then): a rise of more than
 * {@value #TREND_EPSILON} is RISING, a fall of more than that FALLING, otherwise STEADY.
 *
 * <p>
 * Owners of a layer are the companies whose primary or other layers include it. While a
 * layer squeezes (its direct pressure is tight or critical), the companies of every layer
 * downstream of it are listed as squeezed, each with the nearest such layer and the
 * tightening signals among the layer's listed causes (at most {@value #SQUEEZE_CAUSES}).
 * Numbers are rounded to four decimals.
 *
 * <p>
 * This class holds the rules' constants and the time axis (from scratch, as of an
 * instant, history, the weekly normal). Package-private parts do the rest:
 * {@code ChainGraph} reads the layers and companies into the layer graph, owners and
 * squeezed companies; {@code LayerStates} turns a book's sums into every layer's state;
 * {@code ChainCauses} picks the causes it lists.
 */
public final class ChainModel {

    /** Half-life of a signal's weight, in days. */
    public static final double HALF_LIFE_DAYS = ChainDecay.HALF_LIFE_DAYS;

    /** Share of a layer's positive pressure passed to each direct downstream layer. */
    public static final double ATTENUATION = ChainDecay.ATTENUATION;

    /** Pressure at or below which a layer is LOOSE. */
    public static final double LOOSE_BELOW = -1.0;

    /** Pressure from which a layer is TIGHT. */
    public static final double TIGHT_FROM = 3.0;

    /** Pressure from which a layer is CRITICAL. */
    public static final double CRITICAL_FROM = 6.0;

    /** How far back the trend compares, in days. */
    public static final long TREND_WINDOW_DAYS = 7;

    /** Smallest change of pressure that counts as a trend. */
    public static final double TREND_EPSILON = 0.25;

    /**
     * Signals older than this many half-lives before {@code asOf} weigh less than 2^-30
     * of their magnitude (under 5e-9): the topology forgets them, which no rounded number
     * shows.
     */
    public static final int FORGET_AFTER_HALF_LIVES = 30;

    /** Most causes a layer state lists. */
    public static final int TOP_CAUSES = 20;

    /** Most signal ids a squeezed company lists. */
    public static final int SQUEEZE_CAUSES = 5;

    /**
     * Causes smaller than this (absolute) are left out of the lists; they still count in
     * the sums.
     */
    static final double MIN_CAUSE = ChainDecay.MIN_CAUSE;

    static final long DAY_MS = 86_400_000L;

    private static final long WEEK_MS = 7 * DAY_MS;

    private final StatusRule statusRule;

    private final ChainGraph graph;

    private final LayerStates layerStates;

    /**
     * @param layerList the chain layers (id, name, upstream ids)
     * @param companyList the companies (primary layer and other layers, listings)
     */
    public ChainModel(Collection<ChainLayer> layerList, Collection<Company> companyList) {
        this(layerList, companyList, Inheritance.LIVE);
    }

    /**
     * @param layerList the chain layers (id, name, upstream ids)
     * @param companyList the companies (primary layer and other layers, listings)
     * @param inheritance how a layer inherits pressure from its suppliers
     */
    public ChainModel(Collection<ChainLayer> layerList, Collection<Company> companyList, Inheritance inheritance) {
        this(layerList, companyList, inheritance, StatusRule.ABSOLUTE);
    }

    /**
     * @param layerList the chain layers (id, name, upstream ids)
     * @param companyList the companies (primary layer and other layers, listings)
     * @param inheritance how a layer inherits pressure from its suppliers
     * @param statusRule how a layer's own pressure is normalised and its status read
     */
    public ChainModel(Collection<ChainLayer> layerList, Collection<Company> companyList, Inheritance inheritance,
            StatusRule statusRule) {
        this.statusRule = statusRule;
        this.graph = new ChainGraph(layerList, companyList);
        this.layerStates = new LayerStates(graph, inheritance, statusRule);
    }

    /**
     * @return the known layer ids, in id order
     */
    public Set<String> layerIds() {
        return graph.ids();
    }

    /**
     * Computes every layer's state from scratch (for tests and one-off use; the topology
     * keeps a {@link ChainBook} instead).
     * @param signals all known signals, in any order (one per id)
     * @return the state of each layer, by layer id in id order; {@code asOf} 0 when there
     * are no signals
     */
    public Map<String, LayerState> compute(Collection<ConstraintSignal> signals) {
        ChainBook book = new ChainBook(graph.ids());
        List<ConstraintSignal> sorted = new ArrayList<>(signals);
        sorted.sort(Comparator.comparing(ConstraintSignal::getId));
        sorted.forEach(book::put);
        return states(book, normalAt(signals, book.asOf()));
    }

    /**
     * Every layer's state as of an instant, from the signals observed by then
     * ({@code observedAt ≤
     * asOf}), with decay, the trend window and forgetting measured at {@code asOf}: the
     * live rules with {@code asOf} named instead of taken from the newest signal. The
     * signals go through the same {@link ChainBook} and {@link #states} as the live
     * topology's, so every rule of the model applies unchanged. Cost: O(n log n) for the
     * n signals given, plus one {@link #states} call.
     * @param signals the kept signals, in any order (one per id); those observed after
     * {@code asOf} are left out
     * @param asOf the instant, epoch ms (UTC)
     * @return the state of each layer, by layer id in id order, each with {@code asOf} =
     * the instant
     */
    public Map<String, LayerState> statesAt(Collection<ConstraintSignal> signals, long asOf) {
        ChainBook book = new ChainBook(graph.ids());
        List<ConstraintSignal> sorted = new ArrayList<>();
        for (ConstraintSignal s : signals) {
            if (s.getObservedAt().toEpochMilli() <= asOf) {
                sorted.add(s);
            }
        }
        sorted.sort(Comparator.comparing(ConstraintSignal::getId));
        sorted.forEach(book::put);
        book.advanceTo(asOf);
        return states(book, normalAt(signals, asOf));
    }

    /**
     * The chain at evenly spaced instants {@code from, from + step, ...} ({@code points}
     * of them), each equal to {@link #statesAt} at that instant, in one pass: the signals
     * are put into one {@link ChainBook} in time order and the book is advanced from
     * instant to instant, so the cost is O(n log n + points × cost of {@link #states})
     * instead of {@code points} computations from scratch.
     * @param signals the kept signals, in any order (one per id)
     * @param from the first instant, epoch ms (UTC)
     * @param step the time between instants, ms, at least 1
     * @param points how many instants, at least 1
     * @param each called once per instant, in time order, with the instant (epoch ms) and
     * every layer's state then (by layer id); the map is not kept by this method
     * @throws IllegalArgumentException if {@code step} or {@code points} is below 1
     */
    public void history(Collection<ConstraintSignal> signals, long from, long step, int points,
            BiConsumer<Long, Map<String, LayerState>> each) {
        if (step < 1 || points < 1) {
            throw new IllegalArgumentException("step and points must be at least 1, got " + step + " and " + points);
        }
        List<ConstraintSignal> byTime = new ArrayList<>(signals);
        byTime.sort(Comparator.comparingLong((ConstraintSignal s) -> s.getObservedAt().toEpochMilli())
            .thenComparing(ConstraintSignal::getId));
        ChainBook book = new ChainBook(graph.ids());
        Weekly weekly = statusRule.normal() == StatusRule.Normal.ABSOLUTE ? null
                : weekly(signals, Math.max(from + (points - 1) * step, baseEnd()));
        int next = 0;
        for (int i = 0; i < points; i++) {
            long at = from + i * step;
            while (next < byTime.size() && byTime.get(next).getObservedAt().toEpochMilli() <= at) {
                book.put(byTime.get(next++));
            }
            book.advanceTo(at);
            each.accept(at, states(book, weekly == null ? Map.of() : normal(weekly, at)));
        }
    }

    /**
     * Every layer's state from a book's sums: O(layers² + layers × {@value #TOP_CAUSES}),
     * independent of the number of kept signals. It reads statuses without a normal,
     * which is right for the live absolute thresholds; under a status rule against the
     * layer's own normal every layer would read BALANCED, so callers of such a model pass
     * the normal ({@link #states(ChainBook, Map)} with {@link #normalAt}).
     * @param book the kept signals, built for this model's layers
     * @return the state of each layer, by layer id in id order; {@code asOf} 0 when there
     * are no signals
     */
    public Map<String, LayerState> states(ChainBook book) {
        return states(book, Map.of());
    }

    /**
     * Every layer's state from a book's sums, its status read against each layer's normal
     * ({@link #normalAt}) under this model's {@link StatusRule}.
     * @param book the kept signals, built for this model's layers
     * @param normal per layer, its normal's samples (ignored under absolute thresholds; a
     * layer without samples is BALANCED under the others)
     * @return the state of each layer, by layer id in id order
     */
    public Map<String, LayerState> states(ChainBook book, Map<String, double[]> normal) {
        return layerStates.states(book, normal);
    }

    /**
     * A layer's weekly pressures: at the end (UTC) of every Sunday from the first
     * signal's on, each from the signals observed by then, under this model's rules.
     *
     * @param at the instants, epoch ms, in time order
     * @param pressure per layer, its pressure at each instant
     */
    public record Weekly(long[] at, Map<String, double[]> pressure) {
    }

    /**
     * @return the end (epoch ms, the last millisecond) of the fixed base period
     */
    static long baseEnd() {
        return StatusRule.BASE_TO.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli() - 1;
    }

    /**
     * The weekly pressures of every layer ({@link Weekly}) up to an instant.
     * @param signals the kept signals, in any order
     * @param until the last instant to sample at or before
     * @return the samples, rounded to four decimals
     */
    public Weekly weekly(Collection<ConstraintSignal> signals, long until) {
        List<ConstraintSignal> byTime = new ArrayList<>(signals);
        byTime.sort(Comparator.comparingLong((ConstraintSignal s) -> s.getObservedAt().toEpochMilli())
            .thenComparing(ConstraintSignal::getId));
        List<Long> times = new ArrayList<>();
        if (!byTime.isEmpty()) {
            LocalDate first = byTime.get(0).getObservedAt().atZone(ZoneOffset.UTC).toLocalDate();
            LocalDate sunday = first.with(TemporalAdjusters.nextOrSame(DayOfWeek.SUNDAY));
            for (long t = sunday.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()
                    - 1; t <= until; t += WEEK_MS) {
                times.add(t);
            }
        }
        Map<String, double[]> out = new TreeMap<>();
        graph.ids().forEach(id -> out.put(id, new double[times.size()]));
        ChainBook book = new ChainBook(graph.ids());
        int next = 0;
        long[] at = new long[times.size()];
        for (int i = 0; i < times.size(); i++) {
            long t = times.get(i);
            at[i] = t;
            while (next < byTime.size() && byTime.get(next).getObservedAt().toEpochMilli() <= t) {
                book.put(byTime.get(next++));
            }
            book.advanceTo(t);
            int j = i;
            layerStates.pressures(book).forEach((id, p) -> out.get(id)[j] = round(p));
        }
        return new Weekly(at, out);
    }

    /**
     * Each layer's normal at an instant from its weekly pressures: the samples of the
     * fixed base period, or of the {@value StatusRule#TRAILING_DAYS} days up to the
     * instant.
     * @param weekly the weekly pressures (covering the base period, or up to the instant)
     * @param asOf the instant
     * @return per layer, the samples
     */
    public Map<String, double[]> normal(Weekly weekly, long asOf) {
        long from;
        long to;
        if (statusRule.normal() == StatusRule.Normal.FIXED) {
            from = StatusRule.BASE_FROM.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            to = baseEnd();
        }
        else {
            from = asOf - StatusRule.TRAILING_DAYS * DAY_MS + 1;
            to = asOf;
        }
        int lo = 0;
        while (lo < weekly.at().length && weekly.at()[lo] < from) {
            lo++;
        }
        int hi = lo;
        while (hi < weekly.at().length && weekly.at()[hi] <= to) {
            hi++;
        }
        Map<String, double[]> out = new TreeMap<>();
        int a = lo;
        int b = hi;
        weekly.pressure().forEach((id, v) -> out.put(id, Arrays.copyOfRange(v, a, b)));
        return out;
    }

    /**
     * Each layer's normal at an instant, from the signals (under absolute thresholds,
     * none is needed: empty).
     * @param signals the kept signals (those after the instant count only for the fixed
     * base period's samples)
     * @param asOf the instant
     * @return per layer, the samples
     */
    public Map<String, double[]> normalAt(Collection<ConstraintSignal> signals, long asOf) {
        if (statusRule.normal() == StatusRule.Normal.ABSOLUTE) {
            return Map.of();
        }
        return normal(weekly(signals, statusRule.normal() == StatusRule.Normal.FIXED ? baseEnd() : asOf), asOf);
    }

    /**
     * @return how this model reads a layer's status
     */
    public StatusRule statusRule() {
        return statusRule;
    }

    /**
     * @param direct a layer's (capped) direct pressure
     * @return whether it squeezes the layers downstream: its direct pressure alone is
     * tight or critical
     */
    public static boolean squeezes(double direct) {
        LayerStatus s = status(direct);
        return s == LayerStatus.TIGHT || s == LayerStatus.CRITICAL;
    }

    /**
     * @return the status for a pressure on the absolute thresholds
     * ({@link StatusRule#ABSOLUTE}: loose at or below {@value #LOOSE_BELOW}, tight from
     * {@value #TIGHT_FROM}, critical from {@value #CRITICAL_FROM})
     */
    public static LayerStatus status(double pressure) {
        return StatusRule.ABSOLUTE.status(pressure, null);
    }

    /**
     * The weight of one signal at an instant, in a layer it names as a whole (no segment
     * share).
     * @param signal the signal
     * @param asOf the instant (epoch ms)
     * @return {@code sign × magnitude × 2^(−max(0, asOf − decayStart) / half-life)},
     * where the decay starts at its horizon ({@code until}) when that is later than when
     * it was observed
     */
    public static double contribution(ConstraintSignal signal, long asOf) {
        return ChainDecay.contribution(signal.getDirection(), signal.getMagnitude(),
                ChainDecay.decayStart(signal.getObservedAt().toEpochMilli(),
                        signal.getUntil() == null ? null : signal.getUntil().toEpochMilli()),
                asOf, 0);
    }

    /**
     * The weight of one signal at an instant in one layer it names.
     * @param signal the signal
     * @param layer the layer
     * @param asOf the instant (epoch ms)
     * @return {@link #contribution(ConstraintSignal, long)} times its share in that layer
     * ({@link ChainSegments#share}: its segment's share of the layer's market when it
     * speaks of one segment of that layer, else 1)
     */
    public static double contribution(ConstraintSignal signal, String layer, long asOf) {
        return ChainSegments.bundled().share(signal.getSegment(), layer) * contribution(signal, asOf);
    }

    /**
     * The rounding of every pressure the model publishes.
     * @param v a pressure
     * @return {@code v} rounded to four decimals (half up), never {@code -0.0}
     */
    public static double round(double v) {
        double r = Math.round(v * 10_000d) / 10_000d;
        return r == 0 ? 0.0 : r; // no -0.0
    }

}
