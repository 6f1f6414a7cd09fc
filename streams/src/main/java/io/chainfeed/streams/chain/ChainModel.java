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
 * The chain model: from the kept constraint signals (a {@link ChainBook}) and the reference data
 * (layers and companies) to the state of every layer. Nothing here depends on arrival order or wall
 * clock, so the same signals give the same state (sums equal to within floating-point rounding, far
 * below the four decimals published).
 *
 * <p><b>Decay.</b> Decay is computed at {@code asOf} = the newest {@code observedAt} of all signals
 * (event time). A signal {@code s} naming layer {@code l} contributes
 * <pre>  c(s) = sign(s) × magnitude(s) × 2^(−(asOf − observedAt(s)) / H)</pre>
 * with {@code sign} +1 for TIGHTENING and −1 for EASING, and half-life {@code H} =
 * {@value #HALF_LIFE_DAYS} days ({@link ChainDecay}). A signal naming several layers contributes
 * fully to each. {@code direct(l) = Σ c(s)} over the signals naming {@code l}; the
 * {@link ChainBook} keeps that sum up to date per signal (rebasing it by one multiplication when
 * {@code asOf} moves), so a signal costs the same however many are kept.
 *
 * <p><b>Propagation.</b> Squeeze flows downstream along the layer graph (from a layer to the layers
 * that name it as upstream), attenuated by {@code A} = {@value #ATTENUATION} per hop. Only layers
 * whose own direct pressure is positive squeeze others (slack upstream does not loosen a downstream
 * layer), and each does so once per downstream layer, along its shortest path, so a diamond in the
 * graph does not count a supplier twice:
 * <pre>  squeeze(l) = Σ over layers u upstream of l of A^hops(u,l) × max(0, direct(u))
 *  P(l)       = direct(l) + squeeze(l)</pre>
 * The attribution is linear: a signal's share of a downstream layer is {@code A^hops ×} its
 * contribution where it landed, so a layer's causes add up to its pressure (easing signals on a
 * tight layer appear as negative causes downstream).
 *
 * <p><b>Causes.</b> A layer lists its {@value #TOP_CAUSES} largest causes by absolute contribution
 * (ties by signal id, origin layer, hops; the order is by {@link ChainDecay#weight}, which never
 * changes as time passes), leaving out those under {@value ChainDecay#MIN_CAUSE}; the rest are
 * summed in {@code otherCauseCount} and {@code otherCauseTotal} ({@code pressure −} the listed
 * contributions). The full list is published per signal and layer on the chain-causes topic for
 * paging. {@code squeezedBy} names each squeezing layer with its hops.
 *
 * <p><b>Status.</b> {@code P ≤} {@value #LOOSE_BELOW} is LOOSE, {@code P <} {@value #TIGHT_FROM} is
 * BALANCED, {@code P <} {@value #CRITICAL_FROM} is TIGHT, above that CRITICAL.
 *
 * <p><b>Trend.</b> The pressure now against the pressure {@value #TREND_WINDOW_DAYS} days earlier
 * ({@code asOf − 7 d}, from the signals observed by then): a rise of more than
 * {@value #TREND_EPSILON} is RISING, a fall of more than that FALLING, otherwise STEADY.
 *
 * <p>Owners of a layer are the companies whose primary or other layers include it. While a layer is
 * under positive pressure, the companies of every layer downstream of it are listed as squeezed,
 * each with the nearest such layer and the tightening signals among the layer's listed causes (at
 * most {@value #SQUEEZE_CAUSES}). Numbers are rounded to four decimals.
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
     * Signals older than this many half-lives before {@code asOf} weigh less than 2^-30 of their
     * magnitude (under 5e-9): the topology forgets them, which no rounded number shows.
     */
    public static final int FORGET_AFTER_HALF_LIVES = 30;
    /** Most causes a layer state lists. */
    public static final int TOP_CAUSES = 20;
    /** Most signal ids a squeezed company lists. */
    public static final int SQUEEZE_CAUSES = 5;
    /** Causes smaller than this (absolute) are left out of the lists; they still count in the sums. */
    static final double MIN_CAUSE = ChainDecay.MIN_CAUSE;

    private final Map<String, ChainLayer> layers = new TreeMap<>();
    private final Map<String, List<String>> downstream = new TreeMap<>();
    private final Map<String, List<LayerCompany>> owners = new TreeMap<>();
    /** Per layer: every layer downstream of it with the fewest hops, in id order. */
    private final Map<String, Map<String, Integer>> reach = new TreeMap<>();
    /** Per layer: the companies squeezed while it is tight (company, nearest layer, hops), without causes. */
    private final Map<String, List<SqueezedCompany>> squeezable = new TreeMap<>();

    /**
     * @param layerList   the chain layers (id, name, upstream ids)
     * @param companyList the companies (primary layer and other layers, listings)
     */
    public ChainModel(Collection<ChainLayer> layerList, Collection<Company> companyList) {
        layerList.forEach(l -> layers.put(l.getId(), l));
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

    /** @return the known layer ids, in id order */
    public Set<String> layerIds() {
        return layers.keySet();
    }

    /**
     * Computes every layer's state from scratch (for tests and one-off use; the topology keeps a
     * {@link ChainBook} instead).
     *
     * @param signals all known signals, in any order (one per id)
     * @return the state of each layer, by layer id in id order; {@code asOf} 0 when there are no signals
     */
    public Map<String, LayerState> compute(Collection<ConstraintSignal> signals) {
        ChainBook book = new ChainBook(layers.keySet());
        List<ConstraintSignal> sorted = new ArrayList<>(signals);
        sorted.sort(Comparator.comparing(ConstraintSignal::getId));
        sorted.forEach(book::put);
        return states(book);
    }

    /**
     * Every layer's state as of an instant, from the signals observed by then ({@code observedAt ≤
     * asOf}), with decay, the trend window and forgetting measured at {@code asOf}: the live rules
     * with {@code asOf} named instead of taken from the newest signal. The signals go through the same
     * {@link ChainBook} and {@link #states} as the live topology's, so every rule of the model applies
     * unchanged. Cost: O(n log n) for the n signals given, plus one {@link #states} call.
     *
     * @param signals the kept signals, in any order (one per id); those observed after {@code asOf} are left out
     * @param asOf    the instant, epoch ms (UTC)
     * @return the state of each layer, by layer id in id order, each with {@code asOf} = the instant
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
        return states(book);
    }

    /**
     * The chain at evenly spaced instants {@code from, from + step, ...} ({@code points} of them), each
     * equal to {@link #statesAt} at that instant, in one pass: the signals are put into one
     * {@link ChainBook} in time order and the book is advanced from instant to instant, so the cost
     * is O(n log n + points × cost of {@link #states}) instead of {@code points} computations from
     * scratch.
     *
     * @param signals the kept signals, in any order (one per id)
     * @param from    the first instant, epoch ms (UTC)
     * @param step    the time between instants, ms, at least 1
     * @param points  how many instants, at least 1
     * @param each    called once per instant, in time order, with the instant (epoch ms) and every
     *                layer's state then (by layer id); the map is not kept by this method
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
        int next = 0;
        for (int i = 0; i < points; i++) {
            long at = from + i * step;
            while (next < byTime.size() && byTime.get(next).getObservedAt().toEpochMilli() <= at) {
                book.put(byTime.get(next++));
            }
            book.advanceTo(at);
            each.accept(at, states(book));
        }
    }

    /**
     * Every layer's state from a book's sums: O(layers² + layers × {@value #TOP_CAUSES}), independent
     * of the number of kept signals.
     *
     * @param book the kept signals, built for this model's layers
     * @return the state of each layer, by layer id in id order; {@code asOf} 0 when there are no signals
     */
    public Map<String, LayerState> states(ChainBook book) {
        long asOf = book.asOf();
        Map<String, Double> squeeze = new HashMap<>();
        Map<String, Double> squeezeBefore = new HashMap<>();
        Map<String, Map<String, SqueezeSource>> squeezedBy = new HashMap<>();
        layers.keySet().forEach(id -> {
            squeeze.put(id, 0.0);
            squeezeBefore.put(id, 0.0);
            squeezedBy.put(id, new TreeMap<>());
        });
        for (String origin : layers.keySet()) {
            double p = book.sums(origin).direct;
            double pb = book.sums(origin).before;
            reach.get(origin).forEach((down, h) -> {
                double factor = Math.pow(ATTENUATION, h);
                if (p > 0) {
                    squeeze.merge(down, factor * p, Double::sum);
                    squeezedBy.get(down).put(origin, new SqueezeSource(origin, factor * p, h));
                }
                if (pb > 0) {
                    squeezeBefore.merge(down, factor * pb, Double::sum);
                }
            });
        }
        Map<String, LayerState> out = new TreeMap<>();
        for (ChainLayer layer : layers.values()) {
            String id = layer.getId();
            ChainBook.Sums own = book.sums(id);
            double pressure = own.direct + squeeze.get(id);
            double delta = pressure - (own.before + squeezeBefore.get(id));
            Trend trend = delta > TREND_EPSILON ? Trend.RISING : delta < -TREND_EPSILON ? Trend.FALLING : Trend.STEADY;
            Collection<SqueezeSource> sources = squeezedBy.get(id).values();
            List<Cause> top = topCauses(book, id, sources, asOf);
            List<SignalCause> causes = new ArrayList<>();
            double listed = 0;
            for (Cause c : top) {
                listed += c.contribution;
                causes.add(SignalCause.newBuilder().setSignalId(c.entry.id).setHeadline(c.entry.headline)
                        .setDirection(c.entry.direction).setOriginLayer(c.origin).setHops(c.hops)
                        .setContribution(round(c.contribution)).build());
            }
            int total = own.count;
            for (SqueezeSource src : sources) {
                total += book.sums(src.getLayerId()).count;
            }
            List<SqueezeSource> rounded = sources.stream()
                    .map(src -> new SqueezeSource(src.getLayerId(), round(src.getAmount()), src.getHops())).toList();
            out.put(id, LayerState.newBuilder()
                    .setId(id).setName(layer.getName())
                    .setPressure(round(pressure)).setStatus(status(pressure)).setTrend(trend)
                    .setDirectPressure(round(own.direct)).setSqueezeReceived(round(squeeze.get(id)))
                    .setSqueezedBy(rounded).setCauses(causes)
                    .setOtherCauseCount(total - causes.size()).setOtherCauseTotal(round(pressure - listed))
                    .setOwners(owners.getOrDefault(id, List.of()))
                    .setSqueezed(pressure > 0 ? squeezed(id, tighteners(top)) : List.of())
                    .setSignalCount(own.count)
                    .setAsOf(java.time.Instant.ofEpochMilli(asOf)).setVersion(asOf)
                    .build());
        }
        return out;
    }

    /** One listed cause before rounding. */
    private record Cause(ChainBook.Entry entry, String origin, int hops, double key, double contribution) {
    }

    private static final Comparator<Cause> CAUSE_ORDER = Comparator.comparingDouble((Cause c) -> -c.key)
            .thenComparing(c -> c.entry.id).thenComparing(Cause::origin).thenComparingInt(Cause::hops);

    /** The first {@value #TOP_CAUSES} of each contributing list, merged: the layer's own signals and each squeezing layer's. */
    private List<Cause> topCauses(ChainBook book, String id, Collection<SqueezeSource> sources, long asOf) {
        List<Cause> all = new ArrayList<>();
        collect(book, id, 0, asOf, all);
        sources.forEach(src -> collect(book, src.getLayerId(), src.getHops(), asOf, all));
        all.sort(CAUSE_ORDER);
        return all.size() > TOP_CAUSES ? List.copyOf(all.subList(0, TOP_CAUSES)) : all;
    }

    private static void collect(ChainBook book, String origin, int hops, long asOf, List<Cause> into) {
        int n = 0;
        for (ChainBook.Entry e : book.sums(origin).byWeight) {
            double c = ChainDecay.contribution(e.direction, e.magnitude, e.observedAt, asOf, hops);
            if (Math.abs(c) < MIN_CAUSE || n++ == TOP_CAUSES) {
                break;
            }
            into.add(new Cause(e, origin, hops, ChainDecay.weightAt(e.weight, hops), c));
        }
    }

    /** @return the status for a pressure */
    public static LayerStatus status(double pressure) {
        double p = round(pressure);
        if (p <= LOOSE_BELOW) {
            return LayerStatus.LOOSE;
        }
        if (p < TIGHT_FROM) {
            return LayerStatus.BALANCED;
        }
        return p < CRITICAL_FROM ? LayerStatus.TIGHT : LayerStatus.CRITICAL;
    }

    /**
     * The weight of one signal at an instant.
     *
     * @param signal the signal
     * @param asOf   the instant (epoch ms), not before it was observed for a full weight
     * @return {@code sign × magnitude × 2^(−age / half-life)}
     */
    public static double contribution(ConstraintSignal signal, long asOf) {
        return ChainDecay.contribution(signal.getDirection(), signal.getMagnitude(),
                signal.getObservedAt().toEpochMilli(), asOf, 0);
    }

    /** The tightening signals among the listed causes (net of their shares), largest first, at most {@value #SQUEEZE_CAUSES}. */
    private static List<String> tighteners(List<Cause> causes) {
        Map<String, Double> bySignal = new LinkedHashMap<>();
        causes.forEach(c -> bySignal.merge(c.entry.id, c.contribution, Double::sum));
        return bySignal.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey)
                .limit(SQUEEZE_CAUSES).toList();
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
                    out.add(SqueezedCompany.newBuilder().setCompany(c).setViaLayer(l).setHops(hops.get(l))
                            .setCauses(List.of()).build());
                }
            }
        }
        return out;
    }

    /** Breadth-first downstream from a layer: every layer it reaches, with the fewest hops (at least 1). */
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

    static double round(double v) {
        double r = Math.round(v * 10_000d) / 10_000d;
        return r == 0 ? 0.0 : r; // no -0.0
    }
}
