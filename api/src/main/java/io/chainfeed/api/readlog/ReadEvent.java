package io.chainfeed.api.readlog;

import io.chainfeed.avro.Read;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * One record of {@code chainfeed.reads.v1} as the {@link ReadLog} hands it out: a new or
 * changed read, or a deletion (a tombstone). One instance is shared by every subscriber
 * it goes to; its JSON is built once, on first use.
 */
public final class ReadEvent {

    private final int partition;

    private final long offset;

    private final String id;

    private final Read read;

    private final long timestampMs;

    private volatile byte[] json;

    /**
     * The last SSE frame built for this event, with the position it carries (see
     * {@link #sseFrame}).
     */
    private volatile SseFrame sseFrame;

    private record SseFrame(LogPosition after, byte[] bytes) {
    }

    /**
     * @param partition partition of {@code chainfeed.reads.v1}
     * @param offset the record's offset in it
     * @param id the record key: the read id
     * @param read the read, or null for a tombstone
     * @param timestampMs the record's Kafka timestamp, epoch milliseconds (UTC)
     */
    public ReadEvent(int partition, long offset, String id, Read read, long timestampMs) {
        this.partition = partition;
        this.offset = offset;
        this.id = id;
        this.read = read;
        this.timestampMs = timestampMs;
    }

    /**
     * @return the partition of {@code chainfeed.reads.v1}
     */
    public int partition() {
        return partition;
    }

    /**
     * @return the record's offset in its partition
     */
    public long offset() {
        return offset;
    }

    /**
     * @return the read id (the record key), e.g. {@code term:rdma}
     */
    public String id() {
        return id;
    }

    /**
     * @return the read, or null if the record is a tombstone (the read was deleted)
     */
    public Read read() {
        return read;
    }

    /**
     * @return whether the record is a tombstone
     */
    public boolean deleted() {
        return read == null;
    }

    /**
     * @return the record's Kafka timestamp
     */
    public Instant timestamp() {
        return Instant.ofEpochMilli(timestampMs);
    }

    /**
     * @return the record's Kafka timestamp, epoch milliseconds (UTC)
     */
    public long timestampMs() {
        return timestampMs;
    }

    /**
     * @return the pushed JSON ({@link ReadPayloads#json}), compact UTF-8 on one line; the
     * same array on every call: do not modify it
     */
    public byte[] json() {
        byte[] j = json;
        if (j == null) {
            j = ReadPayloads.json(read, id);
            json = j;
        }
        return j;
    }

    /**
     * The event as one complete Server-Sent Events frame (WHATWG HTML, "Server-sent
     * events"): {@code id: <after>}, {@code event: read} or {@code event: deleted},
     * {@code data: <json>} and the blank line that ends it, UTF-8. Subscribers that take
     * the event at the same position (every live subscriber at the tail does) share one
     * array: the last frame built is kept with its position, so a fan-out to N
     * subscribers builds it once, not N times.
     * @param after the subscriber's position once it has taken this event (its resume id)
     * @return the frame; shared, do not modify it
     */
    public byte[] sseFrame(LogPosition after) {
        SseFrame f = sseFrame;
        if (f != null && f.after().equals(after)) {
            return f.bytes();
        }
        byte[] head = ("id: " + after.text() + "\nevent: " + (deleted() ? "deleted" : "read") + "\ndata: ")
            .getBytes(StandardCharsets.US_ASCII);
        byte[] body = json();
        byte[] bytes = new byte[head.length + body.length + 2];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(body, 0, bytes, head.length, body.length);
        bytes[bytes.length - 2] = '\n';
        bytes[bytes.length - 1] = '\n';
        sseFrame = new SseFrame(after, bytes);
        return bytes;
    }

    @Override
    public String toString() {
        return id + "@" + partition + ":" + offset + (read == null ? " (deleted)" : "");
    }

}
