package io.chainfeed.ingest.publish;

/** A record is larger than its topic accepts ({@code max.message.bytes}); nothing of the request was sent. */
public class OversizedRecordException extends PublishException {
    private final String topic;
    private final int size;
    private final int limit;

    /**
     * @param topic the topic
     * @param size  the record's size in bytes, as Kafka counts it in a batch of one
     * @param limit the largest size the topic accepts, in bytes
     */
    public OversizedRecordException(String topic, int size, int limit) {
        super("the record for " + topic + " is " + size + " bytes; the topic accepts at most " + limit
                + " bytes (max.message.bytes)");
        this.topic = topic;
        this.size = size;
        this.limit = limit;
    }

    /** @return the topic */
    public String topic() {
        return topic;
    }

    /** @return the record's size in bytes */
    public int size() {
        return size;
    }

    /** @return the topic's limit in bytes */
    public int limit() {
        return limit;
    }
}
