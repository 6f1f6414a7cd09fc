package io.chainfeed.api.readlog;

import io.chainfeed.api.selector.Selector;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * One reader's subscription to the {@link ReadLog}. It keeps its own position (next
 * offset per partition) and takes a record only if its offset is at or past that position
 * in its partition, so records seen twice (the replay from Kafka and the live tail
 * overlap at the hand-over) are dropped, and a gap left by compaction is simply skipped
 * (a later version of the same key follows). Records that do not match the selector
 * advance the position without reaching the listener; deletions always reach it.
 *
 * <p>
 * Thread-safe: records come from one thread at a time (the replay worker, then the tail),
 * and {@link #atPosition} may be called from any thread.
 */
public final class Subscription implements AutoCloseable {

    private final Selector selector;

    private final ReadListener listener;

    private final Consumer<Subscription> onClose;

    /** Next offset per partition; grows when a record of a higher partition arrives. */
    private long[] next;

    private boolean closed;

    private boolean live;

    /**
     * @param from where the reader is: records before it are taken as seen
     * @param selector which reads reach the listener
     * @param listener where they go
     * @param onClose called once when the subscription closes (by itself or by the
     * reader)
     */
    Subscription(LogPosition from, Selector selector, ReadListener listener, Consumer<Subscription> onClose) {
        this.selector = selector;
        this.listener = listener;
        this.onClose = onClose;
        this.next = new long[from.partitionLimit()];
        for (int p = 0; p < next.length; p++) {
            next[p] = from.next(p);
        }
    }

    /**
     * @return the selector
     */
    public Selector selector() {
        return selector;
    }

    ReadListener listener() {
        return listener;
    }

    /**
     * Moves the position to {@code position}: only before the first record, for a reader
     * starting at the log's end.
     */
    synchronized void startAt(LogPosition position) {
        next = new long[position.partitionLimit()];
        for (int p = 0; p < next.length; p++) {
            next[p] = position.next(p);
        }
    }

    /**
     * Offers records in log order (per partition by offset).
     * @param events records of the log
     * @return false if the subscription is closed (already, or now because the listener
     * refused a record)
     */
    boolean offer(List<ReadEvent> events) {
        boolean overflow = false;
        synchronized (this) {
            if (closed) {
                return false;
            }
            for (ReadEvent e : events) {
                int p = e.partition();
                if (p >= next.length) {
                    int old = next.length;
                    next = Arrays.copyOf(next, p + 1);
                    Arrays.fill(next, old, next.length, 0L);
                }
                if (e.offset() < next[p]) {
                    continue; // seen already
                }
                next[p] = e.offset() + 1;
                if (!e.deleted() && !selector.matches(e.read())) {
                    continue;
                }
                if (!listener.onEvent(e, LogPosition.ofArray(next))) {
                    overflow = true;
                    closed = true;
                    break;
                }
            }
        }
        if (overflow) {
            listener.onClosed(ReadListener.CloseReason.OVERFLOW);
            onClose.accept(this);
            return false;
        }
        return true;
    }

    /**
     * Moves the position forward to {@code position} where it is behind, for offsets a
     * replay consumer has passed without records to offer: transaction markers and
     * aborted records, which a {@code read_committed} consumer skips. Without this a
     * replay that has read everything before the tail would still sit below the tail
     * position (which counts the markers) and never hand over.
     * @param position a position every record before which has already been offered to
     * this subscription
     */
    synchronized void skipTo(LogPosition position) {
        if (position.partitionLimit() > next.length) {
            int old = next.length;
            next = Arrays.copyOf(next, position.partitionLimit());
            Arrays.fill(next, old, next.length, 0L);
        }
        for (int p = 0; p < next.length; p++) {
            next[p] = Math.max(next[p], position.next(p));
        }
    }

    /**
     * @param target a position of the log
     * @return whether this subscription has taken every record before {@code target}
     */
    synchronized boolean atOrPast(LogPosition target) {
        return position().atOrPast(target);
    }

    /**
     * @return the current position: every record before it has been taken or skipped
     */
    public synchronized LogPosition position() {
        return LogPosition.ofArray(next);
    }

    /**
     * Runs {@code action} with the current position while no record can be delivered, so
     * that anything the action queues is ordered correctly against the records (e.g. an
     * SSE heartbeat carrying the id).
     * @param action what to do with the position; must return at once
     */
    public synchronized void atPosition(Consumer<LogPosition> action) {
        if (!closed) {
            action.accept(position());
        }
    }

    synchronized void markLive() {
        live = true;
    }

    /**
     * @return whether the subscription has been handed over to the live tail
     */
    public synchronized boolean isLive() {
        return live;
    }

    /**
     * @return whether the subscription is closed
     */
    public synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Ends the subscription by the log (not the reader): the listener hears the reason.
     * @param reason why
     */
    void end(ReadListener.CloseReason reason) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        listener.onClosed(reason);
        onClose.accept(this);
    }

    /**
     * Ends the subscription by the reader; no more records reach the listener.
     * Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        onClose.accept(this);
    }

}
