package io.chainfeed.schemas;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The segments of chain layers whose market is reported in parts that can diverge, and
 * each segment's share of its layer's market (issue 24). A signal may speak of one
 * segment alone ({@code ConstraintSignal.segment}); the chain model then weighs it in
 * that layer by the segment's share, and in full in the other layers it names, so a
 * layer's direct pressure is the share-weighted mean of its segments' pressures, each
 * segment's pressure being the layer-wide signals plus its own:
 * <pre>  raw(l) = U + Σ_s share(s) × S_s = Σ_s share(s) × (U + S_s)</pre> with {@code U}
 * the decayed sum of the layer's unsegmented signals and {@code S_s} that of segment
 * {@code s}'s (the shares of a layer add up to 1). A layer with no segmented signal is as
 * before.
 *
 * <p>
 * The shares are revenue shares from public figures, not fitted to the backtest:
 * <ul>
 * <li>memory: {@code hbm} 0.15, {@code conventional} (commodity DRAM and NAND) 0.85.
 * TrendForce (July 2024) put HBM at 20% of DRAM revenue in 2024 ($90.7bn DRAM, $67.4bn
 * NAND: about 11.5% of memory) and above 30% in 2025 (about 18%);</li>
 * <li>foundry: {@code leading-edge} (7 nm class and below) 0.5, {@code mature} 0.5.
 * TSMC's 7 nm-and-below nodes were 67-74% of its wafer revenue through 2024, and TSMC
 * about 65-67% of foundry revenue (TrendForce's top-ten rankings); the rest of the market
 * is mostly mature nodes.</li>
 * </ul>
 * The pages each figure was checked against are listed in {@code docs/chain-model.md}
 * (Segments).
 */
public final class ChainSegments {

    /**
     * One segment.
     *
     * @param layer the layer id it belongs to
     * @param id the segment id, unique across layers
     * @param share its share of the layer's market, in (0, 1]
     */
    public record Segment(String layer, String id, double share) {

        /**
         * @param layerId a layer a signal of this segment names
         * @return {@link #share} in this segment's own layer, else 1
         */
        public double shareIn(String layerId) {
            return layer.equals(layerId) ? share : 1.0;
        }

    }

    /** Every segment, by layer then id. */
    public static final List<Segment> ALL = List.of(new Segment("foundry", "leading-edge", 0.5),
            new Segment("foundry", "mature", 0.5), new Segment("memory", "conventional", 0.85),
            new Segment("memory", "hbm", 0.15));

    private static final Map<String, Segment> BY_ID = new TreeMap<>();

    static {
        ALL.forEach(s -> BY_ID.put(s.id(), s));
    }

    private ChainSegments() {
    }

    /**
     * @param id a segment id
     * @return the segment, or null when no layer has it
     */
    public static Segment of(String id) {
        return id == null ? null : BY_ID.get(id);
    }

    /**
     * @return the segment ids, in id order
     */
    public static List<String> ids() {
        return List.copyOf(BY_ID.keySet());
    }

    /**
     * The factor a signal's contribution to a layer is multiplied by.
     * @param segment the signal's segment, or null
     * @param layer a layer the signal names
     * @return the segment's share when it is a segment of {@code layer}, else 1
     */
    public static double share(String segment, String layer) {
        Segment s = of(segment);
        return s == null ? 1.0 : s.shareIn(layer);
    }

    /**
     * Why a signal's segment is refused, the one rule the history loader and the signal
     * validator both apply: the segment must exist, and its layer must be among the
     * layers the signal names.
     * @param segment the segment written, or null (no segment: nothing to refuse)
     * @param layers the layers the signal names; null when they are not known yet (only
     * the segment's existence is checked)
     * @return the reason, e.g. {@code 'hbm' is a segment of memory, which is not among
     * the layers named [foundry]}; null when the segment is acceptable
     */
    public static String refusal(String segment, Collection<String> layers) {
        if (segment == null) {
            return null;
        }
        Segment s = of(segment);
        if (s == null) {
            return "'" + segment + "' is not a segment (" + String.join(", ", ids()) + ")";
        }
        if (layers != null && !layers.contains(s.layer())) {
            return "'" + segment + "' is a segment of " + s.layer() + ", which is not among the layers named " + layers;
        }
        return null;
    }

}
