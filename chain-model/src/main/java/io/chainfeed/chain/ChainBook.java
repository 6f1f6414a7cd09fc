package io.chainfeed.chain;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.chain.reference.ChainSegments;
import io.chainfeed.schemas.Stories;
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
 * The incremental half of the chain model: the kept signals and, per chain layer, the
 * running sums {@link ChainModel} turns into layer states. Adding, replacing or removing
 * one signal costs O(layers it names × log signals) plus, when it moves {@code asOf}
 * forward, one multiplication per layer (every decaying signal decays by the same factor,
 * so a decayed sum is rebased to a new instant by multiplying it), the signals that cross
 * the trend window's start and the signals whose horizon passes
 * ({@link ChainDecay#decayStart}), each of which crosses once. Nothing here scans all
 * kept signals, except {@link #remove} of the newest signal, which moves {@code asOf}
 * back and recomputes the sums once.
 *
 * <p>
 * Kept per layer: {@code direct} = Σ c(s, asOf) over the signals naming it (each
 * multiplied by its share there: its segment's share of the layer's market when it speaks
 * of one segment of that layer, {@link ChainSegments}, else 1), {@code before} = Σ c(s,
 * asOf − 7 d) over those observed by then (for the trend), the parts of both sums that do
 * not decay yet ({@code held}, {@code heldBefore}: signals whose horizon, {@code until},
 * is still ahead, at full weight), the count, and the signals ordered by
 * {@link ChainDecay#weight} (largest absolute contribution first, then signal id), from
 * which the top causes are read in O(causes listed). Sums are kept in floating point: the
 * same signals in another order give sums equal to within rounding error far below the
 * four decimals published.
 *
 * <p>
 * <b>Stories.</b> Repeats of one story count once: every kept signal belongs to two story
 * groups, its source URL ({@link #urlKey}) and its headline from its source
 * ({@link #headlineKey}). Within a group signals rank by {@link ChainDecay#weight}
 * (larger first), then by id; a signal <em>counts</em> (is summed and listed as a cause)
 * only while it leads both of its groups. The rank never changes as time passes, so
 * whether a signal counts depends only on the set of kept signals, never on arrival
 * order; adding or removing a signal re-ranks only the leaders of its two groups, O(log
 * n). The other signals stay kept (a correction or deletion of the leader lets the next
 * one count).
 *
 * <p>
 * Not thread-safe; one per stream task.
 */
public final class ChainBook {

    private static final long TREND_WINDOW_MS = Duration.ofDays(ChainModel.TREND_WINDOW_DAYS).toMillis();

    private static final double FORGET_AFTER_MS = ChainModel.FORGET_AFTER_HALF_LIVES * ChainDecay.HALF_LIFE_MS;

    private static final Comparator<BookEntry> BY_TIME = Comparator.comparingLong((BookEntry e) -> e.observedAt)
        .thenComparing(e -> e.id);

    private static final Comparator<BookEntry> BY_DECAY_START = Comparator.comparingLong((BookEntry e) -> e.decayStart)
        .thenComparing(e -> e.id);

    /** The rank within a story group: largest weight first, then signal id. */
    private static final Comparator<BookEntry> BY_RANK = Comparator.comparingDouble((BookEntry e) -> -e.weight)
        .thenComparing(e -> e.id);

    /**
     * What one {@link #put} or {@link #remove} changed.
     *
     * @param removed the entry {@link #remove} took out; null from {@link #put} or when
     * it was not kept
     * @param forgotten the entries dropped because they are too old, in time order
     * @param recounted other kept entries whose {@link BookEntry#counted} flipped (a
     * story's new leader or the one it displaced)
     */
    public record Change(BookEntry removed, List<BookEntry> forgotten, List<BookEntry> recounted) {
    }

    private final Set<String> known;

    private final Map<String, BookEntry> byId = new HashMap<>();

    private final NavigableSet<BookEntry> byTime = new TreeSet<>(BY_TIME);

    /**
     * The kept signals by when their decay starts: for horizons passing and for
     * forgetting.
     */
    private final NavigableSet<BookEntry> byDecayStart = new TreeSet<>(BY_DECAY_START);

    private final Map<String, LayerSums> sums = new HashMap<>();

    /** Story group key -> its signals by rank. */
    private final Map<String, NavigableSet<BookEntry>> stories = new HashMap<>();

    private long asOf;

    private List<BookEntry> recounted = new ArrayList<>();

    /**
     * The instant set by {@link #advanceTo}: {@code asOf} never falls below it (0 in the
     * live book).
     */
    private long pinned;

    /**
     * @param layerIds the known chain layer ids; signals naming others are kept (they
     * move asOf) but sum nowhere
     */
    public ChainBook(Collection<String> layerIds) {
        this.known = Set.copyOf(layerIds);
        layerIds.forEach(id -> sums.put(id, new LayerSums(id)));
    }

    /**
     * @return the newest observedAt of the kept signals, or the instant given to
     * {@link #advanceTo} when later (epoch ms); 0 when there are none and none was given
     */
    public long asOf() {
        return asOf;
    }

    /**
     * @return the number of kept signals
     */
    public int size() {
        return byId.size();
    }

    /**
     * @param id a signal id
     * @return the kept entry of a signal id, or null
     */
    public BookEntry entry(String id) {
        return byId.get(id);
    }

    /**
     * The URL story key ({@link io.chainfeed.schemas.Stories#urlKey}).
     * @param id the signal id (the key when the URL is blank, so such a signal is its own
     * story)
     * @param url the source URL
     * @return the group key
     */
    static String urlKey(String id, String url) {
        return Stories.urlKey(id, url);
    }

    /**
     * The headline story key ({@link io.chainfeed.schemas.Stories#headlineKey}).
     * @param sourceName the source's name
     * @param sourceUrl the source's URL
     * @param headline the headline
     * @return the group key
     */
    static String headlineKey(String sourceName, String sourceUrl, String headline) {
        return Stories.headlineKey(sourceName, sourceUrl, headline);
    }

    /**
     * @return a layer's sums (must be a known layer)
     */
    LayerSums sums(String layerId) {
        return sums.get(layerId);
    }

    /**
     * Adds a signal, replacing the kept one with the same id, then forgets the signals
     * whose decay started more than {@value ChainModel#FORGET_AFTER_HALF_LIVES}
     * half-lives before the new {@code asOf}.
     * @param signal the signal (its version already resolved by the caller)
     * @return the forgotten entries (never the one just added unless it was itself too
     * old), in time order, and the other entries whose counting flipped
     */
    public Change put(ConstraintSignal signal) {
        recounted = new ArrayList<>();
        BookEntry old = byId.get(signal.getId());
        if (old != null) {
            leave(old);
        }
        BookEntry e = new BookEntry(signal, known);
        if (byId.isEmpty()) {
            zero(Math.max(e.observedAt, pinned));
        }
        else if (e.observedAt > asOf) {
            moveForward(e.observedAt);
        }
        join(e);
        if (old != null) {
            settleBack(); // the replaced version may have been the newest
        }
        List<BookEntry> gone = forget();
        recounted.removeIf(x -> x == e || byId.get(x.id) != x);
        return new Change(null, gone, recounted);
    }

    /**
     * Removes a signal.
     * @param id the signal id
     * @return its entry ({@code removed}, null if it was not kept) and the other entries
     * whose counting flipped
     */
    public Change remove(String id) {
        recounted = new ArrayList<>();
        BookEntry e = byId.get(id);
        if (e == null) {
            return new Change(null, List.of(), List.of());
        }
        leave(e);
        settleBack();
        recounted.removeIf(x -> byId.get(x.id) != x);
        return new Change(e, List.of(), recounted);
    }

    /**
     * Moves {@code asOf} forward to an instant that may be later than every kept signal,
     * for an answer as of that instant ({@link ChainModel#statesAt}): every sum is
     * rebased to it exactly as a newer signal would rebase it, the trend window's start
     * moves with it, and the signals older than
     * {@value ChainModel#FORGET_AFTER_HALF_LIVES} half-lives before it are forgotten, as
     * in the live book. From then on {@code asOf} never falls below this instant. Cost:
     * O(layers) plus the signals crossing the trend window's start or forgotten. The live
     * topology never calls it.
     * @param instant epoch ms, not before the current {@code asOf}
     * @return the forgotten entries, in time order
     * @throws IllegalArgumentException if {@code instant} is before {@code asOf}
     */
    public List<BookEntry> advanceTo(long instant) {
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
        List<BookEntry> gone = forget();
        if (byId.isEmpty()) {
            zero(instant);
        }
        return gone;
    }

    private List<BookEntry> forget() {
        List<BookEntry> gone = new ArrayList<>();
        while (!byDecayStart.isEmpty() && asOf - byDecayStart.first().decayStart > FORGET_AFTER_MS) {
            BookEntry first = byDecayStart.first();
            leave(first);
            gone.add(first);
        }
        return gone;
    }

    /** Keeps an entry: indexes it, joins its story groups and re-ranks their leaders. */
    private void join(BookEntry e) {
        byId.put(e.id, e);
        byTime.add(e);
        byDecayStart.add(e);
        BookEntry urlLeader = leader(e.urlGroup);
        BookEntry headlineLeader = leader(e.headlineGroup);
        stories.computeIfAbsent(e.urlGroup, k -> new TreeSet<>(BY_RANK)).add(e);
        stories.computeIfAbsent(e.headlineGroup, k -> new TreeSet<>(BY_RANK)).add(e);
        recount(urlLeader);
        recount(headlineLeader);
        recount(e);
    }

    /**
     * Drops an entry: un-sums it, leaves its story groups and lets their new leaders
     * count.
     */
    private void leave(BookEntry e) {
        if (e.counted) {
            detach(e);
            e.counted = false;
        }
        byId.remove(e.id);
        byTime.remove(e);
        byDecayStart.remove(e);
        for (String group : List.of(e.urlGroup, e.headlineGroup)) {
            NavigableSet<BookEntry> members = stories.get(group);
            if (members != null) {
                members.remove(e);
                if (members.isEmpty()) {
                    stories.remove(group);
                }
            }
        }
        recount(leader(e.urlGroup));
        recount(leader(e.headlineGroup));
        if (byId.isEmpty()) {
            zero(pinned);
        }
    }

    private BookEntry leader(String group) {
        NavigableSet<BookEntry> members = stories.get(group);
        return members == null || members.isEmpty() ? null : members.first();
    }

    /**
     * Sums or un-sums an entry so that it counts exactly when it leads both its story
     * groups.
     */
    private void recount(BookEntry e) {
        if (e == null) {
            return;
        }
        boolean leads = leader(e.urlGroup) == e && leader(e.headlineGroup) == e;
        if (leads == e.counted) {
            return;
        }
        e.counted = leads;
        if (leads) {
            attach(e);
        }
        else {
            detach(e);
        }
        recounted.add(e);
    }

    /** Adds a counted entry to the sums of the layers it names. */
    private void attach(BookEntry e) {
        add(e, 1);
        for (String l : e.layers) {
            LayerSums s = sums.get(l);
            s.count++;
            s.byWeight.add(e);
        }
    }

    /** Takes a counted entry out of the sums of the layers it names. */
    private void detach(BookEntry e) {
        add(e, -1);
        for (String l : e.layers) {
            LayerSums s = sums.get(l);
            s.count--;
            s.byWeight.remove(e);
        }
    }

    /**
     * Adds (+1) or subtracts (−1) an entry's contribution at asOf and at the trend
     * window's start, held parts included.
     */
    private void add(BookEntry e, int sign) {
        long start = asOf - TREND_WINDOW_MS;
        for (String l : e.layers) {
            LayerSums s = sums.get(l);
            s.direct += sign * e.at(asOf, l);
            if (e.decayStart > asOf) {
                s.held += sign * e.full(l);
            }
            if (e.observedAt <= start) {
                s.before += sign * e.at(start, l);
                if (e.decayStart > start) {
                    s.heldBefore += sign * e.full(l);
                }
            }
        }
    }

    /**
     * Moves asOf forward: rebases the decaying part of every sum by one factor, lets the
     * signals whose horizon passed start to decay, and adds the signals entering the
     * trend window's start.
     */
    private void moveForward(long to) {
        double factor = Math.pow(2, -(to - asOf) / ChainDecay.HALF_LIFE_MS);
        long oldAsOf = asOf;
        long oldStart = asOf - TREND_WINDOW_MS;
        long newStart = to - TREND_WINDOW_MS;
        for (LayerSums s : sums.values()) {
            s.direct = (s.direct - s.held) * factor + s.held;
            s.before = (s.before - s.heldBefore) * factor + s.heldBefore;
        }
        asOf = to;
        // Horizons passed by asOf: from full weight to decaying from their end.
        for (BookEntry e : countedIn(byDecayStart, oldAsOf, to)) {
            for (String l : e.layers) {
                LayerSums s = sums.get(l);
                s.held -= e.full(l);
                s.direct += e.at(to, l) - e.full(l);
            }
        }
        // Horizons passed by the trend window's start, for the signals already inside the
        // window.
        for (BookEntry e : countedIn(byDecayStart, oldStart, newStart)) {
            if (e.observedAt > oldStart) {
                continue; // enters the window below, at its value then
            }
            for (String l : e.layers) {
                LayerSums s = sums.get(l);
                s.heldBefore -= e.full(l);
                s.before += e.at(newStart, l) - e.full(l);
            }
        }
        // Signals entering the trend window.
        for (BookEntry e : countedIn(byTime, oldStart, newStart)) {
            for (String l : e.layers) {
                LayerSums s = sums.get(l);
                s.before += e.at(newStart, l);
                if (e.decayStart > newStart) {
                    s.heldBefore += e.full(l);
                }
            }
        }
    }

    /**
     * The counted entries of a set ordered by time ({@code byTime}) or by decay start
     * ({@code byDecayStart}) whose instant in that order is after {@code after} and at
     * most {@code upTo}: the probes at each instant with id {@code "\uffff"} sort after
     * every entry at that instant.
     */
    private static Iterable<BookEntry> countedIn(NavigableSet<BookEntry> entries, long after, long upTo) {
        return counted(entries.subSet(new BookEntry(after, "\uffff"), false, new BookEntry(upTo, "\uffff"), false));
    }

    private static Iterable<BookEntry> counted(NavigableSet<BookEntry> entries) {
        return () -> entries.stream().filter(e -> e.counted).iterator();
    }

    /**
     * After the newest signal left: asOf moves back to the newest kept one; the sums are
     * recomputed once.
     */
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
        for (BookEntry e : counted(byTime)) {
            add(e, 1);
        }
    }

    private void zero(long at) {
        asOf = at;
        for (LayerSums s : sums.values()) {
            s.direct = 0;
            s.before = 0;
            s.held = 0;
            s.heldBefore = 0;
        }
    }

}
