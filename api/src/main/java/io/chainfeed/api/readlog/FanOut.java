package io.chainfeed.api.readlog;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hand-over point between replays and the live tail of the {@link ReadLog}. The tail
 * passes each batch it reads to {@link #dispatch}, which gives it to every live
 * subscription and then moves the tail position past it, under one lock. A subscription
 * joins the live set ({@link #goLive}) only under that lock and only once its own
 * position is at or past the tail position: every record before the tail position it has
 * taken from its replay, every record from there on it gets from the tail, and the
 * overlap (a replay that read past the tail position) is dropped by the subscription's
 * own position. So nothing is missed and nothing is seen twice.
 *
 * <p>
 * Kafka-free, so the hand-over rules are unit-tested on their own. Thread-safe.
 */
final class FanOut {

    private final Object lock = new Object();

    private final Set<Subscription> live = ConcurrentHashMap.newKeySet();

    private final Set<Subscription> waiting = ConcurrentHashMap.newKeySet();

    private LogPosition tail;

    /**
     * The tail knows where it starts: readers that asked to start at the end before it
     * knew start here.
     * @param start the tail's first position (the log's end when the API started)
     */
    void ready(LogPosition start) {
        synchronized (lock) {
            tail = start;
            for (Subscription s : waiting) {
                startLive(s);
            }
            waiting.clear();
        }
    }

    /**
     * @return the tail position (every record before it has been dispatched), or null
     * before {@link #ready}
     */
    LogPosition tail() {
        synchronized (lock) {
            return tail;
        }
    }

    /**
     * Gives a batch of the log to every live subscription, then moves the tail position.
     * @param batch records just read, in log order (may be empty when only the position
     * moved, e.g. past transaction markers)
     * @param tailAfter the tail's position after the batch
     */
    void dispatch(List<ReadEvent> batch, LogPosition tailAfter) {
        synchronized (lock) {
            if (!batch.isEmpty()) {
                for (Subscription s : live) {
                    if (!s.offer(batch)) {
                        live.remove(s);
                    }
                }
            }
            tail = tailAfter;
        }
    }

    /**
     * Adds a new reader at the tail position: it sees every record dispatched from now
     * on. Before {@link #ready} it waits for the tail's start.
     * @param s a subscription that has taken no record yet
     */
    void subscribeAtTail(Subscription s) {
        synchronized (lock) {
            if (tail == null) {
                waiting.add(s);
            }
            else {
                startLive(s);
            }
        }
    }

    private void startLive(Subscription s) {
        if (s.isClosed()) {
            return;
        }
        s.startAt(tail);
        s.listener().onStart(tail);
        s.markLive();
        live.add(s);
    }

    /**
     * Hands a replaying subscription over to the tail if it has caught up.
     * @param s a subscription fed by a replay so far
     * @return true if it is now live (the replay must stop feeding it); false if it has
     * not reached the tail position yet (or the tail has not started), and the replay
     * must go on
     */
    boolean goLive(Subscription s) {
        synchronized (lock) {
            if (tail == null || !s.atOrPast(tail)) {
                return false;
            }
            if (!s.isClosed()) {
                s.markLive();
                live.add(s);
            }
            return true;
        }
    }

    /**
     * @param s a closed subscription to forget
     */
    void remove(Subscription s) {
        live.remove(s);
        waiting.remove(s);
    }

    /**
     * @return the live subscriptions now
     */
    List<Subscription> live() {
        return List.copyOf(live);
    }

    /**
     * @return how many subscriptions are live
     */
    int liveCount() {
        return live.size();
    }

}
