package io.chainfeed.api.answers;

import java.util.Map;

/**
 * Where the streams service's indexer is in the reads log: the offsets its consumer group
 * has committed (each after its bulk request succeeded), by partition.
 */
@FunctionalInterface
interface IndexedOffsets {

    /**
     * @param start the next offset by partition of the reads log at some point
     * @return whether the indexer has processed every committed record before it: its
     * group's committed offset is there, or only transaction markers and aborted records
     * lie between (a transactional topic ends with a marker the group never commits
     * past); false when Kafka cannot say
     */
    boolean reached(Map<Integer, Long> start);

}
