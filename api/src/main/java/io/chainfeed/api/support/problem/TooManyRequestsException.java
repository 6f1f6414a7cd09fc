package io.chainfeed.api.support.problem;

import java.util.Map;

/**
 * The caller used up its rate limit; rendered as a 429 problem detail with a
 * {@code Retry-After} header (RFC 9110 section 10.2.3, delay in seconds) saying when the
 * next request will be taken.
 */
public class TooManyRequestsException extends RuntimeException {

    private final long retryAfterSeconds;

    private final Map<String, String> headers;

    /**
     * @param message what was limited, for the client
     * @param retryAfterSeconds whole seconds until a request will be taken again, at
     * least 1
     */
    public TooManyRequestsException(String message, long retryAfterSeconds) {
        this(message, retryAfterSeconds, Map.of());
    }

    /**
     * @param message what was limited, for the client
     * @param retryAfterSeconds whole seconds until a request will be taken again, at
     * least 1
     * @param headers more header fields for the 429 answer (the {@code RateLimit} and
     * {@code RateLimit-Policy} fields of draft-ietf-httpapi-ratelimit-headers), by name
     */
    public TooManyRequestsException(String message, long retryAfterSeconds, Map<String, String> headers) {
        super(message);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
        this.headers = Map.copyOf(headers);
    }

    /**
     * @return header fields the 429 answer carries besides {@code Retry-After}
     */
    public Map<String, String> headers() {
        return headers;
    }

    /**
     * @return whole seconds until a request will be taken again, at least 1
     */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

}
