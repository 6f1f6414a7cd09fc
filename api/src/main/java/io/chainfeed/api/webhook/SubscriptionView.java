package io.chainfeed.api.webhook;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * A webhook subscription as its owner sees it: never a secret, only when each was made
 * and expires. Instants are ISO-8601 strings in UTC.
 *
 * @param id the subscription's id
 * @param topic its topic selector
 * @param url the endpoint that receives the webhooks
 * @param description free text of the owner's
 * @param status active, disabled or failing (active, but no 2xx for longer than the
 * threshold)
 * @param statusReason why it is disabled or failing, null otherwise
 * @param createdAt when it was made (UTC)
 * @param updatedAt when it last changed (UTC)
 * @param secrets its signing secrets, newest first: when each was made and expires
 */
public record SubscriptionView(String id, String topic, String url, String description, String status,
        String statusReason, String createdAt, String updatedAt, List<SecretInfo> secrets) {

    /**
     * A signing secret's dates (never the secret).
     *
     * @param createdAt when it was made (UTC)
     * @param expiresAt when it stops signing (UTC), null while current
     */
    public record SecretInfo(String createdAt, String expiresAt) {
    }

    /**
     * A subscription just made, with its signing secret (shown only here).
     *
     * @param subscription the subscription (its members are the answer's)
     * @param secret the signing secret, {@code whsec_...}
     */
    @Schema(name = "CreatedSubscription")
    public record Created(@JsonUnwrapped SubscriptionView subscription, String secret) {
    }

    /**
     * A subscription with a new signing secret (shown only here).
     *
     * @param subscription the subscription (its members are the answer's)
     * @param secret the new signing secret
     * @param previousSecretExpiresAt when the old one stops signing (UTC)
     */
    @Schema(name = "RotatedSubscription")
    public record Rotated(@JsonUnwrapped SubscriptionView subscription, String secret, String previousSecretExpiresAt) {
    }

    /**
     * A subscription with its delivery state.
     *
     * @param subscription the subscription (its members are the answer's)
     * @param delivery its delivery state, null before the first delivery
     */
    @Schema(name = "SubscriptionWithDelivery")
    public record WithDelivery(@JsonUnwrapped SubscriptionView subscription, Delivery delivery) {
    }

    /**
     * A subscription whose due webhooks are retried now.
     *
     * @param subscription the subscription (its members are the answer's)
     * @param recoverRequestedAt when the retry was asked for (UTC)
     * @param delivery its delivery state, null before the first delivery
     */
    @Schema(name = "RecoveringSubscription")
    public record Recovering(@JsonUnwrapped SubscriptionView subscription, String recoverRequestedAt,
            Delivery delivery) {
    }

    /**
     * {@code GET /api/v1/subscriptions}.
     *
     * @param subscriptions the key's subscriptions, oldest first
     */
    @Schema(name = "SubscriptionList")
    public record Listing(List<SubscriptionView> subscriptions) {
    }

    /**
     * Delivery state: position, counters, the last attempt and the next one.
     *
     * @param position partition of the read log to the next offset to deliver
     * @param delivered webhooks delivered
     * @param deadLettered webhooks given up on
     * @param consecutiveFailures failed attempts in a row
     * @param pendingWebhookId the webhook being retried, null when none
     * @param attempts attempts of the pending webhook
     * @param lastAttemptAt the last attempt (UTC), null before the first
     * @param lastStatus the HTTP status of the last attempt, null when none came
     * @param lastError why the last attempt failed without a status, null otherwise
     * @param lastSuccessAt the last 2xx (UTC), null before the first
     * @param nextAttemptAt when the next retry is due (UTC), null when none is
     * @param failingSince when the endpoint last stopped answering 2xx (UTC), null while
     * it does
     */
    @Schema(name = "SubscriptionDelivery")
    public record Delivery(Map<String, Long> position, long delivered, long deadLettered, int consecutiveFailures,
            String pendingWebhookId, int attempts, String lastAttemptAt, Integer lastStatus, String lastError,
            String lastSuccessAt, String nextAttemptAt, String failingSince) {
    }

}
