package io.chainfeed.api.feed;

import java.time.Instant;
import java.util.List;

/**
 * One page of a topic's feed, format-neutral. Strings are cleaned of the characters XML
 * 1.0 forbids and not escaped.
 *
 * @param id the feed id, the same on every page ({@link FeedLinks#feedId})
 * @param title the feed title
 * @param subtitle what the feed holds, and the disclaimer
 * @param topic the canonical selector
 * @param updated the newest {@code updated} of the page's entries (UTC, whole seconds);
 * the epoch for an empty page
 * @param self the absolute URL of this page
 * @param first the absolute URL of the first page
 * @param next the absolute URL of the next page, or null on the last
 * @param page the absolute URL of the topic's web page
 * @param entries the entries, newest {@code updated} first
 */
public record FeedDocument(String id, String title, String subtitle, String topic, Instant updated, String self,
        String first, String next, String page, List<FeedEntry> entries) {
    /** The disclaimer every feed carries, whatever its entries say. */
    public static final String DISCLAIMER = "chainfeed is research, not advice: it summarises public sources and "
            + "says nothing about what to buy or sell.";

}
