package io.chainfeed.streams;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * The streams service's own counters, on the registry they are built with (the service's
 * injected {@link MeterRegistry}, which Spring Boot serves at
 * {@code /actuator/prometheus}; topology tests give a {@code SimpleMeterRegistry}):
 * {@code chainfeed_records_tagged_total{kind}} (reads a topology sent: {@code term},
 * {@code signal}; under exactly-once a batch redone after a failure counts again) and
 * {@code chainfeed_records_indexed_total} (documents the indexer wrote or found already
 * current). Both are registered at start ({@link #registerAtStart}), at zero, so a
 * restarted service shows them before its first record.
 */
public final class StreamsMeters {

    private final MeterRegistry registry;

    /**
     * @param registry where the counters go
     * @throws NullPointerException if {@code registry} is null
     */
    public StreamsMeters(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Registers every counter of this class for every known label value, at zero
     * (idempotent).
     */
    public void registerAtStart() {
        tagged("term", 0);
        tagged("signal", 0);
        indexed(0);
    }

    /**
     * @param kind {@code term} or {@code signal}
     * @param count reads sent
     */
    public void tagged(String kind, long count) {
        Counter.builder("chainfeed.records.tagged")
            .description("Reads sent by the tagging topologies")
            .tag("kind", kind)
            .register(registry)
            .increment(count);
    }

    /**
     * @param count documents written or confirmed current in the reads index
     */
    public void indexed(long count) {
        Counter.builder("chainfeed.records.indexed")
            .description("Reads written to the reads index")
            .register(registry)
            .increment(count);
    }

}
