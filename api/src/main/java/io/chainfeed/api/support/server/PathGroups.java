package io.chainfeed.api.support.server;

import java.util.List;

/**
 * The groups of paths that cross-cutting rules apply to, named once for the rule and for
 * the OpenAPI description that documents it (Spring path patterns).
 */
public final class PathGroups {

    /**
     * The paths limited per client at the public quota, but for {@link #ADMIN_PATHS} (the
     * webhook subscriptions and the widget's paths are among them: their key's own limit
     * comes on top).
     */
    public static final List<String> PUBLIC_PATHS = List.of("/", "/chain", "/companies", "/companies/**", "/layers/**",
            "/terms", "/terms/**", "/api/v1/**", "/widget/v1/data/**", "/embed/**", "/oembed");

    /**
     * The admin key paths, under {@link #PUBLIC_PATHS}: limited per client at a quota of
     * their own instead.
     */
    public static final List<String> ADMIN_PATHS = List.of("/api/v1/admin/**");

    private PathGroups() {
    }

}
