package io.chainfeed.ingest.publish;

/**
 * A record is larger than its topic accepts ({@code max.message.bytes}); nothing of the
 * request was sent.
 */
public class OversizedRecordException extends PublishException {

    private final transient Oversize oversize;

    /**
     * @param topic the topic
     * @param size the record's size in bytes, as Kafka counts it in a batch of one
     * @param limit the largest size the topic accepts, in bytes; -1 when the broker
     * refused it without saying how much it takes
     */
    public OversizedRecordException(String topic, int size, int limit) {
        super("the record for " + topic + " is " + size + " bytes; the topic accepts at most " + limit
                + " bytes (max.message.bytes)");
        this.oversize = new Oversize(topic, size, limit);
    }

    /**
     * @return the topic, the record's size and the topic's limit
     */
    public Oversize oversize() {
        return oversize;
    }

    /**
     * What was too large for where.
     *
     * @param topic the topic
     * @param size the record's size in bytes
     * @param limit the topic's limit in bytes, or -1 when unknown
     */
    public record Oversize(String topic, int size, int limit) {
    }

}
