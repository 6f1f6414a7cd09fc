package io.chainfeed.api.webhook;

import io.chainfeed.avro.WebhookDeliveryState;
import java.time.Duration;

/**
 * Where the webhook engine records what it did: progress, dead letters and disabled
 * subscriptions.
 */
public interface DeliveryJournal {

    /**
     * Stores a subscription's progress; may return before it is durable. Calls for one
     * subscription come one after another, in order.
     * @param state the new state (a higher revision than the last)
     */
    void save(WebhookDeliveryState state);

    /**
     * Stores a subscription's progress and returns once it is durable (a hand-over to
     * another instance).
     * @param state the state
     * @throws RuntimeException if it could not be stored
     */
    default void flush(WebhookDeliveryState state) {
        save(state);
    }

    /**
     * {@link #flush(WebhookDeliveryState)}, waiting at most {@code timeout} for it to be
     * durable.
     * @param state the state
     * @param timeout the longest wait
     * @throws RuntimeException if it could not be stored in time
     */
    default void flush(WebhookDeliveryState state, Duration timeout) {
        flush(state);
    }

    /**
     * Records a webhook given up after its last attempt; returns once it is durable.
     * @param subscriptionId the subscription
     * @param webhookId the webhook's id
     * @param body the body that was sent
     * @param reason why it was given up
     * @param origin the read record, {@code chainfeed.reads.v1-<partition>@<offset>}
     * @throws Exception if it could not be stored; the engine keeps the webhook and tries
     * again
     */
    void deadLetter(String subscriptionId, String webhookId, String body, String reason, String origin)
            throws Exception;

    /**
     * Marks a subscription disabled (its endpoint answered 410 Gone).
     * @param subscriptionId the subscription
     * @param reason why
     */
    void disable(String subscriptionId, String reason);

}
