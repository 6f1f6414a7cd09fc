package io.chainfeed.streams.chain;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.avro.Trend;
import io.chainfeed.schemas.ChainDecay;
import io.chainfeed.schemas.ChainSegments;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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

    private static final long DAY_MS = 86_400_000L;

    private static final long WEEK_MS = 7 * DAY_MS;

    private final Inheritance inheritance;

    private final StatusRule statusRule;

    private final Map<String, ChainLayer> layers = new TreeMap<>();

    /**
     * Per layer: the layers it names as upstream that exist, without itself, in id order.
     */
    private final Map<String, List<String>> suppliers = new TreeMap<>();

    private final Map<String, List<String>> downstream = new TreeMap<>();

    private final Map<String, List<LayerCompany>> owners = new TreeMap<>();

    /** Per layer: every layer downstream of it with the fewest hops, in id order. */
    private final Map<String, Map<String, Integer>> reach = new TreeMap<>();

    /**
     * Per layer: the companies squeezed while it is tight (company, nearest layer, hops),
     * without causes.
     */
    private final Map<String, List<SqueezedCompany>> squeezable = new TreeMap<>();

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
        this.inheritance = inheritance;
        this.statusRule = statusRule;
        layerList.forEach(l -> layers.put(l.getId(), l));
        for (ChainLayer l : layers.values()) {
            List<String> ups = new ArrayList<>();
            for (String up : new TreeSet<>(l.getUpstream())) {
                if (layers.containsKey(up) && !up.equals(l.getId())) {
                    ups.add(up);
                }
            }
            suppliers.put(l.getId(), ups);
        }
        layers.keySet().forEach(id -> downstream.put(id, new ArrayList<>()));
        for (ChainLayer l : layers.values()) {
            for (String up : new TreeSet<>(l.getUpstream())) {
                if (layers.containsKey(up) && !up.equals(l.getId())) {
                    downstream.get(up).add(l.getId());
                }
            }
        }
        downstream.values().forEach(list -> list.sort(Comparator.naturalOrder()));
        List<Company> sorted = new ArrayList<>(companyList);
        sorted.sort(Comparator.comparing(Company::getId));
        for (Company c : sorted) {
            Set<String> its = new LinkedHashSet<>();
            its.add(c.getPrimaryLayer());
            its.addAll(c.getLayers());
            for (String layer : its) {
                if (layers.containsKey(layer)) {
                    owners.computeIfAbsent(layer, k -> new ArrayList<>()).add(company(c));
                }
            }
        }
        layers.keySet().forEach(id -> reach.put(id, distances(id)));
        layers.keySet().forEach(id -> squeezable.put(id, squeezable(id)));
    }

    /**
     * @return the known layer ids, in id order
     */
    public Set<String> layerIds() {
        return layers.keySet();
    }

    /**
     * Computes every layer's state from scratch (for tests and one-off use; the topology
     * keeps a {@link ChainBook} instead).
     * @param signals all known signals, in any order (one per id)
     * @return the state of each layer, by layer id in id order; {@code asOf} 0 when there
     * are no signals
     */
    public Map<String, LayerState> compute(Collection<ConstraintSignal> signals) {
        ChainBook book = new ChainBook(layers.keySet());
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
        ChainBook book = new ChainBook(layers.keySet());
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
        ChainBook book = new ChainBook(layers.keySet());
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
        long asOf = book.asOf();
        Map<String, Double> direct = new HashMap<>();
        Map<String, Double> directBefore = new HashMap<>();
        Map<String, Double> squeeze = new HashMap<>();
        Map<String, Double> squeezeBefore = new HashMap<>();
        Map<String, Map<String, SqueezeSource>> squeezedBy = new HashMap<>();
        layers.keySet().forEach(id -> {
            direct.put(id, own(book, id, false));
            directBefore.put(id, own(book, id, true));
            squeeze.put(id, 0.0);
            squeezeBefore.put(id, 0.0);
            squeezedBy.put(id, new TreeMap<>());
        });
        if (inheritance.rule() != Inheritance.Rule.SUM) {
            Map<String, Map<String, Double>> coef = coefficients(direct);
            Map<String, Map<String, Double>> coefBefore = coefficients(directBefore);
            for (String id : layers.keySet()) {
                double received = 0;
                for (Map.Entry<String, Double> c : coef.get(id).entrySet()) {
                    String origin = c.getKey();
                    double amount = c.getValue() * direct.get(origin);
                    received += amount;
                    if (amount == 0) {
                        continue;
                    }
                    int h = reach.get(origin).getOrDefault(id, 1);
                    double scale = roundScale(ownScale(book, origin) * c.getValue() / Math.pow(ATTENUATION, h));
                    squeezedBy.get(id).put(origin, new SqueezeSource(origin, amount, h, scale));
                }
                squeeze.put(id, received);
                double before = 0;
                for (Map.Entry<String, Double> c : coefBefore.get(id).entrySet()) {
                    before += c.getValue() * directBefore.get(c.getKey());
                }
                squeezeBefore.put(id, before);
            }
        }
        for (String origin : inheritance.rule() == Inheritance.Rule.SUM ? layers.keySet() : Set.<String>of()) {
            double p = direct.get(origin);
            double pb = directBefore.get(origin);
            double scale = roundScale(ownScale(book, origin));
            reach.get(origin).forEach((down, h) -> {
                double factor = Math.pow(ATTENUATION, h);
                if (squeezes(p)) {
                    squeeze.merge(down, factor * p, Double::sum);
                    squeezedBy.get(down).put(origin, new SqueezeSource(origin, factor * p, h, scale));
                }
                if (squeezes(pb)) {
                    squeezeBefore.merge(down, factor * pb, Double::sum);
                }
            });
        }
        Map<String, LayerState> out = new TreeMap<>();
        for (ChainLayer layer : layers.values()) {
            String id = layer.getId();
            ChainBook.Sums own = book.sums(id);
            double ownScale = roundScale(ownScale(book, id));
            double pressure = direct.get(id) + squeeze.get(id);
            double delta = pressure - (directBefore.get(id) + squeezeBefore.get(id));
            Trend trend = delta > TREND_EPSILON ? Trend.RISING : delta < -TREND_EPSILON ? Trend.FALLING : Trend.STEADY;
            Collection<SqueezeSource> sources = squeezedBy.get(id).values();
            List<Cause> top = topCauses(book, id, ownScale, sources, asOf);
            List<SignalCause> causes = new ArrayList<>();
            double listed = 0;
            for (Cause c : top) {
                listed += c.contribution;
                causes.add(SignalCause.newBuilder()
                    .setSignalId(c.entry.id)
                    .setHeadline(c.entry.headline)
                    .setDirection(c.entry.direction)
                    .setOriginLayer(c.origin)
                    .setHops(c.hops)
                    .setContribution(round(c.contribution))
                    .setSource(c.entry.sourceUrl.isEmpty() && c.entry.sourceName.isEmpty() ? null
                            : new io.chainfeed.avro.Source(c.entry.sourceName, c.entry.sourceUrl))
                    .setUntil(c.entry.until)
                    .setShare(c.entry.share(c.origin))
                    .build());
            }
            int total = own.count;
            for (SqueezeSource src : sources) {
                total += book.sums(src.getLayerId()).count;
            }
            List<SqueezeSource> rounded = sources.stream()
                .map(src -> new SqueezeSource(src.getLayerId(), round(src.getAmount()), src.getHops(), src.getScale()))
                .toList();
            out.put(id,
                    LayerState.newBuilder()
                        .setId(id)
                        .setName(layer.getName())
                        .setPressure(round(pressure))
                        .setStatus(statusRule.status(pressure, normal.get(id)))
                        .setTrend(trend)
                        .setDirectPressure(round(direct.get(id)))
                        .setSqueezeReceived(round(squeeze.get(id)))
                        .setRawDirectPressure(round(own.direct))
                        .setDirectScale(ownScale)
                        .setSqueezedBy(rounded)
                        .setCauses(causes)
                        .setOtherCauseCount(total - causes.size())
                        .setOtherCauseTotal(round(pressure - listed))
                        .setOwners(owners.getOrDefault(id, List.of()))
                        .setSqueezed(squeezes(direct.get(id)) ? squeezed(id, tighteners(top)) : List.of())
                        .setSignalCount(own.count)
                        .setAsOf(java.time.Instant.ofEpochMilli(asOf))
                        .setVersion(asOf)
                        .build());
        }
        return out;
    }

    /**
     * A layer's own pressure: the soft-capped decayed sum of its signals, or that sum
     * over {@code k +} its coverage when the status rule normalises.
     * @param before at the trend window's start instead of {@code asOf}
     */
    private double own(ChainBook book, String id, boolean before) {
        ChainBook.Sums s = book.sums(id);
        double raw = before ? s.before : s.direct;
        if (!statusRule.normalised()) {
            return ChainDecay.softCap(raw);
        }
        return raw / (statusRule.coverageK() + coverage(book, id, before));
    }

    /** The factor from a layer's raw sum to its own pressure (at {@code asOf}). */
    private double ownScale(ChainBook book, String id) {
        return statusRule.normalised() ? 1 / (statusRule.coverageK() + coverage(book, id, false))
                : ChainDecay.softCapScale(book.sums(id).direct);
    }

    /**
     * A layer's coverage: {@code Σ share × 2^(−max(0, at − decayStart) / H)} over its
     * counted signals observed by {@code at} ({@code asOf}, or the trend window's start).
     */
    static double coverage(ChainBook book, String id, boolean before) {
        long at = before ? book.asOf() - TREND_WINDOW_DAYS * DAY_MS : book.asOf();
        double c = 0;
        for (ChainBook.Entry e : book.sums(id).byWeight) {
            if (e.observedAt <= at) {
                c += e.share(id) * Math.pow(2, -Math.max(0, at - e.decayStart) / ChainDecay.HALF_LIFE_MS);
            }
        }
        return c;
    }

    /**
     * Every layer's pressure ({@code own + inherited}) from a book, without the rest of
     * the state: what the weekly samples of the normal are made of.
     * @param book the kept signals
     * @return the pressure of each layer
     */
    Map<String, Double> pressures(ChainBook book) {
        Map<String, Double> own = new HashMap<>();
        layers.keySet().forEach(id -> own.put(id, own(book, id, false)));
        Map<String, Double> p = new HashMap<>(own);
        if (inheritance.rule() != Inheritance.Rule.SUM) {
            coefficients(own).forEach((id, coef) -> coef.forEach((o, k) -> p.merge(id, k * own.get(o), Double::sum)));
        }
        else {
            for (String origin : layers.keySet()) {
                double d = own.get(origin);
                if (squeezes(d)) {
                    reach.get(origin).forEach((down, h) -> p.merge(down, Math.pow(ATTENUATION, h) * d, Double::sum));
                }
            }
        }
        return p;
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
        return StatusRule.BASE_TO.plusDays(1).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli() - 1;
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
            java.time.LocalDate first = byTime.get(0).getObservedAt().atZone(java.time.ZoneOffset.UTC).toLocalDate();
            java.time.LocalDate sunday = first
                .with(java.time.temporal.TemporalAdjusters.nextOrSame(java.time.DayOfWeek.SUNDAY));
            for (long t = sunday.plusDays(1).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli()
                    - 1; t <= until; t += WEEK_MS) {
                times.add(t);
            }
        }
        Map<String, double[]> out = new TreeMap<>();
        layers.keySet().forEach(id -> out.put(id, new double[times.size()]));
        ChainBook book = new ChainBook(layers.keySet());
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
            pressures(book).forEach((id, p) -> out.get(id)[j] = round(p));
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
            from = StatusRule.BASE_FROM.atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
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
        weekly.pressure().forEach((id, v) -> out.put(id, java.util.Arrays.copyOfRange(v, a, b)));
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
     * The bounded rules' inheritance as a linear map: per layer, per upstream origin, the
     * coefficient {@code k} such that {@code P(l) = own(l) + Σ k(o) × own(o)}. A supplier
     * passes on {@code A × w × (1 + its own coefficients)} while its total pressure is
     * positive (only tightening is inherited); {@code w} is 1 for the tightest supplier
     * ({@link Rule#MAX}, ties to the first in id order) or {@code 1/n} for each of n
     * ({@link Rule#AVG}).
     * @param own each layer's own (capped direct) pressure
     * @return the coefficients per layer (empty for a layer that inherits nothing)
     */
    Map<String, Map<String, Double>> coefficients(Map<String, Double> own) {
        Map<String, Map<String, Double>> coef = new HashMap<>();
        Map<String, Double> total = new HashMap<>();
        for (String id : layers.keySet()) {
            resolve(id, own, coef, total, new LinkedHashSet<>());
        }
        return coef;
    }

    private double resolve(String id, Map<String, Double> own, Map<String, Map<String, Double>> coef,
            Map<String, Double> total, Set<String> visiting) {
        Double known = total.get(id);
        if (known != null) {
            return known;
        }
        Map<String, Double> c = new TreeMap<>();
        if (visiting.add(id)) {
            List<String> ups = suppliers.get(id);
            double a = inheritance.attenuation();
            if (inheritance.rule() == Inheritance.Rule.MAX) {
                String best = null;
                double bestP = 0;
                for (String u : ups) {
                    double p = resolve(u, own, coef, total, visiting);
                    if (p > bestP) {
                        best = u;
                        bestP = p;
                    }
                }
                if (best != null) {
                    inherit(c, best, a, coef.get(best));
                }
            }
            else {
                for (String u : ups) {
                    if (resolve(u, own, coef, total, visiting) > 0) {
                        inherit(c, u, a / ups.size(), coef.get(u));
                    }
                }
            }
            visiting.remove(id);
        }
        double p = own.get(id);
        for (Map.Entry<String, Double> e : c.entrySet()) {
            p += e.getValue() * own.get(e.getKey());
        }
        coef.put(id, c);
        total.put(id, p);
        return p;
    }

    private static void inherit(Map<String, Double> into, String supplier, double weight, Map<String, Double> its) {
        into.merge(supplier, weight, Double::sum);
        its.forEach((origin, k) -> into.merge(origin, weight * k, Double::sum));
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

    /** One listed cause before rounding. */
    private record Cause(ChainBook.Entry entry, String origin, int hops, double key, double contribution) {
    }

    private static final Comparator<Cause> CAUSE_ORDER = Comparator.comparingDouble((Cause c) -> -c.key)
        .thenComparing(c -> c.entry.id)
        .thenComparing(Cause::origin)
        .thenComparingInt(Cause::hops);

    /**
     * The first {@value #TOP_CAUSES} of each contributing list, merged: the layer's own
     * signals and each squeezing layer's.
     */
    private List<Cause> topCauses(ChainBook book, String id, double ownScale, Collection<SqueezeSource> sources,
            long asOf) {
        List<Cause> all = new ArrayList<>();
        collect(book, id, 0, ownScale, asOf, all);
        sources.forEach(src -> collect(book, src.getLayerId(), src.getHops(), src.getScale(), asOf, all));
        all.sort(CAUSE_ORDER);
        return all.size() > TOP_CAUSES ? List.copyOf(all.subList(0, TOP_CAUSES)) : all;
    }

    /**
     * The first causes of one origin's list: raw contributions for the cut-off and order,
     * scaled by the soft cap for the value.
     */
    private static void collect(ChainBook book, String origin, int hops, double scale, long asOf, List<Cause> into) {
        int n = 0;
        for (ChainBook.Entry e : book.sums(origin).byWeight) {
            double c = ChainDecay.contribution(e.direction, e.magnitude, e.decayStart, asOf, hops, e.share(origin));
            if (Math.abs(c) < MIN_CAUSE || n++ == TOP_CAUSES) {
                break;
            }
            into.add(new Cause(e, origin, hops, ChainDecay.weightAt(e.weightIn(origin), hops), c * scale));
        }
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
        return ChainSegments.share(signal.getSegment(), layer) * contribution(signal, asOf);
    }

    /**
     * The tightening signals among the listed causes (net of their shares), largest
     * first, at most {@value #SQUEEZE_CAUSES}.
     */
    private static List<String> tighteners(List<Cause> causes) {
        Map<String, Double> bySignal = new LinkedHashMap<>();
        causes.forEach(c -> bySignal.merge(c.entry.id, c.contribution, Double::sum));
        return bySignal.entrySet()
            .stream()
            .filter(e -> e.getValue() > 0)
            .map(Map.Entry::getKey)
            .limit(SQUEEZE_CAUSES)
            .toList();
    }

    private List<SqueezedCompany> squeezed(String id, List<String> causes) {
        List<SqueezedCompany> out = new ArrayList<>();
        for (SqueezedCompany q : squeezable.get(id)) {
            out.add(SqueezedCompany.newBuilder(q).setCauses(causes).build());
        }
        return out;
    }

    private List<SqueezedCompany> squeezable(String id) {
        Map<String, Integer> hops = reach.get(id);
        Set<String> seen = new TreeSet<>();
        owners.getOrDefault(id, List.of()).forEach(c -> seen.add(c.getCompanyId()));
        List<SqueezedCompany> out = new ArrayList<>();
        for (String l : hops.keySet()) {
            for (LayerCompany c : owners.getOrDefault(l, List.of())) {
                if (seen.add(c.getCompanyId())) {
                    out.add(SqueezedCompany.newBuilder()
                        .setCompany(c)
                        .setViaLayer(l)
                        .setHops(hops.get(l))
                        .setCauses(List.of())
                        .build());
                }
            }
        }
        return out;
    }

    /**
     * Breadth-first downstream from a layer: every layer it reaches, with the fewest hops
     * (at least 1).
     */
    private Map<String, Integer> distances(String from) {
        Map<String, Integer> hops = new TreeMap<>();
        Deque<String> queue = new ArrayDeque<>();
        queue.add(from);
        Map<String, Integer> seen = new HashMap<>();
        seen.put(from, 0);
        while (!queue.isEmpty()) {
            String l = queue.poll();
            for (String d : downstream.get(l)) {
                if (!seen.containsKey(d)) {
                    seen.put(d, seen.get(l) + 1);
                    hops.put(d, seen.get(l) + 1);
                    queue.add(d);
                }
            }
        }
        return hops;
    }

    private static LayerCompany company(Company c) {
        String symbol = c.getListings().isEmpty() ? "" : c.getListings().get(0).getDisplaySymbol();
        return new LayerCompany(c.getId(), c.getName(), symbol);
    }

    /**
     * The soft cap's factor as published: to 8 decimals, so that sums equal to within
     * floating-point rounding (another arrival order) give the same state; far finer than
     * the 4 decimals of the contributions it scales.
     */
    static double roundScale(double v) {
        return Math.round(v * 100_000_000d) / 100_000_000d;
    }

    static double round(double v) {
        double r = Math.round(v * 10_000d) / 10_000d;
        return r == 0 ? 0.0 : r; // no -0.0
    }

}
