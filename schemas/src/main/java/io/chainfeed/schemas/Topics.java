package io.chainfeed.schemas;

import java.util.List;
import java.util.Map;

/**
 * The topic catalogue shared by ingest, streams, api and infra. Every key is a UTF-8 string; every
 * value is an Avro record in single-object encoding (see {@link AvroSerde}).
 *
 * <table>
 *   <caption>Topics</caption>
 *   <tr><th>topic</th><th>key</th><th>value</th><th>cleanup</th></tr>
 *   <tr><td>{@value #LAYERS}</td><td>layer id</td><td>ChainLayer</td><td>compact</td></tr>
 *   <tr><td>{@value #COMPANIES}</td><td>company id</td><td>Company</td><td>compact</td></tr>
 *   <tr><td>{@value #TERMS}</td><td>term slug</td><td>TermUpdate</td><td>compact</td></tr>
 *   <tr><td>{@value #SIGNALS}</td><td>signal id</td><td>ConstraintSignal</td><td>delete</td></tr>
 *   <tr><td>{@value #READS}</td><td>read id</td><td>Read</td><td>compact</td></tr>
 *   <tr><td>{@value #TERMS_DLQ}</td><td>source key</td><td>raw bytes, error in headers</td><td>delete</td></tr>
 *   <tr><td>{@value #READS_DLQ}</td><td>source key</td><td>raw bytes, error in headers</td><td>delete</td></tr>
 * </table>
 */
public final class Topics {
    public static final String LAYERS = "chainfeed.reference.layers.v1";
    public static final String COMPANIES = "chainfeed.reference.companies.v1";
    public static final String TERMS = "chainfeed.terms.v1";
    public static final String SIGNALS = "chainfeed.signals.v1";
    public static final String READS = "chainfeed.reads.v1";
    public static final String TERMS_DLQ = "chainfeed.terms.dlq.v1";
    public static final String READS_DLQ = "chainfeed.reads.dlq.v1";

    /** Header on a dead-letter record naming why it was refused. */
    public static final String DLQ_REASON_HEADER = "chainfeed.error.reason";
    /** Header on a dead-letter record naming the topic, partition and offset it came from. */
    public static final String DLQ_ORIGIN_HEADER = "chainfeed.error.origin";

    private static final Map<String, String> COMPACT = Map.of("cleanup.policy", "compact");
    private static final Map<String, String> DELETE = Map.of("cleanup.policy", "delete");

    private Topics() {
    }

    /**
     * Every topic chainfeed needs, to be created idempotently at start.
     *
     * @param partitions partition count for the keyed data topics (reference topics use one)
     * @return the specs, in no particular order
     */
    public static List<TopicSpec> all(int partitions) {
        return List.of(
                new TopicSpec(LAYERS, 1, COMPACT),
                new TopicSpec(COMPANIES, 1, COMPACT),
                new TopicSpec(TERMS, partitions, COMPACT),
                new TopicSpec(SIGNALS, partitions, DELETE),
                new TopicSpec(READS, partitions, COMPACT),
                new TopicSpec(TERMS_DLQ, 1, DELETE),
                new TopicSpec(READS_DLQ, 1, DELETE));
    }
}
