package io.chainfeed.api.webhook;

import io.chainfeed.avro.PartitionOffset;
import io.chainfeed.avro.WebhookDeliveryState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers one subscription, one webhook at a time and in order: a read is posted only
 * after every earlier one was delivered or dead-lettered, so a failing endpoint holds up
 * its own subscription and no other. Reads arrive from the {@link ReadSource} into a
 * bounded queue; when it is full the source is closed and opened again from the last
 * queued record once the queue has half drained (the reads are replayed from Kafka rather
 * than held in memory). The position stored after each attempt is the completed prefix of
 * each partition, so a restart resumes with the first read not yet settled, under the
 * same {@code webhook-id}, with the attempts already made counted.
 *
 * <p>
 * States: idle (queue empty), attempting (one request in flight), waiting (a retry timer
 * set), paused (queue full, source closed), stopped (deleted, disabled or shutting down).
 */
final class SubscriptionWorker {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionWorker.class);

    /** Wait before trying again when the dead-letter topic could not be written. */
    static final Duration DEAD_LETTER_RETRY = Duration.ofSeconds(30);

    /** Wait before checking the delivery lease again when it held a webhook back. */
    static final Duration LEASE_RECHECK = Duration.ofSeconds(1);

    private record Pending(WebhookRead read, Map<Integer, Long> after, String webhookId, String body) {
    }

    private final WebhookEngine engine;

    private final String id;

    private volatile WebhookTarget target;

    private final ArrayDeque<Pending> queue = new ArrayDeque<>();

    /** The source's position after the last read queued: where to reopen it from. */
    private final TreeMap<Integer, Long> accepted = new TreeMap<>();

    /**
     * The source's position after the last read settled (delivered or dead-lettered): the
     * stored position.
     */
    private final TreeMap<Integer, Long> position = new TreeMap<>();

    private long delivered;

    private long deadLettered;

    private int consecutiveFailures;

    private String pendingWebhookId;

    private int attempts;

    private Instant lastAttemptAt;

    private Integer lastStatus;

    private String lastError;

    private Instant lastSuccessAt;

    private Instant nextAttemptAt;

    private Instant failingSince;

    private long revision;

    private boolean inFlight;

    private boolean paused;

    private boolean stopped;

    private boolean draining;

    private int generation;

    private AutoCloseable handle;

    private ScheduledFuture<?> timer;

    SubscriptionWorker(WebhookEngine engine, WebhookTarget target, WebhookDeliveryState stored) {
        this.engine = engine;
        this.id = target.subscriptionId();
        this.target = target;
        for (PartitionOffset p : stored.getPosition()) {
            position.put(p.getPartition(), p.getNextOffset());
        }
        accepted.putAll(position);
        delivered = stored.getDelivered();
        deadLettered = stored.getDeadLettered();
        consecutiveFailures = stored.getConsecutiveFailures();
        pendingWebhookId = stored.getPendingWebhookId();
        attempts = stored.getAttempts();
        lastAttemptAt = stored.getLastAttemptAt();
        lastStatus = stored.getLastStatus();
        lastError = stored.getLastError();
        lastSuccessAt = stored.getLastSuccessAt();
        nextAttemptAt = stored.getNextAttemptAt();
        failingSince = stored.getFailingSince();
        revision = stored.getRevision();
    }

    String id() {
        return id;
    }

    void update(WebhookTarget newTarget) {
        this.target = newTarget;
    }

    /** Opens the source from the stored position. */
    void start() {
        engine.background(this::openSource);
    }

    private void openSource() {
        int gen;
        Map<Integer, Long> from;
        synchronized (this) {
            if (stopped || draining) {
                return;
            }
            gen = ++generation;
            from = new TreeMap<>(accepted);
        }
        AutoCloseable h;
        try {
            h = engine.parts().source().subscribe(from, target.selector(), new ReadSource.Listener() {
                @Override
                public boolean onRead(WebhookRead read, Map<Integer, Long> after) {
                    return SubscriptionWorker.this.onRead(gen, read, after);
                }

                @Override
                public int capacity() {
                    return SubscriptionWorker.this.capacity();
                }

                @Override
                public void onClosed(boolean overflow) {
                    SubscriptionWorker.this.onClosed(gen);
                }
            });
        }
        catch (RuntimeException e) {
            log.warn("webhook {}: cannot open the read source ({}); retrying in 5 s", id, e.getMessage());
            engine.later(this::openSource, Duration.ofSeconds(5));
            return;
        }
        boolean keep;
        synchronized (this) {
            keep = !stopped && gen == generation;
            if (keep) {
                handle = h;
            }
        }
        if (!keep) {
            close(h);
        }
    }

    private boolean onRead(int gen, WebhookRead r, Map<Integer, Long> after) {
        synchronized (this) {
            if (stopped || draining || gen != generation || paused) {
                // an old or ended subscription: ignore, the reopened one replays it
                return true;
            }
            if (r.offset() < accepted.getOrDefault(r.partition(), 0L)) {
                return true; // already queued (a replay overlap)
            }
            if (queue.size() >= engine.parts().queueCapacity()) {
                // Full: the source ends this subscription; it is reopened from the last
                // queued read
                // once the queue has half drained (see attempt()).
                paused = true;
                generation++;
                handle = null;
                log.debug("webhook {}: {} reads queued; the rest is read from Kafka once they drain", id, queue.size());
                return false;
            }
            String webhookId = WebhookSignatures.webhookId(id, r.partition(), r.offset(), r.readId(),
                    r.deleted() ? -1 : r.read().getVersion());
            queue.add(new Pending(r, new TreeMap<>(after), webhookId, body(r)));
            accepted.clear();
            accepted.putAll(after);
            pump();
            return true;
        }
    }

    private synchronized int capacity() {
        return Math.max(0, engine.parts().queueCapacity() - queue.size());
    }

    /**
     * The source ended the subscription (listener full, or the source stops): reopen once
     * drained.
     */
    private void onClosed(int gen) {
        boolean reopen;
        synchronized (this) {
            if (stopped || draining || gen != generation) {
                return;
            }
            generation++;
            handle = null;
            paused = true;
            reopen = queue.size() <= engine.parts().queueCapacity() / 2 && !inFlight;
            if (reopen) {
                paused = false;
            }
        }
        if (reopen) {
            engine.later(this::openSource, Duration.ofSeconds(1));
        }
    }

    /**
     * The webhook body, in the payload shape Standard Webhooks recommends: {@code type}
     * ({@code read.published} or {@code read.deleted}), {@code timestamp} (when the read
     * record was written, ISO-8601 UTC) and {@code data} (the read's pushed JSON view).
     */
    static String body(WebhookRead r) {
        String type = r.deleted() ? "read.deleted" : "read.published";
        return "{\"type\":\"" + type + "\",\"timestamp\":\"" + Instant.ofEpochMilli(r.timestampMs()) + "\",\"data\":"
                + new String(r.dataJson(), StandardCharsets.UTF_8) + "}";
    }

    /** Starts the next attempt if one is due; must hold the lock. */
    private void pump() {
        if (stopped || draining || inFlight || timer != null || queue.isEmpty()) {
            return;
        }
        Instant now = engine.parts().clock().instant();
        if (nextAttemptAt != null && nextAttemptAt.isAfter(now)) {
            timer = engine.later(this::onTimer, Duration.between(now, nextAttemptAt));
            return;
        }
        inFlight = true;
        engine.attempt(this::attempt);
    }

    /**
     * The owner asked to retry now ({@code POST .../recover}): unless an attempt was made
     * after the request, cancels the wait before the next attempt and starts it. Once it
     * succeeds, the webhooks queued behind it follow one after another without waiting.
     * @param requestedAt when the owner asked
     */
    synchronized void recover(Instant requestedAt) {
        if (stopped || draining || (lastAttemptAt != null && !lastAttemptAt.isBefore(requestedAt))) {
            return;
        }
        if (nextAttemptAt == null && timer == null) {
            return; // nothing waits: idle, or an attempt in flight
        }
        log.info("webhook {}: recover asked at {}: retrying {} now instead of at {}", id, requestedAt, pendingWebhookId,
                nextAttemptAt);
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        nextAttemptAt = null;
        pump();
    }

    /**
     * @return the first failed attempt since the last success, or null while the endpoint
     * takes webhooks
     */
    synchronized Instant failingSince() {
        return failingSince;
    }

    private synchronized void onTimer() {
        timer = null;
        nextAttemptAt = null;
        pump();
    }

    private void attempt() {
        Pending head;
        WebhookTarget t;
        synchronized (this) {
            head = queue.peek();
            if (stopped || draining || head == null) {
                inFlight = false;
                notifyAll();
                return;
            }
            if (!engine.mayDeliver(id)) {
                // Fenced (the lease may be gone): hold the webhook; a hand-over or a loss
                // stops this worker.
                inFlight = false;
                notifyAll();
                timer = engine.later(this::onTimer, LEASE_RECHECK);
                return;
            }
            t = target;
            if (!head.webhookId().equals(pendingWebhookId)) {
                pendingWebhookId = head.webhookId();
                attempts = 0;
            }
        }
        Instant now = engine.parts().clock().instant();
        long timestamp = now.getEpochSecond();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("webhook-id", head.webhookId());
        headers.put("webhook-timestamp", Long.toString(timestamp));
        headers.put("webhook-signature",
                WebhookSignatures.signatureHeader(t.liveKeys(now), head.webhookId(), timestamp, head.body()));
        long sendStart = System.nanoTime();
        WebhookSender.Outcome outcome = engine.parts().sender().send(t.url(), head.body(), headers);
        long sendNanos = System.nanoTime() - sendStart;
        Instant done = engine.parts().clock().instant();

        DeliveryPolicy.Decision decision;
        synchronized (this) {
            if (stopped) {
                inFlight = false; // deleted meanwhile: nothing more to record
                notifyAll();
                return;
            }
            attempts++;
            lastAttemptAt = done;
            lastStatus = outcome.status().orElse(null);
            lastError = outcome.error().orElse(null);
            decision = engine.parts().policy().decide(outcome, attempts, done);
        }
        if (decision instanceof DeliveryPolicy.DeadLetter dl) {
            try {
                engine.parts()
                    .journal()
                    .deadLetter(id, head.webhookId(), head.body(), dl.reason(),
                            "chainfeed.reads.v1-" + head.read().partition() + "@" + head.read().offset());
            }
            catch (Exception e) {
                log.warn("webhook {}: cannot write the dead letter for {} ({}); keeping it", id, head.webhookId(),
                        e.getMessage());
                decision = new DeliveryPolicy.Retry(DEAD_LETTER_RETRY);
            }
        }
        engine.parts().meters().attempt(decision, sendNanos);
        WebhookDeliveryState snapshot;
        boolean disable = false;
        synchronized (this) {
            inFlight = false;
            notifyAll();
            if (decision instanceof DeliveryPolicy.Delivered) {
                settle(head);
                delivered++;
                consecutiveFailures = 0;
                lastSuccessAt = done;
                failingSince = null;
            }
            else if (decision instanceof DeliveryPolicy.Retry r) {
                consecutiveFailures++;
                nextAttemptAt = done.plus(r.delay());
            }
            else if (decision instanceof DeliveryPolicy.DeadLetter dl) {
                settle(head);
                deadLettered++;
                consecutiveFailures++;
                lastError = dl.reason();
            }
            else if (decision instanceof DeliveryPolicy.Disable d) {
                consecutiveFailures++;
                lastError = d.reason();
                nextAttemptAt = null;
                disable = true;
                // No further attempt from here on: a read arriving before the engine
                // removes this worker
                // would otherwise send the 410'd webhook again (pump() sees nothing in
                // flight and no timer).
                draining = true;
            }
            if (!(decision instanceof DeliveryPolicy.Delivered) && failingSince == null) {
                failingSince = done;
            }
            revision++;
            snapshot = snapshotLocked();
        }
        engine.parts().journal().save(snapshot);
        if (disable) {
            log.info("webhook {}: {}; subscription disabled", id, lastError);
            engine.parts().journal().disable(id, ((DeliveryPolicy.Disable) decision).reason());
            engine.remove(id);
            return;
        }
        boolean resume;
        synchronized (this) {
            pump();
            resume = paused && !stopped && queue.size() <= engine.parts().queueCapacity() / 2;
            if (resume) {
                paused = false;
            }
        }
        if (resume) {
            engine.background(this::openSource);
        }
    }

    /**
     * The head webhook is done with (delivered or dead-lettered): move the position past
     * it.
     */
    private void settle(Pending head) {
        queue.poll();
        position.clear();
        position.putAll(head.after());
        pendingWebhookId = null;
        attempts = 0;
        nextAttemptAt = null;
    }

    /**
     * @return the current state, as stored
     */
    synchronized WebhookDeliveryState snapshot() {
        return snapshotLocked();
    }

    private WebhookDeliveryState snapshotLocked() {
        List<PartitionOffset> offsets = new ArrayList<>();
        position.forEach((p, o) -> offsets.add(new PartitionOffset(p, o)));
        return WebhookDeliveryState.newBuilder()
            .setSubscriptionId(id)
            .setPosition(offsets)
            .setDelivered(delivered)
            .setDeadLettered(deadLettered)
            .setConsecutiveFailures(consecutiveFailures)
            .setPendingWebhookId(pendingWebhookId)
            .setAttempts(attempts)
            .setLastAttemptAt(lastAttemptAt)
            .setLastStatus(lastStatus)
            .setLastError(lastError)
            .setLastSuccessAt(lastSuccessAt)
            .setNextAttemptAt(nextAttemptAt)
            .setFailingSince(failingSince)
            .setUpdatedAt(engine.parts().clock().instant())
            .setRevision(revision)
            .build();
    }

    /**
     * @return webhooks queued in memory, the one being tried included
     */
    synchronized int queued() {
        return queue.size();
    }

    /**
     * Starts no further attempt and closes the source; an attempt in flight still records
     * its outcome. Used at shutdown, before {@link #stop()}.
     */
    void quiesce() {
        AutoCloseable h;
        synchronized (this) {
            draining = true;
            h = detach();
        }
        close(h);
    }

    /**
     * Waits until no attempt is in flight (after {@link #quiesce()} none starts again).
     * @param timeout how long to wait
     * @return whether none is in flight
     */
    synchronized boolean awaitIdle(Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        try {
            while (inFlight) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return true;
    }

    /** Stops for good: closes the source, cancels the timer, drops the queue. */
    void stop() {
        AutoCloseable h;
        synchronized (this) {
            stopped = true;
            h = detach();
            queue.clear();
        }
        close(h);
    }

    /**
     * Under this worker's lock: outdates scheduled and in-flight work (a new generation),
     * cancels the timer and takes the source handle for the caller to close outside the
     * lock.
     */
    private AutoCloseable detach() {
        generation++;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        AutoCloseable h = handle;
        handle = null;
        return h;
    }

    private void close(AutoCloseable h) {
        if (h == null) {
            return;
        }
        try {
            h.close();
        }
        catch (Exception e) {
            log.debug("webhook {}: closing the read source: {}", id, e.getMessage());
        }
    }

    /**
     * @param head the source's head (next offset per partition)
     * @return records between this subscription's stored position and the head: what it
     * has not settled yet
     */
    synchronized long lag(Map<Integer, Long> head) {
        long sum = 0;
        for (Map.Entry<Integer, Long> e : head.entrySet()) {
            sum += Math.max(0, e.getValue() - position.getOrDefault(e.getKey(), 0L));
        }
        return sum;
    }

    @Override
    public String toString() {
        return "webhook " + id;
    }

}
