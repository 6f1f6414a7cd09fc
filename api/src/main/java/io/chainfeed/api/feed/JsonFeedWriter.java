package io.chainfeed.api.feed;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/**
 * Writes a {@link FeedDocument} as JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/).
 *
 * <p>
 * The top level has {@code version}, {@code title}, {@code home_page_url} (the topic's
 * web page), {@code feed_url} (the first page: the feed's identity), {@code next_url}
 * (the next page, absent on the last), {@code description}, {@code language} and
 * {@code authors}. Each item has {@code id} (the same stable {@code tag:} URI as the Atom
 * entry), {@code url}, {@code title}, {@code summary}, {@code content_text},
 * {@code date_published} for a signal (RFC 3339, UTC: its observation instant, when the
 * news it reads was published), {@code date_modified} (RFC 3339, UTC: when chainfeed
 * published this version of the read, the order of the items) and {@code tags} (the
 * category labels). What JSON Feed has no field for goes in the extension object
 * {@value #EXTENSION} (an underscore key, as the spec's extension rule asks), on the feed
 * ({@code about}, {@code topic}, {@code disclaimer}) and on each item ({@code about},
 * {@code kind}, {@code version} (1, 2, 3 ...), {@code previousVersion},
 * {@code observedAt} (a signal's observation instant, RFC 3339 UTC), {@code categories}
 * with scheme, term and label, {@code sources}, {@code disclaimer}, {@code changes}).
 */
public final class JsonFeedWriter {

    /** The JSON Feed version URL. */
    public static final String VERSION = "https://jsonfeed.org/version/1.1";

    /** The extension key. */
    public static final String EXTENSION = "_chainfeed";

    private JsonFeedWriter() {
    }

    /**
     * @param doc the feed page
     * @param about the absolute URL of the page that documents the extension object
     * @param mapper the JSON writer
     * @return the feed as UTF-8 JSON
     * @throws IllegalStateException if Jackson cannot write the maps, lists and records
     * (a bug)
     */
    public static byte[] write(FeedDocument doc, String about, ObjectMapper mapper) {
        JsonFeed feed = feed(doc, about);
        try {
            return mapper.writeValueAsBytes(feed);
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON Feed " + doc.id(), e);
        }
    }

    /**
     * @param doc the feed page
     * @param about the absolute URL of the page that documents the extension object
     * @return the feed as records
     */
    public static JsonFeed feed(FeedDocument doc, String about) {
        return new JsonFeed(VERSION, doc.title(), doc.page(), doc.first(), doc.next(), doc.subtitle(), "en",
                List.of(new JsonFeed.Author("chainfeed")),
                new JsonFeed.FeedExtension(about, doc.topic(), doc.id(), FeedDocument.DISCLAIMER),
                doc.entries().stream().map(e -> item(e, about)).toList());
    }

    private static JsonFeed.Item item(FeedEntry e, String about) {
        return new JsonFeed.Item(e.id(), e.link(), e.title(), e.summary(), e.contentText(),
                e.observedAt() == null ? null : e.observedAt().toString(), e.updated().toString(),
                e.categories()
                    .stream()
                    .filter(c -> !c.type().equals("kind"))
                    .map(FeedEntry.Category::label)
                    .distinct()
                    .toList(),
                new JsonFeed.ItemExtension(about, e.readId(), e.kind(), e.version(), e.previousVersion(),
                        e.observedAt() == null ? null : e.observedAt().toString(), e.signal(), e.categories(),
                        e.sources(), e.disclaimer(), e.changes()));
    }

}
