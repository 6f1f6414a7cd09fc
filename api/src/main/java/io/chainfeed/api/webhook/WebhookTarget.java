package io.chainfeed.api.webhook;

import io.chainfeed.api.selector.Selector;
import java.net.URI;
import java.time.Instant;
import java.util.List;

/**
 * What the engine needs of a subscription to deliver it: its URL, selector and signing
 * keys (opened).
 *
 * @param subscriptionId the subscription id
 * @param url the checked target URL
 * @param selector the parsed topic selector
 * @param keys signing secrets, newest first
 */
public record WebhookTarget(String subscriptionId, URI url, Selector selector, List<SigningKey> keys) {

    /**
     * @param secret the secret's bytes
     * @param expiresAt when it stops signing, or null for the current one
     */
    public record SigningKey(byte[] secret, Instant expiresAt) {
    }

    /**
     * @param now the current time
     * @return the secrets that still sign at {@code now}, newest first
     */
    public List<byte[]> liveKeys(Instant now) {
        return keys.stream()
            .filter(k -> k.expiresAt() == null || k.expiresAt().isAfter(now))
            .map(SigningKey::secret)
            .toList();
    }
}
