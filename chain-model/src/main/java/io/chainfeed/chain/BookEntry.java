package io.chainfeed.chain;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.chain.reference.ChainSegments;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One signal kept in a {@link ChainBook}, with what the sums need: its decay start,
 * weight, segment share and layers, read once from the {@link ConstraintSignal}; its two
 * story groups; and whether it counts (leads both groups). Only {@link #counted} changes,
 * and only the book changes it.
 */
public final class BookEntry {

    final String id;

    final String headline;

    final Direction direction;

    final int magnitude;

    final long observedAt;

    /** The horizon, epoch ms, or null. */
    final Long until;

    /** When it starts to decay: {@link ChainDecay#decayStart}. */
    final long decayStart;

    final double weight;

    /** The distinct known layers it names, in id order. */
    final List<String> layers;

    /**
     * The segment it speaks of alone ({@link ChainSegments}), or null: weighed by the
     * segment's share in the segment's layer. Resolved once here, so the per-layer
     * order's comparator reads fields instead of looking the segment up.
     */
    final ChainSegments.Segment segment;

    /**
     * Its sort key in its segment's layer ({@link #weightIn}); {@link #weight} when it
     * has no segment.
     */
    final double segmentWeight;

    final String sourceName;

    final String sourceUrl;

    /**
     * Its two story groups: {@link ChainBook#urlKey} and {@link ChainBook#headlineKey}.
     */
    final String urlGroup;

    final String headlineGroup;

    /** Whether it leads both of its story groups, so it is summed and listed. */
    boolean counted;

    BookEntry(ConstraintSignal s, Set<String> known) {
        this.id = s.getId();
        this.headline = s.getHeadline();
        this.sourceName = s.getSource() == null ? "" : s.getSource().getName();
        this.sourceUrl = s.getSource() == null ? "" : s.getSource().getUrl();
        this.urlGroup = ChainBook.urlKey(id, sourceUrl);
        this.headlineGroup = ChainBook.headlineKey(sourceName, sourceUrl, headline);
        this.direction = s.getDirection();
        this.magnitude = s.getMagnitude();
        this.observedAt = s.getObservedAt().toEpochMilli();
        this.until = s.getUntil() == null ? null : s.getUntil().toEpochMilli();
        this.decayStart = ChainDecay.decayStart(observedAt, until);
        this.weight = ChainDecay.weight(Math.max(1, magnitude), decayStart);
        this.layers = new TreeSet<>(s.getLayerHints()).stream().filter(known::contains).toList();
        this.segment = ChainSegments.bundled().segment(s.getSegment());
        this.segmentWeight = segment == null ? weight
                : ChainDecay.weight(Math.max(1, magnitude), decayStart, segment.share());
    }

    /** A probe for range queries on the time order. */
    BookEntry(long observedAt, String id) {
        this.id = id;
        this.headline = "";
        this.direction = Direction.TIGHTENING;
        this.magnitude = 0;
        this.observedAt = observedAt;
        this.until = null;
        this.decayStart = observedAt;
        this.weight = 0;
        this.layers = List.of();
        this.segment = null;
        this.segmentWeight = 0;
        this.sourceName = "";
        this.sourceUrl = "";
        this.urlGroup = "";
        this.headlineGroup = "";
    }

    /**
     * @param layer a layer it names
     * @return the factor of its contribution there: its segment's share in the segment's
     * layer, else 1 ({@link ChainSegments#share})
     */
    public double share(String layer) {
        return segment == null ? 1.0 : segment.shareIn(layer);
    }

    /**
     * @param layer a layer it names
     * @return its sort key there: {@link #weight}, plus log2 of its share in its
     * segment's layer
     */
    public double weightIn(String layer) {
        return share(layer) == 1.0 ? weight : segmentWeight;
    }

    /**
     * @return its contribution to a layer it names at an instant (share included)
     */
    double at(long instant, String layer) {
        return ChainDecay.contribution(direction, magnitude, decayStart, instant, 0, share(layer));
    }

    /**
     * @return its full, undecayed contribution to a layer it names: ±magnitude × share
     */
    double full(String layer) {
        return share(layer) * (direction == Direction.TIGHTENING ? magnitude : -magnitude);
    }

    /**
     * @return the signal id
     */
    public String id() {
        return id;
    }

    /**
     * @return the headline
     */
    public String headline() {
        return headline;
    }

    /**
     * @return the direction
     */
    public Direction direction() {
        return direction;
    }

    /**
     * @return the magnitude, 1 to 5
     */
    public int magnitude() {
        return magnitude;
    }

    /**
     * @return when the signal was observed, epoch milliseconds (UTC)
     */
    public long observedAt() {
        return observedAt;
    }

    /**
     * @return the end of its stated horizon, epoch milliseconds (UTC), or null
     */
    public Long until() {
        return until;
    }

    /**
     * @return when its decay starts, epoch milliseconds (UTC): the horizon's end, else
     * observedAt
     */
    public long decayStart() {
        return decayStart;
    }

    /**
     * @return the known layer ids it names
     */
    public List<String> layers() {
        return layers;
    }

    /**
     * @return whether it counts now (it leads both of its story groups)
     */
    public boolean counted() {
        return counted;
    }

}
