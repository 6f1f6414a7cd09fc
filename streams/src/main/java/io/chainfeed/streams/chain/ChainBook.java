package io.chainfeed.streams.chain;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.schemas.ChainDecay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The incremental half of the chain model: the kept signals and, per chain layer, the running sums
 * {@link ChainModel} turns into layer states. Adding, replacing or removing one signal costs
 * O(layers it names × log signals) plus, when it moves {@code asOf} forward, one multiplication per
 * layer (every signal decays by the same factor, so a decayed sum is rebased to a new instant by
 * multiplying it) and the signals that cross the trend window's start, each of which crosses once.
 * Nothing here scans all kept signals, except {@link #remove} of the newest signal, which moves
 * {@code asOf} back and recomputes the sums once.
 *
 * <p>Kept per layer: {@code direct} = Σ c(s, asOf) over the signals naming it, {@code before} =
 * Σ c(s, asOf − 7 d) over those observed by then (for the trend), the count, and the signals ordered
 * by {@link ChainDecay#weight} (largest absolute contribution first, then signal id), from which the
 * top causes are read in O(causes listed). Sums are kept in floating point: the same signals in
 * another order give sums equal to within rounding error far below the four decimals published.
 *
 * <p>Not thread-safe; one per stream task.
 */
public final class ChainBook {
    private static final long TREND_WINDOW_MS = Duration.ofDays(ChainModel.TREND_WINDOW_DAYS).toMillis();
    private static final double FORGET_AFTER_MS = ChainModel.FORGET_AFTER_HALF_LIVES * ChainDecay.HALF_LIFE_MS;

    /** One kept signal, with what the sums need. */
    static final class Entry {
        final String id;
        final String headline;
        final Direction direction;
        final int magnitude;
        final long observedAt;
        final double weight;
        /** The distinct known layers it names, in id order. */
        final List<String> layers;

        Entry(ConstraintSignal s, Set<String> known) {
            this.id = s.getId();
            this.headline = s.getHeadline();
            this.direction = s.getDirection();
            this.magnitude = s.getMagnitude();
            this.observedAt = s.getObservedAt().toEpochMilli();
            this.weight = ChainDecay.weight(Math.max(1, magnitude), observedAt);
            this.layers = new TreeSet<>(s.getLayerHints()).stream().filter(known::contains).toList();
        }

        /** A probe for range queries on the time order. */
        Entry(long observedAt, String id) {
            this.id = id;
            this.headline = "";
            this.direction = Direction.TIGHTENING;
            this.magnitude = 0;
            this.observedAt = observedAt;
            this.weight = 0;
            this.layers = List.of();
        }

        double at(long instant) {
            return ChainDecay.contribution(direction, magnitude, observedAt, instant, 0);
        }
    }

    /** The sums of one layer. */
    static final class Sums {
        double direct;
        double before;
        int count;
        /** Largest weight first, then signal id. */
        final NavigableSet<Entry> byWeight = new TreeSet<>(
                Comparator.comparingDouble((Entry e) -> -e.weight).thenComparing(e -> e.id));
    }

    private static final Comparator<Entry> BY_TIME =
            Comparator.comparingLong((Entry e) -> e.observedAt).thenComparing(e -> e.id);

    private final Set<String> known;
    private final Map<String, Entry> byId = new HashMap<>();
    private final NavigableSet<Entry> byTime = new TreeSet<>(BY_TIME);
    private final Map<String, Sums> sums = new HashMap<>();
    private long asOf;
    /** The instant set by {@link #advanceTo}: {@code asOf} never falls below it (0 in the live book). */
    private long pinned;

    /** @param layerIds the known chain layer ids; signals naming others are kept (they move asOf) but sum nowhere */
    public ChainBook(Collection<String> layerIds) {
        this.known = Set.copyOf(layerIds);
        layerIds.forEach(id -> sums.put(id, new Sums()));
    }

    /**
     * @return the newest observedAt of the kept signals, or the instant given to {@link #advanceTo}
     *         when later (epoch ms); 0 when there are none and none was given
     */
    public long asOf() {
        return asOf;
    }

    /** @return the number of kept signals */
    public int size() {
        return byId.size();
    }

    /** @return the kept entry of a signal id, or null */
    Entry entry(String id) {
        return byId.get(id);
    }

    /** @return a layer's sums (must be a known layer) */
    Sums sums(String layerId) {
        return sums.get(layerId);
    }

    /**
     * Adds a signal, replacing the kept one with the same id, then forgets the signals older than
     * {@value ChainModel#FORGET_AFTER_HALF_LIVES} half-lives before the new {@code asOf}.
     *
     * @param signal the signal (its version already resolved by the caller)
     * @return the forgotten entries (never the one just added unless it was itself too old), in time order
     */
    public List<Entry> put(ConstraintSignal signal) {
        Entry old = byId.get(signal.getId());
        if (old != null) {
            detach(old);
        }
        Entry e = new Entry(signal, known);
        if (byId.isEmpty()) {
            zero(Math.max(e.observedAt, pinned));
        } else if (e.observedAt > asOf) {
            moveForward(e.observedAt);
        }
        attach(e);
        if (old != null) {
            settleBack(); // the replaced version may have been the newest
        }
        return forget();
    }

    /**
     * Removes a signal.
     *
     * @param id the signal id
     * @return its entry, or null if it was not kept
     */
    public Entry remove(String id) {
        Entry e = byId.get(id);
        if (e == null) {
            return null;
        }
        detach(e);
        settleBack();
        return e;
    }

    /**
     * Moves {@code asOf} forward to an instant that may be later than every kept signal, for an
     * answer as of that instant ({@link ChainModel#statesAt}): every sum is rebased to it exactly as a
     * newer signal would rebase it, the trend window's start moves with it, and the signals older
     * than {@value ChainModel#FORGET_AFTER_HALF_LIVES} half-lives before it are forgotten, as in the
     * live book. From then on {@code asOf} never falls below this instant. Cost: O(layers) plus the
     * signals crossing the trend window's start or forgotten. The live topology never calls it.
     *
     * @param instant epoch ms, not before the current {@code asOf}
     * @return the forgotten entries, in time order
     * @throws IllegalArgumentException if {@code instant} is before {@code asOf}
     */
    public List<Entry> advanceTo(long instant) {
        if (instant < asOf) {
            throw new IllegalArgumentException("cannot move asOf back from " + asOf + " to " + instant);
        }
        pinned = instant;
        if (byId.isEmpty()) {
            zero(instant);
            return List.of();
        }
        if (instant > asOf) {
            moveForward(instant);
        }
        List<Entry> gone = forget();
        if (byId.isEmpty()) {
            zero(instant);
        }
        return gone;
    }

    private List<Entry> forget() {
        List<Entry> gone = new ArrayList<>();
        while (!byTime.isEmpty() && asOf - byTime.first().observedAt > FORGET_AFTER_MS) {
            Entry first = byTime.first();
            detach(first);
            gone.add(first);
        }
        return gone;
    }

    private void attach(Entry e) {
        byId.put(e.id, e);
        byTime.add(e);
        long start = asOf - TREND_WINDOW_MS;
        for (String l : e.layers) {
            Sums s = sums.get(l);
            s.direct += e.at(asOf);
            if (e.observedAt <= start) {
                s.before += e.at(start);
            }
            s.count++;
            s.byWeight.add(e);
        }
    }

    private void detach(Entry e) {
        byId.remove(e.id);
        byTime.remove(e);
        long start = asOf - TREND_WINDOW_MS;
        for (String l : e.layers) {
            Sums s = sums.get(l);
            s.direct -= e.at(asOf);
            if (e.observedAt <= start) {
                s.before -= e.at(start);
            }
            s.count--;
            s.byWeight.remove(e);
        }
        if (byId.isEmpty()) {
            zero(pinned);
        }
    }

    /** Moves asOf forward: rebases every sum by one factor and adds the signals entering the trend window's start. */
    private void moveForward(long to) {
        double factor = Math.pow(2, -(to - asOf) / ChainDecay.HALF_LIFE_MS);
        long oldStart = asOf - TREND_WINDOW_MS;
        long newStart = to - TREND_WINDOW_MS;
        for (Sums s : sums.values()) {
            s.direct *= factor;
            s.before *= factor;
        }
        asOf = to;
        Entry from = new Entry(oldStart, "\uffff");
        Entry until = new Entry(newStart, "\uffff");
        for (Entry e : byTime.subSet(from, false, until, false)) {
            for (String l : e.layers) {
                sums.get(l).before += e.at(newStart);
            }
        }
    }

    /** After the newest signal left: asOf moves back to the newest kept one; the sums are recomputed once. */
    private void settleBack() {
        if (byTime.isEmpty()) {
            zero(pinned);
            return;
        }
        long newest = Math.max(byTime.last().observedAt, pinned);
        if (newest == asOf) {
            return;
        }
        zero(newest);
        long start = newest - TREND_WINDOW_MS;
        for (Entry e : byTime) {
            for (String l : e.layers) {
                Sums s = sums.get(l);
                s.direct += e.at(newest);
                if (e.observedAt <= start) {
                    s.before += e.at(start);
                }
            }
        }
    }

    private void zero(long at) {
        asOf = at;
        for (Sums s : sums.values()) {
            s.direct = 0;
            s.before = 0;
        }
    }
}
