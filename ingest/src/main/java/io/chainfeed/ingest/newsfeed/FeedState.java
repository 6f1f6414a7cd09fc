package io.chainfeed.ingest.newsfeed;

import io.chainfeed.avro.ObservedAtBasis;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The poller's memory of one feed between polls: validators for the conditional GET,
 * where the feed lives after a permanent redirect, when it may be asked again, the
 * fallback dates given to its undated items, and the counts for {@link FeedStatus}.
 * Thread-safe (all methods synchronized): the poll thread writes, the status endpoint
 * reads.
 */
final class FeedState {

    /** First wait after a failure; doubles with each failure in a row. */
    static final Duration FIRST_BACKOFF = Duration.ofMinutes(1);

    /** Longest wait a failure or a Retry-After imposes. */
    static final Duration MAX_BACKOFF = Duration.ofHours(6);

    private final String url;

    private URI fetchUri;

    private String etag;

    private String lastModified;

    private Instant lastFetch;

    private Instant lastSuccess;

    private String lastOutcome;

    private String lastError;

    private Instant lastErrorAt;

    private int failures;

    private Instant notBefore;

    private BackOffExecution backOff;

    private long fetches;

    private long notModified;

    private long published;

    private long deadLettered;

    private long skipped;

    private long held;

    /**
     * Fallback observed-at (feed date or first seen) given to each undated item, by
     * signal id.
     */
    private final Map<String, Fallback> fallbacks = new HashMap<>();

    /**
     * A fallback date once given to an item, kept so the next poll gives the same one.
     *
     * @param at the instant
     * @param basis feed date or first seen
     */
    record Fallback(Instant at, ObservedAtBasis basis) {
    }

    FeedState(String url) {
        this.url = url;
        this.fetchUri = URI.create(url);
    }

    /**
     * @return whether a request may be sent at {@code now} (no Retry-After or backoff
     * pending)
     */
    synchronized boolean due(Instant now) {
        return notBefore == null || !now.isBefore(notBefore);
    }

    /**
     * A conditional GET of the feed (RFC 9110 section 13.1): where to send it and the
     * validators of the last answer.
     *
     * @param uri where the feed lives now
     * @param etag for {@code If-None-Match}, or null
     * @param lastModified for {@code If-Modified-Since}, or null
     */
    record Request(URI uri, String etag, String lastModified) {
    }

    /**
     * A request is about to be sent.
     * @param now when
     * @return what to send, read in the same step as the fetch is counted
     */
    synchronized Request fetching(Instant now) {
        lastFetch = now;
        fetches++;
        return new Request(fetchUri, etag, lastModified);
    }

    /** A permanent redirect moved the feed: later polls go to {@code uri}. */
    synchronized void moved(URI uri) {
        fetchUri = uri;
    }

    /**
     * The poll ended well.
     * @param now when
     * @param outcome {@code fetched} or {@code not-modified}
     * @param etag validator to send next time, or null
     * @param lastModified validator to send next time, or null
     */
    synchronized void succeeded(Instant now, String outcome, String etag, String lastModified) {
        lastSuccess = now;
        lastOutcome = outcome;
        failures = 0;
        backOff = null;
        notBefore = null;
        this.etag = etag;
        this.lastModified = lastModified;
        if (outcome.equals("not-modified")) {
            notModified++;
        }
    }

    /**
     * The poll failed: wait at least the exponential backoff (from
     * {@link #FIRST_BACKOFF}, doubling, at most {@link #MAX_BACKOFF}), longer if the
     * server said so.
     * @param now when
     * @param outcome {@code throttled} or {@code failed}
     * @param error what happened
     * @param retryAfter the server's Retry-After, or null
     * @return the instant before which no request is sent
     */
    synchronized Instant failed(Instant now, String outcome, String error, Duration retryAfter) {
        failures++;
        lastOutcome = outcome;
        lastError = error;
        lastErrorAt = now;
        if (backOff == null) {
            ExponentialBackOff policy = new ExponentialBackOff(FIRST_BACKOFF.toMillis(), 2.0);
            policy.setMaxInterval(MAX_BACKOFF.toMillis());
            backOff = policy.start();
        }
        Duration wait = Duration.ofMillis(backOff.nextBackOff());
        if (retryAfter != null && retryAfter.compareTo(wait) > 0) {
            wait = retryAfter.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : retryAfter;
        }
        notBefore = now.plus(wait);
        return notBefore;
    }

    synchronized void counted(int publishedNow, int deadLetteredNow) {
        counted(publishedNow, deadLetteredNow, 0, 0);
    }

    synchronized void counted(int publishedNow, int deadLetteredNow, int skippedNow, int heldNow) {
        published += publishedNow;
        deadLettered += deadLetteredNow;
        skipped += skippedNow;
        held += heldNow;
    }

    /**
     * @param signalId the item's signal id
     * @param proposed the fallback it would get now
     * @return the fallback it got first, or {@code proposed} when it has none yet (then
     * kept)
     */
    synchronized Fallback fallback(String signalId, Fallback proposed) {
        return fallbacks.computeIfAbsent(signalId, k -> proposed);
    }

    /** Forgets the fallbacks of items no longer in the feed. */
    synchronized void keepFallbacks(Set<String> signalIds) {
        fallbacks.keySet().retainAll(signalIds);
    }

    synchronized FeedStatus status() {
        return new FeedStatus(url, fetchUri.toString(), str(lastFetch), str(lastSuccess), lastOutcome, lastError,
                str(lastErrorAt), failures, str(notBefore), etag, lastModified, fetches, notModified, published,
                deadLettered, skipped, held);
    }

    private static String str(Instant i) {
        return Objects.toString(i, null);
    }

}
