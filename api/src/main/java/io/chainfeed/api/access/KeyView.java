package io.chainfeed.api.access;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * An API key as the admin endpoints show it: never its token, but when it is issued.
 *
 * @param id the key's public id (12 characters)
 * @param kind READER or PARTNER
 * @param label who or what the key is for
 * @param allowedOrigins the web origins a PARTNER key may be used from
 * ({@code scheme://host[:port]})
 * @param ratePerMinute requests per minute allowed
 * @param createdAt when it was issued (ISO-8601, UTC)
 */
public record KeyView(String id, String kind, String label, List<String> allowedOrigins, int ratePerMinute,
        String createdAt) {

    /**
     * A key just issued, with its token (shown only here).
     *
     * @param key the key (its members are the answer's)
     * @param token {@code cf_<id>_<secret>}
     */
    @Schema(name = "IssuedApiKey")
    public record Issued(@JsonUnwrapped KeyView key, String token) {
    }

}
