package io.chainfeed.api.access;

import io.chainfeed.api.support.problem.TooManyRequestsException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers a per-client 429 no sooner than the client could have come back: the refusal is
 * held, without a request thread, for {@code min(Retry-After, delay)} and then sent.
 *
 * <p>
 * A client that honours {@code Retry-After} (RFC 9110 section 10.2.3) loses nothing: it
 * would have waited that long anyway. A client that ignores it and loops (one address
 * searching in a tight loop) gets about one refusal per delay on each of its connections
 * instead of thousands a second, so its refusals no longer take the CPU that every other
 * visitor's answers need. The practice is the tarpit of mail and web servers (delaying
 * answers to a misbehaving peer instead of answering it faster).
 *
 * <p>
 * How: the request is put in asynchronous mode (Servlet 6.0 {@link AsyncContext}), the
 * refusal is kept as a request attribute ({@link #HELD}), and a single timer thread
 * dispatches the request again when the delay is up; {@link ClientLimitInterceptor} then
 * throws the kept refusal on that dispatch, so the 429 is rendered by the same problem
 * handler, with the same {@code Retry-After} and rate-limit fields, as an immediate one.
 * At most {@code maxHeld} refusals are held at once (each holds an open connection, not a
 * thread); past that, and with a zero delay, refusals are answered at once.
 */
public final class RefusalDelays implements AutoCloseable {

    /** The request attribute holding the refusal to throw on the delayed dispatch. */
    static final String HELD = RefusalDelays.class.getName() + ".held";

    private final long delayNanos;

    private final int maxHeld;

    private final AtomicInteger held = new AtomicInteger();

    private final AtomicLong delayed = new AtomicLong();

    private final AtomicLong immediate = new AtomicLong();

    private final ScheduledExecutorService timer;

    /**
     * @param delay the longest a refusal is held (zero: every refusal is answered at
     * once)
     * @param maxHeld how many refusals may be held at once, at least 1
     * @throws IllegalArgumentException for a negative delay or {@code maxHeld} under 1
     */
    public RefusalDelays(Duration delay, int maxHeld) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("the refusal delay must not be negative: " + delay);
        }
        if (maxHeld < 1) {
            throw new IllegalArgumentException("at least one refusal must be allowed to be held: " + maxHeld);
        }
        this.delayNanos = delay.toNanos();
        this.maxHeld = maxHeld;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "refusal-delays");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Holds the refusal and answers it later, if it can.
     * @param request the refused request, on its first ({@code REQUEST}) dispatch
     * @param response its response
     * @param refusal the 429 to answer, whose {@code Retry-After} bounds the delay
     * @return true when the request was put in asynchronous mode and will be dispatched
     * again after the delay (the caller must then stop handling it); false when the
     * caller must answer the refusal now (no delay set, too many held, or asynchronous
     * mode not supported on this request)
     */
    public boolean hold(HttpServletRequest request, HttpServletResponse response, TooManyRequestsException refusal) {
        if (delayNanos == 0 || !request.isAsyncSupported()) {
            immediate.incrementAndGet();
            return false;
        }
        if (held.incrementAndGet() > maxHeld) {
            held.decrementAndGet();
            immediate.incrementAndGet();
            return false;
        }
        long nanos = Math.min(delayNanos, TimeUnit.SECONDS.toNanos(refusal.retryAfterSeconds()));
        AsyncContext async;
        try {
            request.setAttribute(HELD, refusal);
            async = request.startAsync(request, response);
        }
        catch (IllegalStateException e) {
            request.removeAttribute(HELD);
            held.decrementAndGet();
            immediate.incrementAndGet();
            return false;
        }
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                held.decrementAndGet();
            }
        };
        // the container's own deadline, should the timer never fire (a stopped executor)
        async.setTimeout(TimeUnit.NANOSECONDS.toMillis(nanos) + 10_000);
        async.addListener(new Release(release));
        delayed.incrementAndGet();
        try {
            timer.schedule(() -> {
                release.run();
                async.dispatch();
            }, nanos, TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException e) {
            // shutting down: answer now, on a container thread
            release.run();
            async.dispatch();
        }
        return true;
    }

    /**
     * @return refusals held at this moment
     */
    public int held() {
        return held.get();
    }

    /**
     * @return refusals held and answered later since start
     */
    public long delayedCount() {
        return delayed.get();
    }

    /**
     * @return refusals answered at once since start (no delay set, or too many held)
     */
    public long immediateCount() {
        return immediate.get();
    }

    /**
     * Stops taking new holds; refusals already held are still answered when their delay
     * is up.
     */
    @Override
    public void close() {
        timer.shutdown();
    }

    /** Frees the slot when the request ends some other way (a timeout, a client gone). */
    private record Release(Runnable release) implements AsyncListener {

        @Override
        public void onComplete(AsyncEvent event) {
            release.run();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            release.run();
        }

        @Override
        public void onError(AsyncEvent event) {
            release.run();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }

    }

}
