package io.chainfeed.api.widget;

import org.springframework.web.util.HtmlUtils;

/**
 * oEmbed discovery (oEmbed 1.0 section 4): the
 * {@code <link rel="alternate" type="application/json+oembed">} element that our
 * embeddable pages carry in their served HTML, pointing at {@code /oembed} for the page.
 */
public final class OEmbedDiscovery {

    private OEmbedDiscovery() {
    }

    /**
     * @param origin our origin, e.g. {@code http://localhost:8080}
     * @param pagePath the page's path, its segments already percent-encoded (e.g.
     * {@code /terms/rdma})
     * @param title what the link names (text; escaped here)
     * @return the {@code <link>} element, every attribute value HTML-escaped
     */
    public static String link(String origin, String pagePath, String title) {
        String href = origin + "/oembed?url=" + WidgetUrls.encode(origin + pagePath) + "&format=json";
        return "<link rel=\"alternate\" type=\"application/json+oembed\" href=\"" + HtmlUtils.htmlEscape(href)
                + "\" title=\"" + HtmlUtils.htmlEscape(title) + "\">";
    }

    /**
     * @return the text percent-encoded as one path segment (UTF-8)
     */
    public static String segment(String text) {
        return WidgetUrls.encode(text);
    }

}
