package io.chainfeed.ingest.publish;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;

/**
 * The ingest's own counters, on Micrometer's global registry (Spring Boot adds the Prometheus registry to
 * it): {@code chainfeed_records_accepted_total{kind}} (valid records a request or feed poll offered for
 * publishing) and {@code chainfeed_records_published_total{kind}} (records Kafka committed);
 * {@code kind} is {@code signal}, {@code term} or {@code reference}.
 */
public final class IngestMeters {
    private IngestMeters() {
    }

    /**
     * @param kind  record kind
     * @param count how many were accepted
     */
    public static void accepted(String kind, int count) {
        Counter.builder("chainfeed.records.accepted").description("Valid records offered for publishing")
                .tag("kind", kind).register(Metrics.globalRegistry).increment(count);
    }

    /**
     * @param kind  record kind
     * @param count how many Kafka committed
     */
    public static void published(String kind, int count) {
        Counter.builder("chainfeed.records.published").description("Records committed to Kafka by ingest")
                .tag("kind", kind).register(Metrics.globalRegistry).increment(count);
    }

    /**
     * @param reason why the items were skipped (not about a supply constraint)
     * @param count  how many
     */
    public static void skipped(String reason, int count) {
        Counter.builder("chainfeed.signals.skipped").description("Items skipped as not about a supply constraint")
                .tag("reason", reason).register(Metrics.globalRegistry).increment(count);
    }
}
