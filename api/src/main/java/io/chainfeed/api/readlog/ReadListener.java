package io.chainfeed.api.readlog;

/**
 * Receives the records of a {@link ReadLog} subscription. Every method is called on a
 * {@link ReadLog} thread (the live tail, shared by every subscriber, or a replay worker)
 * and must return at once: queue the work, never block or write to a network.
 */
public interface ReadListener {

    /**
     * The position the subscription starts from is known: the given one for a resume, the
     * log's end at the moment of subscribing for a new reader. Called once, before any
     * {@link #onEvent}.
     * @param position every record before it is taken as seen
     */
    default void onStart(LogPosition position) {
    }

    /**
     * A record the subscriber has not seen that matches its selector, or any deletion (a
     * tombstone carries no tags to match). Per partition in offset order, never twice.
     * @param event the record (shared with other subscribers: do not modify its JSON)
     * @param after the subscriber's position once this record is taken: its resume point
     * @return true if taken; false if the listener's buffer is full, which closes the
     * subscription with {@link CloseReason#OVERFLOW}
     */
    boolean onEvent(ReadEvent event, LogPosition after);

    /**
     * Paces a replay from Kafka: the replay waits while this is 0 (a live subscriber is
     * not paced: it is closed when {@link #onEvent} refuses a record).
     * @return how many more records the listener can take now
     */
    default int capacity() {
        return Integer.MAX_VALUE;
    }

    /**
     * The subscription ended for a reason other than its own {@code close()}. Called at
     * most once.
     * @param reason why
     */
    default void onClosed(CloseReason reason) {
    }

    /** Why the log ended a subscription. */
    enum CloseReason {

        /** the listener refused a live record: its buffer was full */
        OVERFLOW,
        /** a replay found the listener full for longer than the replay stall timeout */
        STALLED,
        /** the API is shutting down */
        SHUTDOWN

    }

}
