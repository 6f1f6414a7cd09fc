package io.chainfeed.api.chain;

import io.chainfeed.api.support.kafka.CompactedTopicView;
import io.chainfeed.avro.ChainCause;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.chain.ChainDecay;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.springframework.stereotype.Component;

/**
 * Every layer's full cause list, for paging: the compacted {@value Topics#CHAIN_CAUSES}
 * topic (one {@link ChainCause} per kept signal and layer it names, written by the
 * chain-state topology) held in memory, per layer in order of {@link ChainDecay#weight}
 * (largest absolute contribution first).
 *
 * <p>
 * A layer's causes are its own signals (hops 0) and, for each layer squeezing it (its
 * {@code squeezedBy}, with hops), that layer's own signals attenuated per hop and scaled
 * by that layer's soft-cap factor ({@code directScale}, {@code SqueezeSource.scale}); a
 * page merges these lists in the order the chain model lists causes (absolute
 * contribution, then signal id, origin layer, hops), weighed at the layer state's
 * {@code asOf}, leaving out causes under {@value ChainDecay#MIN_CAUSE}. That order does
 * not change as time passes, so a cursor stays valid while signals arrive (a signal
 * arriving between two pages appears on the later page only if it sorts after the
 * cursor). Cost of a page: O(squeezing layers × (log n + page size)).
 */
@Component
public class ChainCauseIndex extends CompactedTopicView<ChainCause> {

    /** Largest weight first, then signal id. */
    private static final Comparator<ChainCause> ORDER = Comparator.comparingDouble((ChainCause c) -> -c.getWeight())
        .thenComparing(ChainCause::getSignalId);

    private final Map<String, NavigableSet<ChainCause>> byLayer = new ConcurrentHashMap<>();

    private final Map<String, ChainCause> held = new ConcurrentHashMap<>();

    ChainCauseIndex(KafkaConnectionProperties kafka, MeterRegistry meters) {
        super(kafka.bootstrapServers(), Topics.CHAIN_CAUSES, "chainfeed-api-chain-causes", ChainCause.class, meters);
    }

    @Override
    protected void changed(String key, ChainCause value) {
        ChainCause old = value == null ? held.remove(key) : held.put(key, value);
        if (old != null) {
            NavigableSet<ChainCause> set = byLayer.get(old.getLayerId());
            if (set != null) {
                set.remove(old);
            }
        }
        if (value != null) {
            byLayer.computeIfAbsent(value.getLayerId(), k -> new ConcurrentSkipListSet<>(ORDER)).add(value);
        }
    }

    /**
     * One cause of a layer, weighed at the layer state's {@code asOf}.
     *
     * @param cause the signal as kept
     * @param originLayer the layer it named
     * @param hops hops from there to the layer asked for
     * @param contribution its signed share of the layer's pressure
     * @param key its sort key ({@link ChainDecay#weightAt})
     */
    public record Cause(ChainCause cause, String originLayer, int hops, double contribution, double key) {
    }

    /**
     * A page of causes.
     *
     * @param causes up to the size asked for, in order
     * @param nextCursor the cursor of the next page, or null on the last one
     */
    public record Page(List<Cause> causes, String nextCursor) {
    }

    /**
     * @param state the layer's state (its id, {@code asOf} and {@code squeezedBy})
     * @param cursor a {@link Page#nextCursor} of the same layer, or null for the first
     * page
     * @param size causes per page, at least 1
     * @return the page
     * @throws IllegalArgumentException if the cursor cannot be read
     */
    public Page page(LayerState state, String cursor, int size) {
        Position after = cursor == null ? null : Position.parse(cursor);
        long asOf = state.getAsOf().toEpochMilli();
        PriorityQueue<Head> heads = new PriorityQueue<>(Comparator.comparingDouble((Head h) -> -h.current.key)
            .thenComparing(h -> h.current.cause.getSignalId())
            .thenComparing(h -> h.current.originLayer)
            .thenComparingInt(h -> h.current.hops));
        List<SqueezeSource> lists = new ArrayList<>();
        lists.add(new SqueezeSource(state.getId(), 0.0, 0, state.getDirectScale()));
        lists.addAll(state.getSqueezedBy());
        for (SqueezeSource src : lists) {
            NavigableSet<ChainCause> set = byLayer.get(src.getLayerId());
            if (set == null) {
                continue;
            }
            Iterable<ChainCause> from = set;
            if (after != null) {
                double weight = after.key - ChainDecay.weightAt(0, src.getHops()) + 1e-9;
                from = set.tailSet(ChainCause.newBuilder()
                    .setLayerId(src.getLayerId())
                    .setSignalId("")
                    .setHeadline("")
                    .setDirection(Direction.TIGHTENING)
                    .setMagnitude(1)
                    .setObservedAt(Instant.EPOCH)
                    .setWeight(weight)
                    .build(), true);
            }
            Head head = new Head(from.iterator(), src.getLayerId(), src.getHops(), src.getScale(), asOf, after);
            if (head.advance()) {
                heads.add(head);
            }
        }
        List<Cause> out = new ArrayList<>();
        while (!heads.isEmpty() && out.size() < size) {
            Head h = heads.poll();
            out.add(h.current);
            if (h.advance()) {
                heads.add(h);
            }
        }
        String next = heads.isEmpty() || out.isEmpty() ? null : Position.of(out.get(out.size() - 1)).encode();
        return new Page(out, next);
    }

    /** The next cause of one list after the cursor, above the smallest cause listed. */
    private static final class Head {

        private final Iterator<ChainCause> it;

        private final String origin;

        private final int hops;

        private final double scale;

        private final long asOf;

        private final Position after;

        Cause current;

        Head(Iterator<ChainCause> it, String origin, int hops, double scale, long asOf, Position after) {
            this.it = it;
            this.origin = origin;
            this.hops = hops;
            this.scale = scale;
            this.asOf = asOf;
            this.after = after;
        }

        boolean advance() {
            while (it.hasNext()) {
                ChainCause c = it.next();
                long decayStart = ChainDecay.decayStart(c.getObservedAt().toEpochMilli(),
                        c.getUntil() == null ? null : c.getUntil().toEpochMilli());
                double contribution = ChainDecay.contribution(c.getDirection(), c.getMagnitude(), decayStart, asOf,
                        hops, c.getShare());
                if (Math.abs(contribution) < ChainDecay.MIN_CAUSE) {
                    return false;
                }
                Cause cause = new Cause(c, origin, hops, contribution * scale,
                        ChainDecay.weightAt(c.getWeight(), hops));
                if (after == null || after.before(cause)) {
                    current = cause;
                    return true;
                }
            }
            return false;
        }

    }

    /**
     * Where a page ended: the last cause's sort key, signal id, origin layer and hops.
     */
    private record Position(double key, String signalId, String origin, int hops) {
        static Position of(Cause c) {
            return new Position(c.key, c.cause.getSignalId(), c.originLayer, c.hops);
        }

        /** Whether a cause comes after this position in the listing order. */
        boolean before(Cause c) {
            if (c.key != key) {
                return c.key < key;
            }
            int bySignal = c.cause.getSignalId().compareTo(signalId);
            if (bySignal != 0) {
                return bySignal > 0;
            }
            int byOrigin = c.originLayer.compareTo(origin);
            return byOrigin != 0 ? byOrigin > 0 : c.hops > hops;
        }

        String encode() {
            String raw = Long.toHexString(Double.doubleToLongBits(key)) + "\n" + hops + "\n" + origin + "\n" + signalId;
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        static Position parse(String cursor) {
            try {
                String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
                String[] p = raw.split("\n", 4);
                if (p.length != 4) {
                    throw new IllegalArgumentException("not a cause cursor");
                }
                return new Position(Double.longBitsToDouble(Long.parseUnsignedLong(p[0], 16)), p[3], p[2],
                        Integer.parseInt(p[1]));
            }
            catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a cause cursor: " + e.getMessage(), e);
            }
        }
    }

}
