package io.chainfeed.api.webhook;

import io.chainfeed.api.selector.Selector;
import java.util.Map;

/**
 * Where the webhook engine gets reads from: the records of {@code chainfeed.reads.v1}
 * strictly after a position, each partition in offset order, replayed from Kafka and then
 * live, without gap or duplicate; those the selector matches, and every deletion. The
 * feed's {@code ReadLog} provides it.
 */
public interface ReadSource {

    /**
     * @param from next offset per partition (a partition not named is read from its
     * beginning)
     * @param selector the subscription's topic
     * @param listener receives the records, on the source's threads; must return at once
     * @return closes the subscription; the listener may see a few more records after
     * close
     */
    AutoCloseable subscribe(Map<Integer, Long> from, Selector selector, Listener listener);

    /**
     * @return the source's head: next offset per partition of the newest record it has
     * read from Kafka, or null if it does not know yet (the base of the webhook lag
     * meters)
     */
    default Map<Integer, Long> head() {
        return null;
    }

    /** Receives a subscription's records. */
    interface Listener {

        /**
         * @param read a record after the position, matching the selector or a deletion
         * @param after the position once this record is taken (skipped non-matching
         * records included)
         * @return true if taken; false if the listener is full, which ends the
         * subscription
         */
        boolean onRead(WebhookRead read, Map<Integer, Long> after);

        /**
         * @return how many more records the listener can take now (paces a replay)
         */
        int capacity();

        /**
         * The source ended the subscription by itself (the listener was full, or the
         * source stops).
         * @param overflow true if it ended because the listener was full
         */
        void onClosed(boolean overflow);

    }

}
