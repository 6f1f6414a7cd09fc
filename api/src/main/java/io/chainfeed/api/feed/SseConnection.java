package io.chainfeed.api.feed;

import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadEvent;
import io.chainfeed.api.readlog.ReadListener;
import io.chainfeed.api.readlog.Subscription;
import io.chainfeed.api.selector.Selector;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SSE client, written with Servlet non-blocking IO: no thread waits on its socket.
 * Frames queue in a bounded buffer (counted in events); a drain writes them while the
 * container says the socket can take more ({@code isReady()}), and the container calls
 * back ({@link #onWritePossible}) when it can again. At most one thread drains at a time
 * (a work-in-progress counter), so the output stream is never used concurrently. The
 * log's threads only queue.
 *
 * <p>
 * Frames follow the SSE format (WHATWG HTML, "Server-sent events"): {@code retry:} first,
 * then {@code event: ready} with the starting id, then {@code event: read} /
 * {@code event: deleted} with the JSON on one {@code data:} line and the reader's
 * {@link LogPosition} as {@code id:}, and heartbeat comments that also carry the id when
 * the position moved past reads the selector skipped (an event with an id and no data
 * updates the client's last event id without firing an event).
 */
final class SseConnection implements ReadListener, WriteListener, AsyncListener {

    private static final Logger log = LoggerFactory.getLogger(SseConnection.class);

    private final SseStreams owner;

    private final AsyncContext async;

    private final ServletOutputStream out;

    private final Executor writers;

    private final int bufferEvents;

    private final LogPosition from;

    private final Selector selector;

    /**
     * One whole SSE frame, written with one {@code write} (an event's frame is shared
     * with the other connections that take it at the same position:
     * {@link ReadEvent#sseFrame}).
     */
    private record Frame(byte[] bytes, boolean event) {
        static Frame of(byte[] bytes) {
            return new Frame(bytes, false);
        }
    }

    /** Frames to write; guarded by {@code this}. */
    private final ArrayDeque<Frame> queue = new ArrayDeque<>();

    private int queuedEvents;

    /**
     * The position of the last id queued (ready, event or heartbeat); guarded by
     * {@code this}.
     */
    private LogPosition lastQueued;

    private final AtomicInteger wip = new AtomicInteger();

    private final AtomicBoolean subscribed = new AtomicBoolean();

    private volatile boolean closing;

    private volatile Subscription subscription;

    private volatile long idleSinceNanos = System.nanoTime();

    private volatile boolean pending;

    // Drain state, touched only by the thread that holds wip.
    private boolean unflushed;

    private volatile boolean finished;

    SseConnection(SseStreams owner, AsyncContext async, ServletOutputStream out, Executor writers, int bufferEvents,
            LogPosition from, Selector selector) {
        this.owner = owner;
        this.async = async;
        this.out = out;
        this.writers = writers;
        this.bufferEvents = bufferEvents;
        this.from = from;
        this.selector = selector;
    }

    /**
     * Queues the {@code retry:} field (milliseconds the client waits before
     * reconnecting).
     */
    synchronized void retry(long millis) {
        queue.add(Frame.of(("retry: " + millis + "\n\n").getBytes(StandardCharsets.US_ASCII)));
    }

    // ---- ReadListener: called on the log's threads; queue only
    // ---------------------------------

    @Override
    public void onStart(LogPosition position) {
        String id = position.text();
        synchronized (this) {
            queue.add(Frame.of(("id: " + id + "\nevent: ready\ndata: {}\n\n").getBytes(StandardCharsets.US_ASCII)));
            lastQueued = position;
        }
        signal(false);
    }

    @Override
    public boolean onEvent(ReadEvent event, LogPosition after) {
        synchronized (this) {
            if (closing) {
                return false;
            }
            if (queuedEvents >= bufferEvents) {
                return false;
            }
            queue.add(new Frame(event.sseFrame(after), true));
            queuedEvents++;
            lastQueued = after;
        }
        signal(false);
        return true;
    }

    @Override
    public synchronized int capacity() {
        return closing ? 0 : bufferEvents - queuedEvents;
    }

    @Override
    public void onClosed(CloseReason reason) {
        log.debug("SSE stream closed by the log: {}", reason);
        close();
    }

    // ---- heartbeats
    // ------------------------------------------------------------------------------

    /**
     * Queues a heartbeat comment, with the id when the position moved since the last id
     * queued; closes the stream if the client has taken nothing for {@code stallNanos}
     * while data waited.
     * @param stallNanos how long unwritten data may wait
     * @return false if the connection is (now) closed
     */
    boolean heartbeat(long stallNanos) {
        if (closing) {
            return false;
        }
        if (pending && System.nanoTime() - idleSinceNanos > stallNanos) {
            log.debug("SSE client took nothing for {} ms; closing", stallNanos / 1_000_000);
            close();
            return false;
        }
        Subscription s = subscription;
        if (s == null) {
            synchronized (this) {
                queue.add(Frame.of(HEARTBEAT));
            }
        }
        else {
            s.atPosition(position -> {
                String id = position.text();
                synchronized (this) {
                    if (queue.size() > bufferEvents) {
                        // the client is behind; the events already queued keep the stream
                        // alive
                        return;
                    }
                    if (id.isEmpty() || position.equals(lastQueued)) {
                        queue.add(Frame.of(HEARTBEAT));
                    }
                    else {
                        queue.add(Frame.of((": keep-alive\nid: " + id + "\n\n").getBytes(StandardCharsets.US_ASCII)));
                        lastQueued = position;
                    }
                }
            });
        }
        signal(false);
        return true;
    }

    private static final byte[] HEARTBEAT = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    // ---- writing
    // -----------------------------------------------------------------------------------

    /**
     * The container can take output (first call: the stream is set up, so subscribe now).
     */
    @Override
    public void onWritePossible() {
        if (subscribed.compareAndSet(false, true)) {
            try {
                subscription = owner.readLog().subscribe(from, selector, this);
            }
            catch (RuntimeException e) {
                log.warn("cannot subscribe an SSE stream: {}", e.getMessage());
                close();
            }
            if (closing && subscription != null) {
                subscription.close();
            }
        }
        signal(true);
    }

    /**
     * Makes sure a drain runs: on this thread if {@code inline} (a container thread),
     * else on a writer.
     */
    private void signal(boolean inline) {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        if (inline) {
            drain();
        }
        else {
            try {
                writers.execute(this::drain);
            }
            catch (RuntimeException e) {
                // writers shut down: nothing more will be written
                wip.set(0);
            }
        }
    }

    private void drain() {
        int missed = 1;
        while (true) {
            if (!finished) {
                drainOnce();
            }
            missed = wip.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    private void drainOnce() {
        try {
            if (closing) {
                finish();
                return;
            }
            while (out.isReady()) {
                Frame frame;
                synchronized (this) {
                    frame = queue.poll();
                    if (frame != null && frame.event()) {
                        queuedEvents--;
                    }
                }
                if (frame == null) {
                    if (unflushed) {
                        unflushed = false;
                        // The flush may still be under way when it returns; the next
                        // drain starts with
                        // isReady(), which asks the container for onWritePossible if it
                        // is. Not asking
                        // again here saves a round through the container's lock on every
                        // event.
                        out.flush();
                    }
                    pending = false;
                    idleSinceNanos = System.nanoTime();
                    return;
                }
                out.write(frame.bytes());
                unflushed = true;
            }
            // The socket is full: the container calls onWritePossible when it drains.
            if (!pending) {
                pending = true;
                idleSinceNanos = System.nanoTime();
            }
        }
        catch (IOException | IllegalStateException e) {
            log.debug("SSE write failed: {}", e.getMessage());
            closing = true;
            finish();
        }
    }

    private void finish() {
        if (finished) {
            return;
        }
        finished = true;
        synchronized (this) {
            queue.clear();
            queuedEvents = 0;
        }
        try {
            async.complete();
        }
        catch (IllegalStateException e) {
            // already completed by the container (client gone)
        }
    }

    /**
     * Ends the stream (idempotent): unsubscribes, forgets the connection and completes
     * the response.
     */
    void close() {
        if (closing) {
            signal(false);
            return;
        }
        closing = true;
        cleanUp();
    }

    @Override
    public void onError(Throwable t) {
        log.debug("SSE stream error: {}", t.getMessage());
        closing = true;
        cleanUp();
    }

    /** Detaches the connection and wakes the writer, which then finishes the response. */
    private void cleanUp() {
        detach();
        signal(false);
    }

    /** Unsubscribes from the read log and leaves the owner's set of open connections. */
    private void detach() {
        Subscription s = subscription;
        if (s != null) {
            s.close();
        }
        owner.forget(this);
    }

    // ---- AsyncListener: the container ends the request
    // -------------------------------------------

    @Override
    public void onComplete(AsyncEvent event) {
        closing = true;
        finished = true;
        detach();
        synchronized (this) {
            queue.clear();
            queuedEvents = 0;
        }
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        close();
    }

    @Override
    public void onError(AsyncEvent event) {
        onError(event.getThrowable());
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }

}
