package io.chainfeed.api.webhook;

import io.chainfeed.avro.WebhookDeliveryState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * Runs one {@link SubscriptionWorker} per active subscription. Attempts run on a fixed
 * pool of {@code workers} threads (each worker has at most one in flight, so one slow
 * endpoint takes at most one thread); retry timers on one scheduler thread; opening and
 * closing read sources on another. Thread-safe.
 */
public final class WebhookEngine implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WebhookEngine.class);

    /**
     * How long a hand-over waits, in all, for Kafka to acknowledge the positions it
     * stores.
     */
    static final Duration HAND_OVER_FLUSH = Duration.ofSeconds(5);

    /**
     * What the workers share: the read source, the sender, the policy, the journal, the
     * clock, the reads held in memory per subscription and the meters attempts count on.
     */
    record Parts(ReadSource source, WebhookSender sender, DeliveryPolicy policy, DeliveryJournal journal, Clock clock,
            int queueCapacity, WebhookMeters meters) {
    }

    private final Parts parts;

    private final ThreadPoolExecutor attempts;

    private final ScheduledExecutorService timers;

    private final ExecutorService background;

    private final Map<String, SubscriptionWorker> workers = new ConcurrentHashMap<>();

    private volatile Predicate<String> fence = id -> true;

    /**
     * @param source where reads come from
     * @param sender posts webhooks
     * @param policy what follows an attempt
     * @param journal where progress, dead letters and disabled subscriptions are recorded
     * @param clock the time source
     * @param threads attempts in flight at once
     * @param queueCapacity reads held in memory per subscription
     * @param meters where attempts count
     * @throws NullPointerException if {@code meters} is null
     */
    WebhookEngine(ReadSource source, WebhookSender sender, DeliveryPolicy policy, DeliveryJournal journal, Clock clock,
            int threads, int queueCapacity, WebhookMeters meters) {
        this.parts = new Parts(source, sender, policy, journal, clock, queueCapacity,
                Objects.requireNonNull(meters, "meters"));
        this.attempts = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                named("webhook-attempt"));
        this.timers = Executors.newSingleThreadScheduledExecutor(named("webhook-timer"));
        this.background = Executors.newSingleThreadExecutor(named("webhook-source"));
    }

    /**
     * @return the records every running subscription has yet to settle, summed (0 when
     * the source's head is not known yet)
     */
    public long lag() {
        Map<Integer, Long> head = parts.source().head();
        return head == null ? 0 : workers.values().stream().mapToLong(w -> w.lag(head)).sum();
    }

    /**
     * @return the largest lag of one running subscription, in records
     */
    public long maxLag() {
        Map<Integer, Long> head = parts.source().head();
        return head == null ? 0 : workers.values().stream().mapToLong(w -> w.lag(head)).max().orElse(0);
    }

    /**
     * Starts delivering a subscription, or gives a running one its new target (a rotated
     * secret).
     * @param target the subscription's target and keys
     * @param stored its stored progress (the position to resume from)
     */
    public void upsert(WebhookTarget target, WebhookDeliveryState stored) {
        SubscriptionWorker running = workers.get(target.subscriptionId());
        if (running != null) {
            running.update(target);
            return;
        }
        SubscriptionWorker worker = new SubscriptionWorker(this, target, stored);
        if (workers.putIfAbsent(target.subscriptionId(), worker) == null) {
            worker.start();
        }
        else {
            workers.get(target.subscriptionId()).update(target);
        }
    }

    /**
     * Retries now every webhook due for a subscription this engine delivers, unless an
     * attempt was made since the request (see {@link SubscriptionService#recover}).
     * @param subscriptionId the subscription
     * @param requestedAt when the owner asked
     */
    public void recover(String subscriptionId, Instant requestedAt) {
        SubscriptionWorker w = workers.get(subscriptionId);
        if (w != null) {
            w.recover(requestedAt);
        }
    }

    /**
     * @param threshold how long an endpoint must have kept failing
     * @return how many of the subscriptions this engine delivers have had no 2xx since a
     * first failed attempt longer ago than {@code threshold}
     */
    public long failing(Duration threshold) {
        Instant before = parts.clock().instant().minus(threshold);
        return workers.values()
            .stream()
            .filter(w -> w.failingSince() != null && w.failingSince().isBefore(before))
            .count();
    }

    /**
     * Stops delivering a subscription (deleted or disabled); its stored progress stays as
     * it is.
     * @param subscriptionId the subscription
     */
    public void remove(String subscriptionId) {
        SubscriptionWorker w = workers.remove(subscriptionId);
        if (w != null) {
            w.stop();
        }
    }

    /**
     * Hands subscriptions over to another instance: starts no further attempt for any of
     * them, waits (up to {@code grace} in all) for the attempts in flight to record their
     * outcome, stores each position durably (waiting at most {@link #HAND_OVER_FLUSH} in
     * all for Kafka; past that the positions are sent without waiting) and stops the
     * workers. A webhook cut off by the grace, or whose position was not stored, is sent
     * again by the next owner under the same {@code webhook-id}.
     * @param subscriptionIds the subscriptions (those this engine does not deliver are
     * skipped)
     * @param grace how long to wait for attempts in flight, in all
     */
    public void handOver(Collection<String> subscriptionIds, Duration grace) {
        List<SubscriptionWorker> leaving = subscriptionIds.stream()
            .map(workers::remove)
            .filter(Objects::nonNull)
            .toList();
        leaving.forEach(SubscriptionWorker::quiesce);
        long deadline = System.nanoTime() + grace.toNanos();
        for (SubscriptionWorker w : leaving) {
            if (!w.awaitIdle(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                log.warn("{}: attempt still in flight after {}; the next owner sends it again", w, grace);
            }
        }
        // One budget for all the positions, on a thread of its own: a broker that is gone
        // (every process of
        // the machine stopping at once) can block even the producer's send() for its
        // max.block.ms.
        Thread store = new Thread(() -> {
            long flushDeadline = System.nanoTime() + HAND_OVER_FLUSH.toNanos();
            for (SubscriptionWorker w : leaving) {
                try {
                    long left = flushDeadline - System.nanoTime();
                    if (left <= 0) {
                        parts.journal().save(w.snapshot());
                    }
                    else {
                        parts.journal().flush(w.snapshot(), Duration.ofNanos(left));
                    }
                }
                catch (RuntimeException e) {
                    log.warn(
                            "{}: cannot store the position at hand-over ({}); the next owner resumes from the"
                                    + " last stored one and sends the webhooks since under the same ids",
                            w, e.getMessage());
                }
            }
        }, "webhook-hand-over");
        store.setDaemon(true);
        store.start();
        try {
            store.join(HAND_OVER_FLUSH.toMillis() + 100);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (store.isAlive()) {
            log.warn(
                    "positions of {} subscription(s) not stored within {} at hand-over; the next owner resumes from"
                            + " the last stored ones and sends the webhooks since under the same ids",
                    leaving.size(), HAND_OVER_FLUSH);
        }
        leaving.forEach(SubscriptionWorker::stop);
    }

    /**
     * Sets the check each worker makes right before it sends: false holds the webhook
     * back (checked again a second later). The delivery lease uses it to fence an
     * instance that may have lost its partitions.
     * @param mayDeliver subscription id -> whether this instance may send its webhooks
     * now
     */
    public void fence(Predicate<String> mayDeliver) {
        this.fence = mayDeliver;
    }

    boolean mayDeliver(String subscriptionId) {
        return fence.test(subscriptionId);
    }

    /**
     * @return the ids of the subscriptions this engine delivers now
     */
    public Set<String> delivering() {
        return Set.copyOf(workers.keySet());
    }

    /**
     * @param subscriptionId a subscription
     * @return its live progress, if this engine delivers it
     */
    public Optional<WebhookDeliveryState> progress(String subscriptionId) {
        return Optional.ofNullable(workers.get(subscriptionId)).map(SubscriptionWorker::snapshot);
    }

    /**
     * @param subscriptionId a subscription
     * @return whether this engine delivers it now
     */
    public boolean delivers(String subscriptionId) {
        return workers.containsKey(subscriptionId);
    }

    /**
     * @return the number of subscriptions being delivered
     */
    public int size() {
        return workers.size();
    }

    Parts parts() {
        return parts;
    }

    void attempt(Runnable task) {
        attempts.execute(task);
    }

    ScheduledFuture<?> later(Runnable task, Duration delay) {
        return timers.schedule(task, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
    }

    void background(Runnable task) {
        if (!background.isShutdown()) {
            background.execute(task);
        }
    }

    /**
     * Stops every worker and waits (up to {@code grace}) for attempts in flight to finish
     * and record their outcome; a webhook cut off here is sent again after a restart,
     * under the same id.
     * @param grace how long to wait for attempts in flight
     */
    public void close(Duration grace) {
        workers.values().forEach(SubscriptionWorker::quiesce);
        timers.shutdownNow();
        background.shutdownNow();
        attempts.shutdown();
        try {
            if (!attempts.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("webhook attempts still in flight after {}; they will be sent again after a restart", grace);
                attempts.shutdownNow();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.values().forEach(SubscriptionWorker::stop);
        workers.clear();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /**
     * @param prefix thread name prefix ({@code -1}, {@code -2} ... follow)
     * @return a factory of daemon threads with that prefix
     */
    static ThreadFactory named(String prefix) {
        CustomizableThreadFactory f = new CustomizableThreadFactory(prefix + "-");
        f.setDaemon(true);
        return f;
    }

}
