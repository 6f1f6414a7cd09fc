package io.chainfeed.streams;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;

/**
 * The streams service's own counters, on Micrometer's global registry (Spring Boot adds
 * the Prometheus registry to it; in topology tests nothing is registered and they count
 * nowhere): {@code chainfeed_records_tagged_total{kind}} (reads a topology sent:
 * {@code term}, {@code signal}; under exactly-once a batch redone after a failure counts
 * again) and {@code chainfeed_records_indexed_total} (documents the indexer wrote or
 * found already current). Both are registered at start ({@link #registerAtStart}), at
 * zero, so a restarted service shows them before its first record.
 */
public final class StreamsMeters {

    private StreamsMeters() {
    }

    /**
     * Registers every counter of this class for every known label value, at zero
     * (idempotent).
     */
    public static void registerAtStart() {
        tagged("term", 0);
        tagged("signal", 0);
        indexed(0);
    }

    /**
     * @param kind {@code term} or {@code signal}
     * @param count reads sent
     */
    public static void tagged(String kind, long count) {
        Counter.builder("chainfeed.records.tagged")
            .description("Reads sent by the tagging topologies")
            .tag("kind", kind)
            .register(Metrics.globalRegistry)
            .increment(count);
    }

    /**
     * @param count documents written or confirmed current in the reads index
     */
    public static void indexed(long count) {
        Counter.builder("chainfeed.records.indexed")
            .description("Reads written to the reads index")
            .register(Metrics.globalRegistry)
            .increment(count);
    }

}
