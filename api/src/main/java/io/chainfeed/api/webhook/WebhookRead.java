package io.chainfeed.api.webhook;

import io.chainfeed.avro.Read;

/**
 * One record of {@code chainfeed.reads.v1} handed to the webhook engine.
 *
 * @param partition its partition
 * @param offset its offset
 * @param readId the record key, e.g. {@code term:rdma}
 * @param read the read, or null for a tombstone (the read was deleted)
 * @param timestampMs the record's Kafka timestamp, epoch milliseconds (UTC)
 * @param dataJson the read's pushed JSON view (or {@code {"id": ...}} for a deletion),
 * UTF-8
 */
public record WebhookRead(int partition, long offset, String readId, Read read, long timestampMs, byte[] dataJson) {
    /**
     * @return whether the record is a tombstone
     */
    public boolean deleted() {
        return read == null;
    }
}
