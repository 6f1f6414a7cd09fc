package io.chainfeed.api.support.server;

import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one writer of the rate-limit header fields of draft-ietf-httpapi-ratelimit-headers
 * (version 10), for every limit the api applies (per client on the public paths:
 * {@value #CLIENT}; per client on the admin key paths: {@value #ADMIN}; per key:
 * {@value #KEY}): {@code RateLimit-Policy: "key";q=60;w=60} (the quota and its window in
 * seconds) and {@code RateLimit: "key";r=59;t=1} (what is left and the seconds until the
 * quota is whole again). These two are the only rate-limit fields the api sends. Both are
 * lists: when a request draws on two limits (a key on a public path) each field carries
 * one item per policy, in the order the limits were taken.
 */
public final class RateLimitFields {

    /** The field with the current state of each limit. */
    public static final String RATE_LIMIT = "RateLimit";

    /** The field with each limit's quota and window. */
    public static final String RATE_LIMIT_POLICY = "RateLimit-Policy";

    /** The policy name of the per-client limit of the public paths. */
    public static final String CLIENT = "client";

    /** The policy name of the per-client limit of the admin key paths. */
    public static final String ADMIN = "admin";

    /** The policy name of an API key's own limit. */
    public static final String KEY = "key";

    private RateLimitFields() {
    }

    /**
     * One limit as a request left it.
     *
     * @param policy the policy's name, e.g. {@value #KEY}
     * @param quota requests allowed per window
     * @param windowSeconds the window, in seconds
     * @param remaining requests left now
     * @param resetSeconds whole seconds until the quota is whole again
     */
    public record Limit(String policy, long quota, long windowSeconds, long remaining, long resetSeconds) {

        /**
         * @return this limit's item of {@code RateLimit-Policy}
         */
        public String policyItem() {
            return "\"" + policy + "\";q=" + quota + ";w=" + windowSeconds;
        }

        /**
         * @return this limit's item of {@code RateLimit}
         */
        public String stateItem() {
            return "\"" + policy + "\";r=" + Math.max(0, remaining) + ";t=" + Math.max(0, resetSeconds);
        }

    }

    /**
     * @param limit a limit
     * @return the two fields with this limit alone, by name (for an answer built from an
     * exception)
     */
    public static Map<String, String> of(Limit limit) {
        return Map.of(RATE_LIMIT_POLICY, limit.policyItem(), RATE_LIMIT, limit.stateItem());
    }

    /**
     * Adds the limit to the response's two fields, after the items of other policies
     * already there (an item of the same policy is replaced).
     * @param response the response
     * @param limit the limit
     */
    public static void add(HttpServletResponse response, Limit limit) {
        response.setHeader(RATE_LIMIT_POLICY,
                merged(response.getHeader(RATE_LIMIT_POLICY), limit.policy(), limit.policyItem()));
        response.setHeader(RATE_LIMIT, merged(response.getHeader(RATE_LIMIT), limit.policy(), limit.stateItem()));
    }

    private static String merged(String field, String policy, String item) {
        List<String> items = new ArrayList<>();
        if (field != null && !field.isBlank()) {
            for (String existing : field.split(",")) {
                String trimmed = existing.trim();
                if (!trimmed.isEmpty() && !trimmed.startsWith("\"" + policy + "\";")) {
                    items.add(trimmed);
                }
            }
        }
        items.add(item);
        return String.join(", ", items);
    }

}
