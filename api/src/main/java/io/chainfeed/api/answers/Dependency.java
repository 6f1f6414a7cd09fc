package io.chainfeed.api.answers;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.avro.Read;

/**
 * What a shared answer is built from, so that {@link SharedAnswers} knows which records
 * of the reads log make it stale.
 */
public sealed interface Dependency {

    /**
     * @param id the record's read id
     * @param read the read, or null for a deletion (a tombstone carries no tags)
     * @return whether the record may change an answer built from this dependency
     */
    boolean changedBy(String id, Read read);

    /**
     * The reads of a topic: any read the selector matches makes the answer stale.
     *
     * @param selector the topic's selector
     */
    record Topic(Selector selector) implements Dependency {

        @Override
        public boolean changedBy(String id, Read read) {
            return read != null && selector.matches(read);
        }

    }

    /**
     * One read, by id (a term card is the read {@code term:<slug>}).
     *
     * @param id the read's id
     */
    record OneRead(String id) implements Dependency {

        @Override
        public boolean changedBy(String readId, Read read) {
            return id.equals(readId);
        }

    }

    /**
     * Nothing in the reads log: an answer built from the chain's state alone, which names
     * the state's version in its key instead.
     */
    record ChainState() implements Dependency {

        @Override
        public boolean changedBy(String id, Read read) {
            return false;
        }

    }

}
