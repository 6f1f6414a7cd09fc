package io.chainfeed.api.access;

import io.chainfeed.avro.ApiKeyKind;
import java.time.Instant;
import java.util.List;

/**
 * Who a request acts for, once its API key is checked. Carries no secret.
 *
 * @param keyId the key's public id (12 lower-case base32 characters)
 * @param kind READER (subscriptions, webhooks) or PARTNER (publishable widget key)
 * @param label who or what the key is for
 * @param allowedOrigins web origins (RFC 6454 {@code scheme://host[:port]}, lower-case)
 * allowed to use the key from a browser; empty for keys never used from a browser
 * @param ratePerMinute requests per minute allowed
 * @param createdAt when the key was issued (UTC)
 */
public record ApiPrincipal(String keyId, ApiKeyKind kind, String label, List<String> allowedOrigins, int ratePerMinute,
        Instant createdAt) {

    /**
     * @param origin the {@code Origin} request header, may be null
     * @return whether that exact origin is on this key's list (no wildcards)
     */
    public boolean allowsOrigin(String origin) {
        return origin != null && allowedOrigins.contains(ApiKeys.normaliseOrigin(origin).orElse(""));
    }
}
