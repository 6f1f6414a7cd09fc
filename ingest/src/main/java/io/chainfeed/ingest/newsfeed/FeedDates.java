package io.chainfeed.ingest.newsfeed;

import com.rometools.rome.io.impl.DateParser;
import io.chainfeed.avro.ObservedAtBasis;
import io.chainfeed.ingest.signal.SignalDates;
import java.time.Instant;
import java.util.Date;
import java.util.Locale;
import org.jdom2.Element;

/**
 * The dates of a feed and its items, with the element each came from, in the order of the
 * fallback chain for a signal's observed-at (documented in {@code docs/feeds-ingest.md}):
 * <ol>
 * <li>the item's published date: RSS {@code pubDate}, Atom 1.0 {@code published}, Atom
 * 0.3 {@code issued};</li>
 * <li>the item's updated date: Atom 1.0 {@code updated}, Atom 0.3 {@code modified};</li>
 * <li>the item's Dublin Core {@code dc:date} (RSS 1.0 mostly);</li>
 * <li>the feed's updated date (Atom {@code updated}/{@code modified}), RSS
 * {@code lastBuildDate}, RSS channel {@code pubDate}, then the feed's
 * {@code dc:date};</li>
 * <li>else the poller uses the instant it first saw the item (not here).</li>
 * </ol>
 * A date that cannot be read is skipped, as if absent. Dates are read with Rome's parser
 * (RFC 822 with named zones such as {@code EST}, W3C date-time) and then the signal
 * endpoint's forms ({@link SignalDates}).
 */
final class FeedDates {

    private static final String DC = "http://purl.org/dc/elements/1.1/";

    private FeedDates() {
    }

    /**
     * A date and where it came from.
     *
     * @param at the instant (UTC)
     * @param basis which element it was read from
     */
    record Dated(Instant at, ObservedAtBasis basis) {
    }

    /**
     * @param item an item's element
     * @return its own date by the chain above (steps 1 to 3), or null when it has none
     * readable
     */
    static Dated item(Element item) {
        Dated d = first(item, ObservedAtBasis.ITEM_PUBLISHED, "pubDate", "published", "issued");
        if (d == null) {
            d = first(item, ObservedAtBasis.ITEM_UPDATED, "updated", "modified");
        }
        return d != null ? d : dc(item, ObservedAtBasis.ITEM_DC_DATE);
    }

    /**
     * @param feed the Atom {@code feed} or RSS {@code channel} element
     * @return the feed's date by step 4 of the chain, or null when it has none readable
     */
    static Dated feed(Element feed) {
        Dated d = first(feed, ObservedAtBasis.FEED_UPDATED, "updated", "modified");
        if (d == null) {
            d = first(feed, ObservedAtBasis.FEED_LAST_BUILD_DATE, "lastBuildDate");
        }
        if (d == null) {
            d = first(feed, ObservedAtBasis.FEED_PUBLISHED, "pubDate");
        }
        return d != null ? d : dc(feed, ObservedAtBasis.FEED_DC_DATE);
    }

    private static Dated first(Element parent, ObservedAtBasis basis, String... names) {
        for (String name : names) {
            for (Element e : parent.getChildren()) {
                if (e.getName().equals(name) && !e.getNamespaceURI().equals(DC)) {
                    Instant at = parse(e.getTextTrim());
                    if (at != null) {
                        return new Dated(at, basis);
                    }
                }
            }
        }
        return null;
    }

    private static Dated dc(Element parent, ObservedAtBasis basis) {
        for (Element e : parent.getChildren("date", org.jdom2.Namespace.getNamespace(DC))) {
            Instant at = parse(e.getTextTrim());
            if (at != null) {
                return new Dated(at, basis);
            }
        }
        return null;
    }

    /**
     * @param text a feed date
     * @return the instant, or null when the text is empty or in no known form
     */
    static Instant parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Date d = DateParser.parseDate(text, Locale.US);
        if (d != null) {
            return d.toInstant();
        }
        try {
            return SignalDates.parse(text);
        }
        catch (IllegalArgumentException e) {
            return null;
        }
    }

}
