package io.chainfeed.chain;

import static io.chainfeed.chain.ChainModel.ATTENUATION;
import static io.chainfeed.chain.ChainModel.TREND_EPSILON;
import static io.chainfeed.chain.ChainModel.TREND_WINDOW_DAYS;
import static io.chainfeed.chain.ChainModel.round;
import static io.chainfeed.chain.ChainModel.squeezes;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.avro.Trend;
import io.chainfeed.chain.ChainCauses.Cause;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * From a {@link ChainBook}'s sums to every layer's state at the book's {@code asOf}, by
 * the rules {@link ChainModel} describes: each layer's own pressure (soft-capped, or
 * normalised by its coverage), what it inherits from its suppliers under the model's
 * {@link Inheritance}, the trend, the status under the model's {@link StatusRule}, the
 * listed causes ({@link ChainCauses}) and the squeezed companies ({@link ChainGraph}).
 * O(layers² + layers × {@value ChainModel#TOP_CAUSES}) a call, independent of the number
 * of kept signals. Keeps nothing between calls.
 *
 * @param graph the layers and companies
 * @param inheritance how a layer inherits pressure from its suppliers
 * @param statusRule how a layer's own pressure is normalised and its status read
 */
record LayerStates(ChainGraph graph, Inheritance inheritance, StatusRule statusRule) {

    /**
     * Every layer's state from a book's sums, its status read against each layer's normal
     * ({@link ChainModel#normalAt}) under this model's {@link StatusRule}.
     * @param book the kept signals, built for this model's layers
     * @param normal per layer, its normal's samples (ignored under absolute thresholds; a
     * layer without samples is BALANCED under the others)
     * @return the state of each layer, by layer id in id order
     */
    Map<String, LayerState> states(ChainBook book, Map<String, double[]> normal) {
        long asOf = book.asOf();
        Map<String, Double> direct = new HashMap<>();
        Map<String, Double> directBefore = new HashMap<>();
        Map<String, Double> squeeze = new HashMap<>();
        Map<String, Double> squeezeBefore = new HashMap<>();
        Map<String, Map<String, SqueezeSource>> squeezedBy = new HashMap<>();
        graph.ids().forEach(id -> {
            direct.put(id, own(book, id, false));
            directBefore.put(id, own(book, id, true));
            squeeze.put(id, 0.0);
            squeezeBefore.put(id, 0.0);
            squeezedBy.put(id, new TreeMap<>());
        });
        if (inheritance.rule() != Inheritance.Rule.SUM) {
            Map<String, Map<String, Double>> coef = coefficients(direct);
            Map<String, Map<String, Double>> coefBefore = coefficients(directBefore);
            for (String id : graph.ids()) {
                double received = 0;
                for (Map.Entry<String, Double> c : coef.get(id).entrySet()) {
                    String origin = c.getKey();
                    double amount = c.getValue() * direct.get(origin);
                    received += amount;
                    if (amount == 0) {
                        continue;
                    }
                    int h = graph.reach(origin).getOrDefault(id, 1);
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
        for (String origin : inheritance.rule() == Inheritance.Rule.SUM ? graph.ids() : Set.<String>of()) {
            double p = direct.get(origin);
            double pb = directBefore.get(origin);
            double scale = roundScale(ownScale(book, origin));
            graph.reach(origin).forEach((down, h) -> {
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
        for (ChainLayer layer : graph.layers()) {
            String id = layer.getId();
            LayerSums own = book.sums(id);
            double ownScale = roundScale(ownScale(book, id));
            double pressure = direct.get(id) + squeeze.get(id);
            double delta = pressure - (directBefore.get(id) + squeezeBefore.get(id));
            Trend trend = delta > TREND_EPSILON ? Trend.RISING : delta < -TREND_EPSILON ? Trend.FALLING : Trend.STEADY;
            Collection<SqueezeSource> sources = squeezedBy.get(id).values();
            List<Cause> top = ChainCauses.top(book, id, ownScale, sources, asOf);
            List<SignalCause> causes = new ArrayList<>();
            double listed = 0;
            for (Cause c : top) {
                listed += c.contribution();
                causes.add(SignalCause.newBuilder()
                    .setSignalId(c.entry().id)
                    .setHeadline(c.entry().headline)
                    .setDirection(c.entry().direction)
                    .setOriginLayer(c.origin())
                    .setHops(c.hops())
                    .setContribution(round(c.contribution()))
                    .setSource(c.entry().sourceUrl.isEmpty() && c.entry().sourceName.isEmpty() ? null
                            : new Source(c.entry().sourceName, c.entry().sourceUrl))
                    .setUntil(c.entry().until)
                    .setShare(c.entry().share(c.origin()))
                    .build());
            }
            int total = own.count;
            for (SqueezeSource src : sources) {
                total += book.sums(src.getLayerId()).count;
            }
            List<SqueezeSource> rounded = sources.stream()
                .map(src -> new SqueezeSource(src.getLayerId(), round(src.getAmount()), src.getHops(), src.getScale()))
                .toList();
            out.put(id, LayerState.newBuilder()
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
                .setOwners(graph.owners(id))
                .setSqueezed(squeezes(direct.get(id)) ? graph.squeezed(id, ChainCauses.tighteners(top)) : List.of())
                .setSignalCount(own.count)
                .setAsOf(Instant.ofEpochMilli(asOf))
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
        LayerSums s = book.sums(id);
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
        long at = before ? book.asOf() - TREND_WINDOW_DAYS * ChainModel.DAY_MS : book.asOf();
        double c = 0;
        for (BookEntry e : book.sums(id).byWeight) {
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
        graph.ids().forEach(id -> own.put(id, own(book, id, false)));
        Map<String, Double> p = new HashMap<>(own);
        if (inheritance.rule() != Inheritance.Rule.SUM) {
            coefficients(own).forEach((id, coef) -> coef.forEach((o, k) -> p.merge(id, k * own.get(o), Double::sum)));
        }
        else {
            for (String origin : graph.ids()) {
                double d = own.get(origin);
                if (squeezes(d)) {
                    graph.reach(origin).forEach((down, h) -> p.merge(down, Math.pow(ATTENUATION, h) * d, Double::sum));
                }
            }
        }
        return p;
    }

    /**
     * The bounded rules' inheritance as a linear map: per layer, per upstream origin, the
     * coefficient {@code k} such that {@code P(l) = own(l) + Σ k(o) × own(o)}. A supplier
     * passes on {@code A × w × (1 + its own coefficients)} while its total pressure is
     * positive (only tightening is inherited); {@code w} is 1 for the tightest supplier
     * ({@link Inheritance.Rule#MAX}, ties to the first in id order) or {@code 1/n} for
     * each of n ({@link Inheritance.Rule#AVG}).
     * @param own each layer's own (capped direct) pressure
     * @return the coefficients per layer (empty for a layer that inherits nothing)
     */
    Map<String, Map<String, Double>> coefficients(Map<String, Double> own) {
        Map<String, Map<String, Double>> coef = new HashMap<>();
        Map<String, Double> total = new HashMap<>();
        for (String id : graph.ids()) {
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
            List<String> ups = graph.suppliers(id);
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
     * The soft cap's factor as published: to 8 decimals, so that sums equal to within
     * floating-point rounding (another arrival order) give the same state; far finer than
     * the 4 decimals of the contributions it scales.
     */
    static double roundScale(double v) {
        return Math.round(v * 100_000_000d) / 100_000_000d;
    }

}
