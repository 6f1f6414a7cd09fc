package io.chainfeed.api.access;

/**
 * A key just created: the only time its token is ever shown.
 *
 * @param principal what the key allows
 * @param token the secret token {@code cf_<id>_<secret>}; only its SHA-256 is stored
 */
public record IssuedKey(ApiPrincipal principal, String token) {
}
