package io.chainfeed.api.problem;

/**
 * The caller used up its rate limit; rendered as a 429 problem detail with a
 * {@code Retry-After} header (RFC 9110 section 10.2.3, delay in seconds) saying when the
 * next request will be taken.
 */
public class TooManyRequestsException extends RuntimeException {

    private final long retryAfterSeconds;

    /**
     * @param message what was limited, for the client
     * @param retryAfterSeconds whole seconds until a request will be taken again, at
     * least 1
     */
    public TooManyRequestsException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    /**
     * @return whole seconds until a request will be taken again, at least 1
     */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

}
