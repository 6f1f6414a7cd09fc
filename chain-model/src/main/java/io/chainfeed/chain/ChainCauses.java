package io.chainfeed.chain;

import io.chainfeed.avro.SqueezeSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The causes a layer state lists ({@link ChainModel}, <b>Causes</b>): the largest
 * contributions of the layer's own signals and of each squeezing layer's, read from a
 * {@link ChainBook}'s per-layer order in O(causes listed), and the tightening signals
 * among them that a squeezed company names.
 */
final class ChainCauses {

    /** One listed cause before rounding. */
    record Cause(BookEntry entry, String origin, int hops, double key, double contribution) {
    }

    private static final Comparator<Cause> CAUSE_ORDER = Comparator.comparingDouble((Cause c) -> -c.key)
        .thenComparing(c -> c.entry.id)
        .thenComparing(Cause::origin)
        .thenComparingInt(Cause::hops);

    private ChainCauses() {
    }

    /**
     * The first {@value ChainModel#TOP_CAUSES} of each contributing list, merged: the
     * layer's own signals and each squeezing layer's.
     * @param book the kept signals
     * @param id the layer
     * @param ownScale the soft cap's factor of the layer's own signals
     * @param sources the squeezing layers, each with its hops and factor
     * @param asOf the instant the contributions are taken at (epoch ms)
     * @return the causes, largest first (by weight; then signal id, origin, hops)
     */
    static List<Cause> top(ChainBook book, String id, double ownScale, Collection<SqueezeSource> sources, long asOf) {
        List<Cause> all = new ArrayList<>();
        collect(book, id, 0, ownScale, asOf, all);
        sources.forEach(src -> collect(book, src.getLayerId(), src.getHops(), src.getScale(), asOf, all));
        all.sort(CAUSE_ORDER);
        return all.size() > ChainModel.TOP_CAUSES ? List.copyOf(all.subList(0, ChainModel.TOP_CAUSES)) : all;
    }

    /**
     * The first causes of one origin's list: raw contributions for the cut-off and order,
     * scaled by the soft cap for the value.
     */
    private static void collect(ChainBook book, String origin, int hops, double scale, long asOf, List<Cause> into) {
        int n = 0;
        for (BookEntry e : book.sums(origin).byWeight) {
            double c = ChainDecay.contribution(e.direction, e.magnitude, e.decayStart, asOf, hops, e.share(origin));
            if (Math.abs(c) < ChainModel.MIN_CAUSE || n++ == ChainModel.TOP_CAUSES) {
                break;
            }
            into.add(new Cause(e, origin, hops, ChainDecay.weightAt(e.weightIn(origin), hops), c * scale));
        }
    }

    /**
     * The tightening signals among the listed causes (net of their shares), largest
     * first, at most {@value ChainModel#SQUEEZE_CAUSES}.
     * @param causes the listed causes
     * @return their signal ids
     */
    static List<String> tighteners(List<Cause> causes) {
        Map<String, Double> bySignal = new LinkedHashMap<>();
        causes.forEach(c -> bySignal.merge(c.entry.id, c.contribution, Double::sum));
        return bySignal.entrySet()
            .stream()
            .filter(e -> e.getValue() > 0)
            .map(Map.Entry::getKey)
            .limit(ChainModel.SQUEEZE_CAUSES)
            .toList();
    }

}
