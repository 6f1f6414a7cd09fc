package io.chainfeed.schemas;

import java.net.URI;
import java.util.Locale;

/**
 * When two constraint signals are repeats of one story (a wire item reposted under new
 * ids and URLs): they share a source URL ({@link #urlKey}) or the same headline from the
 * same source ({@link #headlineKey}). The one rule the chain model (streams
 * {@code ChainBook}: a story counts once) and search (reposts collapse into one result,
 * {@link ReadDocuments}' {@code story} field) both use; see docs/chain-model.md.
 */
public final class Stories {

    private Stories() {
    }

    /**
     * The URL story key: the source URL trimmed, lower-cased, without fragment or
     * trailing slash.
     * @param id the signal id (the key when the URL is blank, so such a signal is its own
     * story)
     * @param url the source URL, or null
     * @return the group key
     */
    public static String urlKey(String id, String url) {
        String u = url == null ? "" : url.trim().toLowerCase(Locale.ROOT);
        int hash = u.indexOf('#');
        if (hash >= 0) {
            u = u.substring(0, hash);
        }
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        return u.isEmpty() ? "id\n" + id : "url\n" + u;
    }

    /**
     * The headline story key: the source (its name, or its URL's host when unnamed) and
     * the headline, each lower-cased with runs of white space made one space.
     * @param sourceName the source's name, or null
     * @param sourceUrl the source's URL, or null
     * @param headline the headline
     * @return the group key
     */
    public static String headlineKey(String sourceName, String sourceUrl, String headline) {
        String source = plain(sourceName);
        if (source.isEmpty()) {
            try {
                String host = URI.create(sourceUrl == null ? "" : sourceUrl.trim()).getHost();
                source = host == null ? "" : plain(host);
            }
            catch (IllegalArgumentException e) {
                source = plain(sourceUrl);
            }
        }
        return "headline\n" + source + "\n" + plain(headline);
    }

    private static String plain(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

}
