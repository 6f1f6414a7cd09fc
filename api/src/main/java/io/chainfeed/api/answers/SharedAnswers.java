package io.chainfeed.api.answers;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadEvent;
import io.chainfeed.api.readlog.ReadListener;
import io.chainfeed.api.readlog.ReadLog;
import io.chainfeed.api.readlog.Subscription;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Public answers that are the same for every caller (the widget's data, Atom and JSON
 * Feed first pages, term cards, the chain), built once and served from a bounded
 * in-process Caffeine cache until the reads log or the chain's state says they changed;
 * never on a timer.
 *
 * <p>
 * <b>Staleness.</b> Every answer names its {@link Dependency}: a topic (a selector), one
 * read, or the chain's state (whose version is then part of the answer's key). This class
 * follows the reads log from its end ({@link ReadLog}, the records the SSE streams send)
 * on one thread of its own: a record that a dependency's {@link Dependency#changedBy}
 * accepts, or any deletion, moves that dependency to a new generation, so every answer
 * built before is stale at its next lookup. An answer built while a record arrived is
 * stored under the old generation and so never served.
 *
 * <p>
 * <b>Searchable first.</b> The api sees a read in the log before the streams service has
 * indexed it, so an answer rebuilt at once would miss it and be kept. A record therefore
 * stays <em>pending</em> on the dependencies it changed until a search of the reads index
 * ({@value ReadsIndex#ALIAS}, by id, every {@code settle-interval}) shows its version
 * (or, for a deletion, no longer shows it); meanwhile their answers are built for each
 * request and not kept. When it settles, the dependencies move to a new generation once
 * more, so an answer built while it was pending is not kept either. Every record is
 * pending, whether or not someone has asked for an answer it belongs to: a dependency
 * first watched while an older record is still pending keeps nothing until that record
 * settles (only its id is kept, not which topics it belongs to). A record the index has
 * not shown after {@code settle-timeout} (an indexer stopped for that long) is settled
 * with a warning, so a topic is not left uncached for good. The index's refresh (1 s by
 * default) is therefore what a cached answer lags the log by, the same as a search.
 *
 * <p>
 * <b>At start.</b> The log is followed from its end, so the reads written before are no
 * records here: nothing is kept until the indexer's consumer group
 * ({@code chainfeed.api.pipeline.indexer-group}) has committed past that point on every
 * partition, and {@link #REFRESH_GRACE} more.
 *
 * <p>
 * <b>Bounds.</b> At most {@code max-entries} answers and as many watched dependencies
 * (least recently used first out; an answer whose dependency was dropped is rebuilt). The
 * queue from the log's tail holds 10,000 records; if it overflows (the thread fell that
 * far behind) every answer is dropped. While the log is not followed (before the api has
 * its tail, after shutdown), answers are built for each request and not kept.
 *
 * <p>
 * Meters: {@code chainfeed.answers.requests{family, result=hit|miss|unsettled|off}} and
 * {@code chainfeed.answers.pending} (records not yet searchable).
 */
@Component
public class SharedAnswers implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SharedAnswers.class);

    /** Starts after the reads log it follows, stops before it. */
    public static final int PHASE = ReadLog.PHASE + 1;

    private static final int QUEUE = 10_000;

    private static final int SETTLE_BATCH = 500;

    /**
     * Builds an answer.
     *
     * @param <T> the answer
     */
    @FunctionalInterface
    public interface Builder<T> {

        /**
         * @return the answer (not null)
         * @throws IOException when its source fails; nothing is kept
         */
        T build() throws IOException;

    }

    private record Key(String family, Object parts) {
    }

    private record Entry(Object value, Watch watch, long generation, long epoch) {
    }

    /** A dependency's generation and the records on it that are not searchable yet. */
    private static final class Watch {

        private volatile long generation;

        private volatile int pending;

        /** How many records the log had brought when the watch began. */
        private final long createdAt;

        private Watch(long createdAt) {
            this.createdAt = createdAt;
        }

    }

    /** A record of the log the index does not show yet. */
    private static final class Pending {

        private long version;

        private boolean deleted;

        private final long seenNanos;

        /** Its place among the records the log has brought (1, 2, 3 ...). */
        private final long seq;

        private final Set<Watch> watches = Collections.newSetFromMap(new IdentityHashMap<>());

        private Pending(long version, boolean deleted, long seenNanos, long seq) {
            this.version = version;
            this.deleted = deleted;
            this.seenNanos = seenNanos;
            this.seq = seq;
        }

    }

    /** How long after the indexer commits a read it is searchable (1 s index refresh). */
    static final Duration REFRESH_GRACE = Duration.ofSeconds(2);

    private final ReadLog readLog;

    private final ShownVersions index;

    private final IndexedOffsets indexed;

    private final boolean enabled;

    private final Duration settleInterval;

    private final Duration settleTimeout;

    private final Cache<Key, Entry> entries;

    private final Cache<Selector, Watch> topics;

    private final Cache<String, Watch> reads;

    private final Watch chain = new Watch(0);

    /**
     * Every record of the log not searchable yet, by read id, oldest first; guarded by
     * {@code this}.
     */
    private final Map<String, Pending> pending = new LinkedHashMap<>();

    /** Records the log has brought since the api started; guarded by {@code this}. */
    private long seen;

    /**
     * The place of the oldest record not searchable yet, {@code Long.MAX_VALUE} when
     * none: a watch begun after it may have missed it.
     */
    private volatile long oldestPending = Long.MAX_VALUE;

    private final AtomicLong pendingCount = new AtomicLong();

    private final BlockingQueue<ReadEvent> events = new ArrayBlockingQueue<>(QUEUE);

    private final AtomicBoolean overflowed = new AtomicBoolean();

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    private final MeterRegistry meters;

    private volatile long epoch;

    /** Answers may be kept: the log is followed and the index has what came before. */
    private volatile boolean following;

    /** Where the log's tail began for this class, once known. */
    private volatile LogPosition startedAt;

    /** When the indexer had committed everything before {@link #startedAt}. */
    private volatile long caughtUpNanos;

    private volatile boolean running;

    private Subscription subscription;

    private Thread invalidator;

    private Thread settler;

    @Autowired
    SharedAnswers(ReadLog readLog, ElasticsearchClient es, KafkaConnectionProperties kafka, ApiProperties props,
            ObjectProvider<MeterRegistry> meters) {
        this(readLog, ShownVersions.of(es),
                new IndexerOffsets(kafka.bootstrapServers(), props.pipeline().indexerGroup()), props.answers(),
                meters.getIfAvailable());
    }

    SharedAnswers(ReadLog readLog, ShownVersions index, IndexedOffsets indexed, ApiProperties.Answers settings,
            MeterRegistry meters) {
        this.readLog = readLog;
        this.index = index;
        this.indexed = indexed;
        this.enabled = settings.enabled();
        this.settleInterval = settings.settleInterval();
        this.settleTimeout = settings.settleTimeout();
        this.entries = Caffeine.newBuilder().maximumSize(settings.maxEntries()).build();
        this.topics = Caffeine.newBuilder().maximumSize(settings.maxEntries()).build();
        this.reads = Caffeine.newBuilder().maximumSize(settings.maxEntries()).build();
        this.meters = meters;
        if (meters != null) {
            Gauge.builder("chainfeed.answers.pending", pendingCount, AtomicLong::get)
                .description("records of the reads log that shared answers wait to see in the index")
                .register(meters);
            Gauge.builder("chainfeed.answers.entries", entries, Cache::estimatedSize)
                .description("shared answers held in memory")
                .register(meters);
        }
    }

    /**
     * The answer for a key: the kept one while its dependency has not changed, else a new
     * one, kept when nothing about the dependency is pending.
     * @param <T> the answer's type
     * @param family what kind of answer (a meter tag), e.g. {@code widget-feed}
     * @param parts everything else the answer depends on (selector, size, base URL, a
     * chain version ...), with value equality
     * @param dependency what in the reads log makes it stale
     * @param builder builds it
     * @return the answer, shared with other callers: do not modify it
     * @throws IOException when a build fails
     */
    @SuppressWarnings("unchecked")
    public <T> T get(String family, Object parts, Dependency dependency, Builder<T> builder) throws IOException {
        if (!enabled || !following) {
            count(family, "off");
            return builder.build();
        }
        Watch watch = watch(dependency);
        Key key = new Key(family, parts);
        long generation = watch.generation;
        long epochNow = epoch;
        Entry kept = entries.getIfPresent(key);
        if (kept != null && kept.watch == watch && kept.generation == generation && kept.epoch == epochNow
                && watch.pending == 0) {
            count(family, "hit");
            return (T) kept.value;
        }
        // A record the log brought before the watch began and the index does not show yet
        // may belong to this answer: nothing built while one is left is kept.
        boolean clean = oldestPending > watch.createdAt;
        T value = builder.build();
        if (clean && watch.pending == 0 && watch.generation == generation && epoch == epochNow && following) {
            entries.put(key, new Entry(value, watch, generation, epochNow));
            count(family, "miss");
        }
        else {
            count(family, "unsettled");
        }
        return value;
    }

    /**
     * @return whether answers are kept now (on, and the reads log followed)
     */
    public boolean keeping() {
        return enabled && following;
    }

    private Watch watch(Dependency dependency) {
        if (dependency instanceof Dependency.Topic t) {
            Watch w = topics.getIfPresent(t.selector());
            return w != null ? w : newWatch(() -> topics.get(t.selector(), k -> new Watch(seen)));
        }
        if (dependency instanceof Dependency.OneRead r) {
            Watch w = reads.getIfPresent(r.id());
            return w != null ? w : newWatch(() -> reads.get(r.id(), k -> new Watch(seen)));
        }
        return chain;
    }

    /**
     * Begins a watch with the number of records seen so far, ordered with {@link #apply}.
     */
    private synchronized Watch newWatch(Supplier<Watch> create) {
        return create.get();
    }

    private void count(String family, String result) {
        if (meters == null) {
            return;
        }
        counters
            .computeIfAbsent(family + '\u0000' + result,
                    k -> Counter.builder("chainfeed.answers.requests")
                        .description("requests for shared answers, by what the cache did")
                        .tag("family", family)
                        .tag("result", result)
                        .register(meters))
            .increment();
    }

    /**
     * @return the listener this class subscribes to the reads log with (for tests, which
     * drive it without a log)
     */
    ReadListener listener() {
        return new Listener();
    }

    /** Takes records off the tail's thread; an overflow drops every answer. */
    private final class Listener implements ReadListener {

        @Override
        public void onStart(LogPosition position) {
            startedAt = position;
            log.info("shared answers follow the reads log from {}; answers are kept once the indexer has"
                    + " committed everything before it", position.text());
        }

        @Override
        public boolean onEvent(ReadEvent event, LogPosition after) {
            if (!events.offer(event)) {
                overflowed.set(true);
            }
            return true;
        }

        @Override
        public void onClosed(CloseReason reason) {
            following = false;
            epoch++;
        }

    }

    /**
     * Keeps answers from now on (for tests, which drive the listener without a log and an
     * indexer).
     */
    void followNow() {
        following = true;
    }

    /**
     * The log is followed from where its tail began; the reads before that point are in
     * the index once the indexer's group has committed past it on every partition and the
     * index has refreshed ({@link #REFRESH_GRACE}). Until then nothing is kept: an answer
     * built now could miss a read written before the api started.
     */
    private void checkFollowing() {
        LogPosition start = startedAt;
        if (following || start == null || subscription == null || subscription.isClosed()) {
            return;
        }
        if (caughtUpNanos == 0) {
            if (indexed.reached(start.offsets())) {
                caughtUpNanos = System.nanoTime();
            }
            return;
        }
        if (System.nanoTime() - caughtUpNanos >= REFRESH_GRACE.toNanos()) {
            following = true;
            log.info("shared answers are kept from now on: the index has every read before {}", start.text());
        }
    }

    /** The invalidator thread: applies the log's records to the watched dependencies. */
    private void invalidate() {
        List<ReadEvent> batch = new ArrayList<>();
        while (running) {
            try {
                ReadEvent first = events.poll(200, TimeUnit.MILLISECONDS);
                if (overflowed.getAndSet(false)) {
                    events.clear();
                    epoch++;
                    log.warn("shared answers fell {} records behind the reads log: every answer dropped", QUEUE);
                    continue;
                }
                if (first == null) {
                    continue;
                }
                batch.clear();
                batch.add(first);
                events.drainTo(batch, 999);
                for (ReadEvent e : batch) {
                    apply(e);
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            catch (RuntimeException e) {
                epoch++;
                log.warn("shared answers could not apply a record; every answer dropped", e);
            }
        }
    }

    /**
     * Moves every dependency the record changes to a new generation and keeps the record
     * pending on it until the index shows it.
     */
    synchronized void apply(ReadEvent event) {
        boolean deleted = event.deleted();
        long version = deleted ? Long.MAX_VALUE : event.read().getVersion();
        List<Watch> changed = new ArrayList<>();
        for (Map.Entry<Selector, Watch> t : topics.asMap().entrySet()) {
            if (deleted || t.getKey().matches(event.read())) {
                changed.add(t.getValue());
            }
        }
        if (deleted) {
            changed.addAll(reads.asMap().values());
        }
        else {
            Watch one = reads.getIfPresent(event.id());
            if (one != null) {
                changed.add(one);
            }
        }
        seen++;
        Pending p = pending.get(event.id());
        if (p == null) {
            p = new Pending(version, deleted, System.nanoTime(), seen);
            pending.put(event.id(), p);
            pendingCount.incrementAndGet();
            if (oldestPending == Long.MAX_VALUE) {
                oldestPending = p.seq;
            }
        }
        else {
            p.deleted = deleted;
            p.version = deleted ? Long.MAX_VALUE : Math.max(p.version, version);
        }
        for (Watch w : changed) {
            if (p.watches.add(w)) {
                w.pending++;
            }
            w.generation++;
        }
    }

    /** The settler thread: asks the index which pending records it shows. */
    private void settleLoop() {
        while (running) {
            try {
                Thread.sleep(settleInterval.toMillis());
                checkFollowing();
                settle();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            catch (IOException | RuntimeException e) {
                log.debug("shared answers could not ask the index which reads it shows: {}", e.toString());
                settleOverdue();
            }
        }
    }

    /**
     * One round: the pending records the index now shows (a deletion: no longer shows)
     * are settled, and so are those older than the settle timeout.
     * @throws IOException when the index cannot be searched
     */
    void settle() throws IOException {
        List<String> ids;
        synchronized (this) {
            if (pending.isEmpty()) {
                return;
            }
            ids = pending.keySet().stream().limit(SETTLE_BATCH).toList();
        }
        Map<String, Long> shown = index.of(ids);
        synchronized (this) {
            for (String id : ids) {
                Pending p = pending.get(id);
                if (p == null) {
                    continue;
                }
                Long version = shown.get(id);
                boolean visible = p.deleted ? version == null : version != null && version >= p.version;
                if (visible) {
                    settle(id, p);
                }
            }
        }
        settleOverdue();
    }

    synchronized void settleOverdue() {
        long now = System.nanoTime();
        List<Map.Entry<String, Pending>> overdue = pending.entrySet()
            .stream()
            .filter(e -> now - e.getValue().seenNanos > settleTimeout.toNanos())
            .toList();
        for (Map.Entry<String, Pending> e : overdue) {
            log.warn("read {} is not searchable {} after the reads log had it; its answers are kept again", e.getKey(),
                    settleTimeout);
            settle(e.getKey(), e.getValue());
        }
    }

    private void settle(String id, Pending p) {
        pending.remove(id);
        pendingCount.decrementAndGet();
        for (Watch w : p.watches) {
            w.pending--;
            w.generation++;
        }
        oldestPending = pending.isEmpty() ? Long.MAX_VALUE : pending.values().iterator().next().seq;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public void start() {
        running = true;
        if (!enabled) {
            return;
        }
        invalidator = new Thread(this::invalidate, "shared-answers");
        invalidator.setDaemon(true);
        invalidator.start();
        settler = new Thread(this::settleLoop, "shared-answers-settle");
        settler.setDaemon(true);
        settler.start();
        subscription = readLog.subscribe(null, Selector.all(), listener());
    }

    @Override
    public void stop() {
        running = false;
        following = false;
        if (subscription != null) {
            subscription.close();
        }
        if (invalidator != null) {
            invalidator.interrupt();
            settler.interrupt();
        }
        if (indexed instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            }
            catch (Exception e) {
                log.debug("closing the admin client: {}", e.toString());
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

}
