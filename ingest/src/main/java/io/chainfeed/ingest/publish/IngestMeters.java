package io.chainfeed.ingest.publish;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The ingest's own counters, on the registry it is built with (the service's injected
 * {@link MeterRegistry}, which Spring Boot serves at {@code /actuator/prometheus}):
 * {@code chainfeed_records_accepted_total{kind}} (valid records a request or feed poll
 * offered for publishing) and {@code chainfeed_records_published_total{kind}} (records
 * Kafka committed); {@code kind} is {@code signal}, {@code term} or {@code reference};
 * {@code chainfeed_signals_skipped_total{reason}}. Every series with a known label value
 * is registered at start ({@link #registerAtStart}), at zero, so a restarted service
 * shows them before its first record and {@code increase()} sees the first one.
 */
public final class IngestMeters {

    /** The record kinds ingest publishes. */
    static final List<String> KINDS = List.of("signal", "term", "reference");

    private final MeterRegistry registry;

    /**
     * @param registry where the counters go
     * @throws NullPointerException if {@code registry} is null
     */
    public IngestMeters(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Registers every counter of this class for every known label value, at zero
     * (idempotent).
     * @param skipReasons the reasons an item can be skipped for
     * ({@code SignalDecider#skipReasons})
     */
    public void registerAtStart(Collection<String> skipReasons) {
        KINDS.forEach(kind -> {
            accepted(kind, 0);
            published(kind, 0);
        });
        skipReasons.forEach(reason -> skipped(reason, 0));
    }

    /**
     * @param kind record kind
     * @param count how many were accepted
     */
    public void accepted(String kind, int count) {
        Counter.builder("chainfeed.records.accepted")
            .description("Valid records offered for publishing")
            .tag("kind", kind)
            .register(registry)
            .increment(count);
    }

    /**
     * @param kind record kind
     * @param count how many Kafka committed
     */
    public void published(String kind, int count) {
        Counter.builder("chainfeed.records.published")
            .description("Records committed to Kafka by ingest")
            .tag("kind", kind)
            .register(registry)
            .increment(count);
    }

    /**
     * @param reason why the items were skipped (not about a supply constraint)
     * @param count how many
     */
    public void skipped(String reason, int count) {
        Counter.builder("chainfeed.signals.skipped")
            .description("Items skipped as not about a supply constraint")
            .tag("reason", reason)
            .register(registry)
            .increment(count);
    }

}
