package io.chainfeed.api.feed;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.support.settings.ApiProperties;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriUtils;

/**
 * Identifiers and URLs of the Atom and JSON feeds.
 *
 * <p>
 * Identifiers are {@code tag:} URIs (RFC 4151) under the tagging entity
 * {@code chainfeed.api.feeds.tag-authority} (default {@value #DEFAULT_AUTHORITY}), so
 * they do not depend on the host a feed was fetched from and never change: an entry is
 * {@code tag:<authority>:read/<read id>} across all its versions, a feed
 * {@code tag:<authority>:feed/<canonical selector>}, and the category schemes
 * {@code tag:<authority>:layer}, {@code :company}, {@code :term} and {@code :kind}.
 *
 * <p>
 * Links are absolute: under {@code chainfeed.api.feeds.base-url} when it is set (the
 * public URL of the API behind a proxy), else under the scheme, host and port the request
 * came to.
 */
@Component
public class FeedLinks {

    /**
     * The tagging entity used when none is configured: a domain name and a year, as RFC
     * 4151 asks.
     */
    public static final String DEFAULT_AUTHORITY = ApiProperties.Feeds.DEFAULT_AUTHORITY;

    /** The feeds' paths. */
    public static final String ATOM_PATH = "/api/v1/feeds/atom";

    public static final String JSON_PATH = "/api/v1/feeds/json";

    /** The media types, with the charset the API writes. */
    public static final String ATOM_TYPE = "application/atom+xml";

    public static final String JSON_FEED_TYPE = "application/feed+json";

    private final String authority;

    private final String baseUrl;

    /**
     * @param authority the RFC 4151 tagging entity, {@code <domain or e-mail>,<date>}
     * @param baseUrl the public base URL without a trailing slash, or empty to use the
     * request's
     */
    public FeedLinks(String authority, String baseUrl) {
        if (!authority.matches("[A-Za-z0-9.@_-]+,\\d{4}(-\\d{2}(-\\d{2})?)?")) {
            throw new IllegalArgumentException(
                    "chainfeed.api.feeds.tag-authority must be <domain or e-mail>,<yyyy[-mm[-dd]]>"
                            + " (RFC 4151), not '" + authority + "'");
        }
        this.authority = authority;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    /**
     * @param props {@code chainfeed.api.feeds.tag-authority} and
     * {@code chainfeed.api.feeds.base-url}
     */
    @Autowired
    FeedLinks(ApiProperties props) {
        this(props.feeds().tagAuthority(), props.feeds().baseUrl());
    }

    /**
     * @param request the request being answered
     * @return the base URL links are made under, e.g. {@code http://127.0.0.1:8080}
     */
    public String base(HttpServletRequest request) {
        if (!baseUrl.isEmpty()) {
            return baseUrl;
        }
        return ServletUriComponentsBuilder.fromContextPath(request).replaceQuery(null).build().toUriString();
    }

    /**
     * @return the entry id of a read, the same for every version:
     * {@code tag:<authority>:read/<read id>}
     */
    public String entryId(String readId) {
        return "tag:" + authority + ":read/" + tagSpecific(readId);
    }

    /**
     * @return the feed id of a selector, the same for every page:
     * {@code tag:<authority>:feed/<canonical>}
     */
    public String feedId(Selector selector) {
        return "tag:" + authority + ":feed/" + tagSpecific(selector.canonical());
    }

    /**
     * @param type {@code layer}, {@code company}, {@code term} or {@code kind}
     * @return the category scheme, {@code tag:<authority>:<type>}
     */
    public String scheme(String type) {
        return "tag:" + authority + ":" + type;
    }

    /**
     * The URL of one page of a feed.
     * @param base from {@link #base}
     * @param path {@link #ATOM_PATH} or {@link #JSON_PATH}
     * @param selector the topic
     * @param size the page size, left out of the URL when it is the default
     * @param cursor where the page starts, null for the first page
     * @return the absolute URL, query parameters form-encoded
     */
    public String feedUrl(String base, String path, Selector selector, int size, FeedCursor cursor) {
        StringBuilder url = new StringBuilder(base).append(path).append("?topic=").append(query(selector.canonical()));
        if (size != SyndicationController.DEFAULT_SIZE) {
            url.append("&size=").append(size);
        }
        if (cursor != null) {
            url.append("&cursor=").append(query(cursor.encode()));
        }
        return url.toString();
    }

    /**
     * The web page of a topic: a term's, company's or layer's own page for a selector
     * that is just that one test, else the search page.
     * @return a site path, e.g. {@code /terms/rdma}, or {@code /}
     */
    public static String pagePath(Selector selector) {
        List<Map.Entry<Selector.Field, String>> tests = selector.tests();
        if (tests.size() == 1) {
            Map.Entry<Selector.Field, String> t = tests.get(0);
            if (selector.canonical().equals(t.getKey().name().toLowerCase(Locale.ROOT) + ":" + t.getValue())) {
                return switch (t.getKey()) {
                    case TERM -> "/terms/" + segment(t.getValue());
                    case COMPANY -> "/companies/" + segment(t.getValue());
                    case LAYER -> "/layers/" + segment(t.getValue());
                    case KIND -> "/";
                };
            }
        }
        return "/";
    }

    /**
     * The discovery links of a topic, as HTML {@code <link rel="alternate">} wants them.
     * @param selector the topic
     * @return relative hrefs by media type: Atom first, then JSON Feed
     */
    public static Map<String, String> discovery(Selector selector) {
        String topic = "?topic=" + query(selector.canonical());
        Map<String, String> links = new LinkedHashMap<>();
        links.put(ATOM_TYPE, ATOM_PATH + topic);
        links.put(JSON_FEED_TYPE, JSON_PATH + topic);
        return links;
    }

    static String segment(String value) {
        return UriUtils.encodePathSegment(value, StandardCharsets.UTF_8);
    }

    static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * Percent-encodes all but unreserved characters, {@code :}, {@code /} and {@code @}
     * (RFC 4151 {@code specific}).
     */
    static String tagSpecific(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~:/@".indexOf(c) >= 0)) {
                out.append(c);
            }
            else {
                out.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return out.toString();
    }

}
