package io.chainfeed.ingest.fetch;

import java.net.URI;
import java.time.Duration;

/**
 * A fetch got a final answer with a status it does not take (not 2xx, nor 304 for a
 * feed).
 */
public class HttpStatusException extends FetchException {

    private final int status;

    private final transient Duration retryAfter;

    /**
     * @param uri the URI that answered
     * @param status the HTTP status code
     * @param retryAfter the server's {@code Retry-After} as a wait from now, or null when
     * it sent none
     */
    public HttpStatusException(URI uri, int status, Duration retryAfter) {
        super("GET " + uri + " answered " + status
                + (retryAfter == null ? "" : " (Retry-After " + retryAfter.toSeconds() + " s)"));
        this.status = status;
        this.retryAfter = retryAfter;
    }

    /**
     * @return the HTTP status code
     */
    public int status() {
        return status;
    }

    /**
     * @return the server's {@code Retry-After} as a wait from when it answered, or null
     */
    public Duration retryAfter() {
        return retryAfter;
    }

    /**
     * @return whether the server asked us to slow down or come back later (429 or 503,
     * RFC 9110 / RFC 6585)
     */
    public boolean throttled() {
        return status == 429 || status == 503;
    }

}
