package io.chainfeed.api.syndication;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        Map<String, Object> feed = new LinkedHashMap<>();
        feed.put("version", VERSION);
        feed.put("title", doc.title());
        feed.put("home_page_url", doc.page());
        feed.put("feed_url", doc.first());
        if (doc.next() != null) {
            feed.put("next_url", doc.next());
        }
        feed.put("description", doc.subtitle());
        feed.put("language", "en");
        feed.put("authors", List.of(Map.of("name", "chainfeed")));
        Map<String, Object> ext = new LinkedHashMap<>();
        ext.put("about", about);
        ext.put("topic", doc.topic());
        ext.put("id", doc.id());
        ext.put("disclaimer", FeedDocument.DISCLAIMER);
        feed.put(EXTENSION, ext);
        List<Map<String, Object>> items = new ArrayList<>();
        for (FeedEntry e : doc.entries()) {
            items.add(item(e, about));
        }
        feed.put("items", items);
        try {
            return mapper.writeValueAsBytes(feed);
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON Feed " + doc.id(), e);
        }
    }

    private static Map<String, Object> item(FeedEntry e, String about) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", e.id());
        item.put("url", e.link());
        item.put("title", e.title());
        item.put("summary", e.summary());
        item.put("content_text", e.contentText());
        if (e.observedAt() != null) {
            item.put("date_published", e.observedAt().toString());
        }
        item.put("date_modified", e.updated().toString());
        item.put("tags",
                e.categories()
                    .stream()
                    .filter(c -> !c.type().equals("kind"))
                    .map(FeedEntry.Category::label)
                    .distinct()
                    .toList());
        Map<String, Object> ext = new LinkedHashMap<>();
        ext.put("about", about);
        ext.put("readId", e.readId());
        ext.put("kind", e.kind());
        ext.put("version", e.version());
        ext.put("previousVersion", e.previousVersion());
        if (e.observedAt() != null) {
            ext.put("observedAt", e.observedAt().toString());
        }
        if (e.signal() != null) {
            ext.put("signal", e.signal());
        }
        // the records' components, in declaration order, are the JSON members
        ext.put("categories", e.categories());
        ext.put("sources", e.sources());
        ext.put("disclaimer", e.disclaimer());
        ext.put("changes", e.changes());
        item.put(EXTENSION, ext);
        return item;
    }

}
