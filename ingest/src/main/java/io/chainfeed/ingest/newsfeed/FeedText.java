package io.chainfeed.ingest.newsfeed;

import com.rometools.rome.feed.synd.SyndContent;
import com.rometools.rome.feed.synd.SyndEntry;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;

/**
 * Plain text of an item's title and body, as a reader shows them.
 *
 * <p>
 * By then the XML parser has decoded the document's own escaping once ({@code &lt;em&gt;}
 * or a CDATA section both give {@code <em>}). What is HTML is then read as HTML by jsoup
 * and only its text kept, which decodes HTML entities once more, as the markup's own
 * ({@code &amp;amp;} in an escaped title ends as {@code &}); white space is collapsed.
 * What is HTML: every RSS title, description and {@code content:encoded} (RSS does not
 * say, and readers treat them as HTML), and Atom text constructs of {@code type="html"}
 * or {@code "xhtml"} (RFC 4287 section 3.1) or an HTML media type (Atom 0.3). Atom
 * {@code type="text"} (the default) is taken as it is, so a literal {@code <} or
 * {@code &amp;} in it stays.
 */
final class FeedText {

    /** Longest body kept, in characters (the signal's limit). */
    static final int MAX_BODY = 20_000;

    private FeedText() {
    }

    /**
     * @param entry the item
     * @param atom whether the document is Atom
     * @return the title as plain text, or null when it has none
     */
    static String headline(SyndEntry entry, boolean atom) {
        SyndContent title = entry.getTitleEx();
        if (title == null || title.getValue() == null) {
            return entry.getTitle() == null ? null : plain(entry.getTitle(), atom ? "text" : "html");
        }
        return plain(title.getValue(), atom ? title.getType() : "html");
    }

    /**
     * @param entry the item
     * @param atom whether the document is Atom
     * @return the description (Atom summary), else the contents joined, as plain text at
     * most {@value #MAX_BODY} characters; empty when it has neither
     */
    static String body(SyndEntry entry, boolean atom) {
        SyndContent d = entry.getDescription();
        String text;
        if (d != null && d.getValue() != null && !d.getValue().isBlank()) {
            text = plain(d.getValue(), atom ? d.getType() : "html");
        }
        else {
            text = entry.getContents()
                .stream()
                .filter(c -> c.getValue() != null)
                .map(c -> plain(c.getValue(), atom ? c.getType() : "html"))
                .filter(Objects::nonNull)
                .collect(Collectors.joining("\n"));
        }
        return text.length() > MAX_BODY ? text.substring(0, MAX_BODY) : text;
    }

    /**
     * @param value the text as the XML parser gave it
     * @param type {@code text}, {@code html}, {@code xhtml} or a media type; null for
     * Atom's default (text)
     * @return the plain text, white space collapsed and trimmed
     */
    static String plain(String value, String type) {
        if (value == null) {
            return null;
        }
        String t = type == null ? "text" : type.strip().toLowerCase(Locale.ROOT);
        boolean markup = t.equals("html") || t.equals("xhtml") || t.contains("html");
        return markup ? Jsoup.parse(value).text().strip() : value.replaceAll("\\s+", " ").strip();
    }

}
