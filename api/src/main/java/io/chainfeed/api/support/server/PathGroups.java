package io.chainfeed.api.support.server;

import java.util.List;

/**
 * The groups of paths that cross-cutting rules apply to, named once for the rule and for
 * the OpenAPI description that documents it (Spring path patterns).
 */
public final class PathGroups {

    /** The paths limited per client (the per-client rate limit). */
    public static final List<String> PUBLIC_PATHS = List.of("/", "/chain", "/companies", "/companies/**", "/layers/**",
            "/terms", "/terms/**", "/api/v1/**", "/widget/v1/data/**", "/embed/**", "/oembed");

    /** Paths under {@link #PUBLIC_PATHS} that a key's own rate limits instead. */
    public static final List<String> KEYED_PATHS = List.of("/api/v1/admin/**", "/api/v1/subscriptions/**");

    private PathGroups() {
    }

}
