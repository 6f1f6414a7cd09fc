package io.chainfeed.ingest.newsfeed;

/**
 * What the poller knows of one configured feed, as the {@code feeds} actuator endpoint
 * shows it. Instants are ISO-8601 in UTC ({@code 2026-11-30T17:00:00Z}), null when it has
 * not happened yet.
 *
 * @param url the configured feed URL
 * @param fetchUrl where the feed is fetched now: the configured URL, or where a permanent
 * redirect (301/308) moved it
 * @param lastFetch when the last request was sent
 * @param lastSuccess when the last poll ended well (a document read, or 304 Not Modified)
 * @param lastOutcome of the last attempt: {@code fetched}, {@code not-modified},
 * {@code throttled}, {@code failed}, or null before the first
 * @param lastError the last failure's message, kept after later successes; null if none
 * yet
 * @param lastErrorAt when it happened
 * @param consecutiveFailures failures since the last success
 * @param notBefore no request before this (Retry-After or backoff); null when free to
 * poll
 * @param etag the ETag sent back as {@code If-None-Match}, or null
 * @param lastModified the Last-Modified sent back as {@code If-Modified-Since}, or null
 * @param fetches requests sent (including the 304s)
 * @param notModified of which answered 304
 * @param itemsPublished signals published from the feed since start
 * @param itemsDeadLettered items refused and dead-lettered since start
 * @param itemsSkipped items skipped since start: decided from their text not to be about
 * a supply constraint (on {@code chainfeed.signals-skipped.v1} with the reason)
 * @param itemsHeld of the published signals, those held for review (decided below the
 * confidence threshold)
 */
public record FeedStatus(String url, String fetchUrl, String lastFetch, String lastSuccess, String lastOutcome,
        String lastError, String lastErrorAt, int consecutiveFailures, String notBefore, String etag,
        String lastModified, long fetches, long notModified, long itemsPublished, long itemsDeadLettered,
        long itemsSkipped, long itemsHeld) {
}
