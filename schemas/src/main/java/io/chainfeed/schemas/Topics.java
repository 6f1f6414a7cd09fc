package io.chainfeed.schemas;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The topic catalogue shared by ingest, streams, api and infra. Every key is a UTF-8
 * string; every value is an Avro record in single-object encoding (see
 * {@link AvroSerde}).
 *
 * <table>
 * <caption>Topics</caption>
 * <tr>
 * <th>topic</th>
 * <th>key</th>
 * <th>value</th>
 * <th>cleanup</th>
 * </tr>
 * <tr>
 * <td>{@value #LAYERS}</td>
 * <td>layer id</td>
 * <td>ChainLayer</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #COMPANIES}</td>
 * <td>company id</td>
 * <td>Company</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #TERMS}</td>
 * <td>term slug</td>
 * <td>TermUpdate</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #REFERENCE_TERMS}</td>
 * <td>term slug</td>
 * <td>TermUpdate (copy of {@value #TERMS})</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #SIGNALS}</td>
 * <td>signal id</td>
 * <td>ConstraintSignal</td>
 * <td>delete</td>
 * </tr>
 * <tr>
 * <td>{@value #SIGNALS_SKIPPED}</td>
 * <td>signal id</td>
 * <td>JSON: the item, the reason it was skipped and the evidence; reason also in header
 * {@value #SKIP_REASON_HEADER}</td>
 * <td>delete</td>
 * </tr>
 * <tr>
 * <td>{@value #READS}</td>
 * <td>read id</td>
 * <td>Read</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #CHAIN_STATE}</td>
 * <td>layer id</td>
 * <td>LayerState</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #CHAIN_CAUSES}</td>
 * <td>layer id/signal id</td>
 * <td>ChainCause</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #API_KEYS}</td>
 * <td>key id</td>
 * <td>ApiKey (hash only)</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@code <topic>.dlq.v1}, one per data topic above</td>
 * <td>source key</td>
 * <td>raw bytes, error in headers</td>
 * <td>delete</td>
 * </tr>
 * <tr>
 * <td>{@value #WEBHOOK_SUBSCRIPTIONS}</td>
 * <td>subscription id</td>
 * <td>WebhookSubscription</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #WEBHOOK_DELIVERIES}</td>
 * <td>subscription id</td>
 * <td>WebhookDeliveryState</td>
 * <td>compact</td>
 * </tr>
 * <tr>
 * <td>{@value #WEBHOOK_DELIVERIES_DLQ}</td>
 * <td>subscription id</td>
 * <td>the webhook body given up on, reason and origin in headers</td>
 * <td>delete</td>
 * </tr>
 * <tr>
 * <td>{@value #WEBHOOK_LEASES}</td>
 * <td>none (never written)</td>
 * <td>none</td>
 * <td>delete</td>
 * </tr>
 * <tr>
 * <td>{@value #API_KEY_USAGE}</td>
 * <td>key id</td>
 * <td>JSON usage report of one api instance</td>
 * <td>delete, 10 min</td>
 * </tr>
 * </table>
 */
public final class Topics {

    public static final String LAYERS = "chainfeed.reference.layers.v1";

    public static final String COMPANIES = "chainfeed.reference.companies.v1";

    public static final String TERMS = "chainfeed.terms.v1";

    /**
     * Glossary terms as reference data for the tagger: the tagging topology copies every
     * {@link #TERMS} record here and reads it back into a global store, so every tagging
     * instance knows every term title and alias whichever partition the term came from.
     */
    public static final String REFERENCE_TERMS = "chainfeed.reference.terms.v1";

    public static final String SIGNALS = "chainfeed.signals.v1";

    public static final String READS = "chainfeed.reads.v1";

    public static final String TERMS_DLQ = dlqOf(TERMS);

    public static final String READS_DLQ = dlqOf(READS);

    /** Header on a dead-letter record naming why it was refused. */
    public static final String DLQ_REASON_HEADER = "chainfeed.error.reason";

    /**
     * Header on a dead-letter record naming the topic, partition and offset it came from.
     */
    public static final String DLQ_ORIGIN_HEADER = "chainfeed.error.origin";

    /** Live state per chain layer (layer id -> LayerState), compacted. */
    public static final String CHAIN_STATE = "chainfeed.chain-state.v1";

    /**
     * Every kept signal per layer it names ({@code <layer id>/<signal id>} ->
     * ChainCause), compacted: the source of a layer's full, pageable cause list. A signal
     * replaced, deleted or forgotten (too old to weigh anything) leaves a tombstone.
     */
    public static final String CHAIN_CAUSES = "chainfeed.chain-causes.v1";

    /**
     * Items that were read but are not about a supply constraint on the chain (decided
     * from their text: results dates, appointments, launches ...): never signals, kept
     * here with the reason as JSON so an editor can look
     * ({@code chainfeed.ingest.decide}).
     */
    public static final String SIGNALS_SKIPPED = "chainfeed.signals-skipped.v1";

    /** Header of a {@link #SIGNALS_SKIPPED} record: why the item was skipped. */
    public static final String SKIP_REASON_HEADER = "chainfeed.skip.reason";

    /** Signals refused by the poller, with the reason in {@link #DLQ_REASON_HEADER}. */
    public static final String SIGNALS_DLQ = dlqOf(SIGNALS);

    /**
     * API keys (key id -> ApiKey: hash only, never the secret), compacted, one partition.
     */
    public static final String API_KEYS = "chainfeed.api-keys.v1";

    /**
     * Webhook subscriptions (subscription id -> WebhookSubscription), compacted; secrets
     * sealed, never plain.
     */
    public static final String WEBHOOK_SUBSCRIPTIONS = "chainfeed.webhook-subscriptions.v1";

    /**
     * Each webhook subscription's progress through {@link #READS} and its last attempt,
     * compacted.
     */
    public static final String WEBHOOK_DELIVERIES = "chainfeed.webhook-deliveries.v1";

    /**
     * Webhooks given up after the last attempt: key = subscription id, value = the body
     * that was sent, {@link #DLQ_REASON_HEADER} = why, {@link #DLQ_ORIGIN_HEADER} = the
     * read's topic-partition@offset, {@code webhook-id} = the webhook's id.
     */
    public static final String WEBHOOK_DELIVERIES_DLQ = dlqOf(WEBHOOK_DELIVERIES);

    /**
     * The webhook delivery lease: never written; the api instances join one consumer
     * group on it and each delivers the subscriptions whose id hashes (as Kafka's default
     * partitioner does) to a partition it owns.
     */
    public static final String WEBHOOK_LEASES = "chainfeed.webhook-leases.v1";

    /**
     * Partitions of {@link #WEBHOOK_LEASES}: the most api instances that can share the
     * deliveries.
     */
    public static final int WEBHOOK_LEASE_PARTITIONS = 12;

    /**
     * Per-key request counts each api instance reports every few hundred ms, for rate
     * limits across instances.
     */
    public static final String API_KEY_USAGE = "chainfeed.api-key-usage.v1";

    private static final Map<String, String> COMPACT = Map.of("cleanup.policy", "compact");

    private static final Map<String, String> DELETE = Map.of("cleanup.policy", "delete");

    private Topics() {
    }

    /**
     * The dead-letter topic of a data topic: {@code chainfeed.terms.v1} gives
     * {@code chainfeed.terms.dlq.v1}.
     * @param topic a chainfeed topic name ending in {@code .v<N>}
     * @return the dead-letter topic name
     * @throws IllegalArgumentException if the name has no version suffix
     */
    public static String dlqOf(String topic) {
        int dot = topic.lastIndexOf(".v");
        if (dot < 0) {
            throw new IllegalArgumentException("not a versioned chainfeed topic: " + topic);
        }
        return topic.substring(0, dot) + ".dlq" + topic.substring(dot);
    }

    /**
     * Every topic chainfeed needs, to be created idempotently at start.
     * @param partitions partition count for the keyed data topics (reference topics use
     * one)
     * @return the specs, in no particular order
     */
    public static List<TopicSpec> all(int partitions) {
        List<TopicSpec> data = List.of(new TopicSpec(LAYERS, 1, COMPACT), new TopicSpec(COMPANIES, 1, COMPACT),
                new TopicSpec(TERMS, partitions, COMPACT), new TopicSpec(REFERENCE_TERMS, 1, COMPACT),
                new TopicSpec(SIGNALS, partitions, DELETE), new TopicSpec(READS, partitions, COMPACT),
                new TopicSpec(CHAIN_STATE, partitions, COMPACT), new TopicSpec(CHAIN_CAUSES, partitions, COMPACT));
        List<TopicSpec> all = new ArrayList<>(data);
        data.forEach(t -> all.add(new TopicSpec(dlqOf(t.name()), 1, DELETE)));
        // Skipped items (JSON, written by ingest only): kept for editors, never read by
        // the pipeline.
        all.add(new TopicSpec(SIGNALS_SKIPPED, 1, DELETE));
        // Written only by the api's admin endpoints, which validate first; its
        // dead-letter topic takes what
        // the api's reader cannot decode (written by any other Kafka client).
        all.add(new TopicSpec(API_KEYS, 1, COMPACT));
        all.add(new TopicSpec(dlqOf(API_KEYS), 1, DELETE));
        // Webhook bookkeeping: one partition each (small, keyed by subscription id). The
        // deliveries'
        // dead-letter topic holds given-up deliveries and also undecodable delivery-state
        // records (told
        // apart by the chainfeed.error.category header).
        all.add(new TopicSpec(WEBHOOK_SUBSCRIPTIONS, 1, COMPACT));
        all.add(new TopicSpec(dlqOf(WEBHOOK_SUBSCRIPTIONS), 1, DELETE));
        all.add(new TopicSpec(WEBHOOK_DELIVERIES, 1, COMPACT));
        all.add(new TopicSpec(WEBHOOK_DELIVERIES_DLQ, 1, DELETE));
        all.add(new TopicSpec(WEBHOOK_LEASES, WEBHOOK_LEASE_PARTITIONS, DELETE));
        all.add(new TopicSpec(API_KEY_USAGE, 1, Map.of("cleanup.policy", "delete", "retention.ms", "600000")));
        return List.copyOf(all);
    }

}
