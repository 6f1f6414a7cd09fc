package io.chainfeed.api.webhook;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookSigningException;
import io.chainfeed.platform.Sha256;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Secrets, ids and signatures of the Standard Webhooks specification (v1.0.0, "Verifying
 * webhook authenticity"): a secret is {@code whsec_} followed by base64 of 32 random
 * bytes (the spec asks for 24 to 64); a signature is {@code v1,} followed by base64 of
 * HMAC-SHA256 over {@code <webhook-id>.<webhook-timestamp>.<body>}; the
 * {@code webhook-signature} header lists one signature per live secret, separated by
 * spaces, so a receiver keeps verifying across a rotation. Signing uses the
 * specification's own Java library ({@code com.standardwebhooks:standardwebhooks}).
 */
public final class WebhookSignatures {

    /** Prefix of a serialized symmetric secret. */
    public static final String SECRET_PREFIX = "whsec_";

    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSignatures() {
    }

    /**
     * @return 32 fresh random bytes: a new signing secret
     */
    public static byte[] newSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return key;
    }

    /**
     * @param key a secret's bytes
     * @return its serialized form, {@code whsec_<base64>}
     */
    public static String format(byte[] key) {
        return SECRET_PREFIX + Base64.getEncoder().encodeToString(key);
    }

    /**
     * The {@code webhook-id} of one read record for one subscription. It depends only on
     * the subscription, the record's place in {@code chainfeed.reads.v1} and the read's
     * id and version, so every retry and every re-delivery after a restart carries the
     * same id, and a receiver can use it as an idempotency key. It holds only
     * {@code [a-z0-9_]} (the spec forbids {@code .} in it).
     * @param subscriptionId the subscription
     * @param partition the record's partition
     * @param offset the record's offset
     * @param readId the read id (record key)
     * @param version the read's version, or -1 for a deletion
     * @return {@code msg_} followed by 32 hex digits (the first 128 bits of a SHA-256)
     */
    public static String webhookId(String subscriptionId, int partition, long offset, String readId, long version) {
        String material = subscriptionId + "\n" + partition + "\n" + offset + "\n" + readId + "\n" + version;
        return "msg_" + Sha256.hexPrefix(material, 16);
    }

    /**
     * @param keys the live secrets, newest first (at least one)
     * @param webhookId the {@code webhook-id}
     * @param timestamp the {@code webhook-timestamp}, Unix seconds
     * @param body the exact body sent, UTF-8 JSON
     * @return the {@code webhook-signature} header value: {@code v1,<base64>} per key,
     * space-separated
     * @throws IllegalArgumentException if no key is given
     */
    public static String signatureHeader(List<byte[]> keys, String webhookId, long timestamp, String body) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no signing secret");
        }
        return keys.stream().map(k -> sign(k, webhookId, timestamp, body)).collect(Collectors.joining(" "));
    }

    private static String sign(byte[] key, String webhookId, long timestamp, String body) {
        try {
            return new Webhook(key).sign(webhookId, timestamp, body);
        }
        catch (WebhookSigningException e) {
            throw new IllegalStateException("cannot sign a webhook: " + e.getMessage(), e);
        }
    }

}
