package io.chainfeed.chain.reference;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
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
 * The segments are layer data: each layer of {@code corpus/layers.yaml} lists its own
 * under {@code segments} ({@code id}, {@code share}), with the public figures the shares
 * come from in the file's comments (revenue shares, not fitted to the backtest), and
 * {@link ChainReference} checks them (ids unique across layers, shares in (0, 1] adding
 * up to 1 per layer). The services and the backtest use the bundled file's segments
 * ({@link #bundled()}): the chain layers the streams service reads from Kafka do not
 * carry them.
 *
 * <p>
 * Instances are immutable and safe to share between threads.
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

    private final List<Segment> all;

    private final Map<String, Segment> byId;

    /**
     * @param segments the segments, each id once (checked by the reference parser)
     * @throws IllegalArgumentException if an id is listed twice
     */
    public ChainSegments(Collection<Segment> segments) {
        Map<String, Segment> ids = new TreeMap<>();
        for (Segment s : segments) {
            if (ids.put(s.id(), s) != null) {
                throw new IllegalArgumentException("segment '" + s.id() + "' is listed twice");
            }
        }
        this.byId = Collections.unmodifiableMap(ids);
        List<Segment> sorted = new ArrayList<>(segments);
        sorted.sort(Comparator.comparing(Segment::layer).thenComparing(Segment::id));
        this.all = List.copyOf(sorted);
    }

    /**
     * The segments of the bundled {@code corpus/layers.yaml}, read and checked once, on
     * first use.
     * @return the bundled segments
     * @throws CorpusException if the bundled reference data is missing or inconsistent
     */
    public static ChainSegments bundled() {
        return Bundled.SEGMENTS;
    }

    /**
     * @return every segment, by layer then id
     */
    public List<Segment> all() {
        return all;
    }

    /**
     * @param id a segment id
     * @return the segment, or null when no layer has it
     */
    public Segment segment(String id) {
        return id == null ? null : byId.get(id);
    }

    /**
     * @return the segment ids, in id order
     */
    public List<String> ids() {
        return List.copyOf(byId.keySet());
    }

    /**
     * The factor a signal's contribution to a layer is multiplied by.
     * @param segment the signal's segment, or null
     * @param layer a layer the signal names
     * @return the segment's share when it is a segment of {@code layer}, else 1
     */
    public double share(String segment, String layer) {
        Segment s = segment(segment);
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
    public String refusal(String segment, Collection<String> layers) {
        if (segment == null) {
            return null;
        }
        Segment s = segment(segment);
        if (s == null) {
            return "'" + segment + "' is not a segment (" + String.join(", ", ids()) + ")";
        }
        if (layers != null && !layers.contains(s.layer())) {
            return "'" + segment + "' is a segment of " + s.layer() + ", which is not among the layers named " + layers;
        }
        return null;
    }

    /** Holder idiom: the bundled file is read on first use, not when the class loads. */
    private static final class Bundled {

        static final ChainSegments SEGMENTS = ChainReference.loadBundled().segments();

    }

}
