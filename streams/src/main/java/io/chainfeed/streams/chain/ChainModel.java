package io.chainfeed.streams.chain;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.avro.Trend;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The chain model: a pure function from a set of constraint signals and the reference data (layers
 * and companies) to the state of every layer. Nothing here depends on arrival order or wall clock,
 * so the same signals always give the same state.
 *
 * <p><b>Decay.</b> Decay is computed at {@code asOf} = the newest {@code observedAt} of all signals
 * (event time). A signal {@code s} naming layer {@code l} contributes
 * <pre>  c(s) = sign(s) × magnitude(s) × 2^(−(asOf − observedAt(s)) / H)</pre>
 * with {@code sign} +1 for TIGHTENING and −1 for EASING, and half-life {@code H} =
 * {@value #HALF_LIFE_DAYS} days. A signal naming several layers contributes fully to each.
 * {@code direct(l) = Σ c(s)} over the signals naming {@code l}.
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
 * <p><b>Status.</b> {@code P ≤} {@value #LOOSE_BELOW} is LOOSE, {@code P <} {@value #TIGHT_FROM} is
 * BALANCED, {@code P <} {@value #CRITICAL_FROM} is TIGHT, above that CRITICAL.
 *
 * <p><b>Trend.</b> The pressure now against the pressure {@value #TREND_WINDOW_DAYS} days earlier
 * ({@code asOf − 7 d}, from the signals observed by then): a rise of more than
 * {@value #TREND_EPSILON} is RISING, a fall of more than that FALLING, otherwise STEADY.
 *
 * <p>Owners of a layer are the companies whose primary or other layers include it. While a layer is
 * under positive pressure, the companies of every layer downstream of it are listed as squeezed,
 * each with the nearest such layer and the signals tightening this one. Numbers are rounded to four
 * decimals.
 */
public final class ChainModel {
    /** Half-life of a signal's weight, in days. */
    public static final double HALF_LIFE_DAYS = 14;
    /** Share of a layer's positive pressure passed to each direct downstream layer. */
    public static final double ATTENUATION = 0.5;
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
    /** Causes smaller than this (absolute) are left out of the lists; they still count in the sums. */
    static final double MIN_CAUSE = 0.0001;

    private static final double HALF_LIFE_MS = Duration.ofDays(1).toMillis() * HALF_LIFE_DAYS;

    private final Map<String, ChainLayer> layers = new TreeMap<>();
    private final Map<String, List<String>> downstream = new TreeMap<>();
    private final Map<String, List<LayerCompany>> owners = new TreeMap<>();

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
    }

    /**
     * Computes every layer's state.
     *
     * @param signals all known signals, in any order (one per id)
     * @return the state of each layer, by layer id in id order; {@code asOf} 0 when there are no signals
     */
    public Map<String, LayerState> compute(Collection<ConstraintSignal> signals) {
        List<ConstraintSignal> sorted = new ArrayList<>(signals);
        sorted.sort(Comparator.comparing(ConstraintSignal::getId));
        long asOf = sorted.stream().mapToLong(x -> x.getObservedAt().toEpochMilli()).max().orElse(0L);
        Attribution now = attribute(sorted, asOf);
        long earlier = asOf - Duration.ofDays(TREND_WINDOW_DAYS).toMillis();
        Attribution before = attribute(sorted.stream().filter(s -> s.getObservedAt().toEpochMilli() <= earlier).toList(), earlier);

        Map<String, ConstraintSignal> byId = new HashMap<>();
        sorted.forEach(s -> byId.put(s.getId(), s));
        Map<String, LayerState> out = new TreeMap<>();
        for (ChainLayer layer : layers.values()) {
            String id = layer.getId();
            double pressure = now.pressure(id);
            double delta = pressure - before.pressure(id);
            Trend trend = delta > TREND_EPSILON ? Trend.RISING : delta < -TREND_EPSILON ? Trend.FALLING : Trend.STEADY;
            List<SignalCause> causes = new ArrayList<>();
            for (Map.Entry<String, Double> e : now.causes.get(id).entrySet()) {
                if (Math.abs(e.getValue()) < MIN_CAUSE) {
                    continue;
                }
                CauseKey k = CauseKey.parse(e.getKey());
                ConstraintSignal s = byId.get(k.signalId);
                causes.add(SignalCause.newBuilder().setSignalId(s.getId()).setHeadline(s.getHeadline())
                        .setDirection(s.getDirection()).setOriginLayer(k.origin).setHops(k.hops)
                        .setContribution(round(e.getValue())).build());
            }
            causes.sort(Comparator.comparingDouble((SignalCause c) -> -Math.abs(c.getContribution()))
                    .thenComparing(SignalCause::getSignalId).thenComparing(SignalCause::getOriginLayer)
                    .thenComparingInt(SignalCause::getHops));
            List<SqueezeSource> squeezedBy = new ArrayList<>();
            now.squeezedBy.get(id).forEach((up, amount) -> squeezedBy.add(new SqueezeSource(up, round(amount))));
            out.put(id, LayerState.newBuilder()
                    .setId(id).setName(layer.getName())
                    .setPressure(round(pressure)).setStatus(status(pressure)).setTrend(trend)
                    .setDirectPressure(round(now.direct.get(id))).setSqueezeReceived(round(now.squeeze.get(id)))
                    .setSqueezedBy(squeezedBy).setCauses(causes)
                    .setOwners(owners.getOrDefault(id, List.of()))
                    .setSqueezed(pressure > 0 ? squeezed(id, tighteners(causes)) : List.of())
                    .setSignalCount(now.signalCount.get(id))
                    .setAsOf(java.time.Instant.ofEpochMilli(asOf)).setVersion(asOf)
                    .build());
        }
        return out;
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
        double age = Math.max(0, asOf - signal.getObservedAt().toEpochMilli());
        double sign = signal.getDirection() == Direction.TIGHTENING ? 1 : -1;
        return sign * signal.getMagnitude() * Math.pow(2, -age / HALF_LIFE_MS);
    }

    /**
     * @param signal a signal
     * @param asOf   the newest observedAt of all signals (epoch ms)
     * @return whether the signal is older than {@value #FORGET_AFTER_HALF_LIVES} half-lives at {@code asOf}
     */
    public static boolean forgotten(ConstraintSignal signal, long asOf) {
        return asOf - signal.getObservedAt().toEpochMilli() > FORGET_AFTER_HALF_LIVES * HALF_LIFE_MS;
    }

    private Attribution attribute(List<ConstraintSignal> signals, long asOf) {
        Attribution a = new Attribution();
        for (String id : layers.keySet()) {
            a.causes.put(id, new TreeMap<>());
            a.direct.put(id, 0.0);
            a.squeeze.put(id, 0.0);
            a.squeezedBy.put(id, new TreeMap<>());
            a.signalCount.put(id, 0);
        }
        for (ConstraintSignal s : signals) {
            double c = contribution(s, asOf);
            for (String layer : new TreeSet<>(s.getLayerHints())) {
                if (!layers.containsKey(layer)) {
                    continue;
                }
                a.direct.merge(layer, c, Double::sum);
                a.causes.get(layer).merge(new CauseKey(s.getId(), layer, 0).toString(), c, Double::sum);
                a.signalCount.merge(layer, 1, Integer::sum);
            }
        }
        for (String origin : layers.keySet()) {
            double p = a.direct.get(origin);
            if (p <= 0) {
                continue;
            }
            Map<String, Integer> hops = distances(origin);
            Map<String, Double> originCauses = new TreeMap<>(a.causes.get(origin));
            hops.forEach((down, h) -> {
                double factor = Math.pow(ATTENUATION, h);
                a.squeeze.merge(down, factor * p, Double::sum);
                a.squeezedBy.get(down).merge(origin, factor * p, Double::sum);
                Map<String, Double> target = a.causes.get(down);
                originCauses.forEach((key, value) -> {
                    CauseKey k = CauseKey.parse(key);
                    if (k.hops == 0) {
                        target.merge(new CauseKey(k.signalId, k.origin, h).toString(), factor * value, Double::sum);
                    }
                });
            });
        }
        return a;
    }

    private List<String> tighteners(List<SignalCause> causes) {
        Map<String, Double> bySignal = new TreeMap<>();
        causes.forEach(c -> bySignal.merge(c.getSignalId(), c.getContribution(), Double::sum));
        return bySignal.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey).toList();
    }

    private List<SqueezedCompany> squeezed(String id, List<String> causes) {
        Map<String, Integer> hops = distances(id);
        List<String> reached = new ArrayList<>(hops.keySet());
        Set<String> own = new TreeSet<>();
        owners.getOrDefault(id, List.of()).forEach(c -> own.add(c.getCompanyId()));
        Set<String> seen = new TreeSet<>(own);
        List<SqueezedCompany> out = new ArrayList<>();
        for (String l : reached) {
            for (LayerCompany c : owners.getOrDefault(l, List.of())) {
                if (seen.add(c.getCompanyId())) {
                    out.add(SqueezedCompany.newBuilder().setCompany(c).setViaLayer(l).setHops(hops.get(l))
                            .setCauses(causes).build());
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

    /** Per-layer sums of one evaluation. */
    private static final class Attribution {
        final Map<String, Double> direct = new HashMap<>();
        final Map<String, Double> squeeze = new HashMap<>();
        final Map<String, Map<String, Double>> causes = new HashMap<>();
        final Map<String, Map<String, Double>> squeezedBy = new HashMap<>();
        final Map<String, Integer> signalCount = new HashMap<>();

        double pressure(String id) {
            return direct.get(id) + squeeze.get(id);
        }
    }

    /** A signal's share of a layer, through a path of some length from the layer it named. */
    private record CauseKey(String signalId, String origin, int hops) {
        @Override
        public String toString() {
            return signalId + "\u0000" + origin + "\u0000" + hops;
        }

        static CauseKey parse(String s) {
            String[] p = s.split("\u0000", 3);
            return new CauseKey(p[0], p[1], Integer.parseInt(p[2]));
        }
    }
}
