package io.chainfeed.api.feed;

import io.chainfeed.avro.Read;
import java.time.Instant;

/**
 * One record of {@code chainfeed.reads.v1} as the {@link ReadLog} hands it out: a new or changed read,
 * or a deletion (a tombstone). One instance is shared by every subscriber it goes to; its JSON is built
 * once, on first use.
 */
public final class ReadEvent {
    private final int partition;
    private final long offset;
    private final String id;
    private final Read read;
    private final long timestampMs;
    private volatile byte[] json;

    /**
     * @param partition   partition of {@code chainfeed.reads.v1}
     * @param offset      the record's offset in it
     * @param id          the record key: the read id
     * @param read        the read, or null for a tombstone
     * @param timestampMs the record's Kafka timestamp, epoch milliseconds (UTC)
     */
    public ReadEvent(int partition, long offset, String id, Read read, long timestampMs) {
        this.partition = partition;
        this.offset = offset;
        this.id = id;
        this.read = read;
        this.timestampMs = timestampMs;
    }

    /** @return the partition of {@code chainfeed.reads.v1} */
    public int partition() {
        return partition;
    }

    /** @return the record's offset in its partition */
    public long offset() {
        return offset;
    }

    /** @return the read id (the record key), e.g. {@code term:rdma} */
    public String id() {
        return id;
    }

    /** @return the read, or null if the record is a tombstone (the read was deleted) */
    public Read read() {
        return read;
    }

    /** @return whether the record is a tombstone */
    public boolean deleted() {
        return read == null;
    }

    /** @return the record's Kafka timestamp */
    public Instant timestamp() {
        return Instant.ofEpochMilli(timestampMs);
    }

    /** @return the record's Kafka timestamp, epoch milliseconds (UTC) */
    public long timestampMs() {
        return timestampMs;
    }

    /**
     * @return the pushed JSON ({@link ReadPayloads#json}), compact UTF-8 on one line; the same array on
     *         every call: do not modify it
     */
    public byte[] json() {
        byte[] j = json;
        if (j == null) {
            j = ReadPayloads.json(read, id);
            json = j;
        }
        return j;
    }

    @Override
    public String toString() {
        return id + "@" + partition + ":" + offset + (read == null ? " (deleted)" : "");
    }
}
