package io.chainfeed.api.widget;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.web.util.HtmlUtils;

/**
 * The HTML of the iframe form: a page that holds one widget element and the widget
 * script, which, in an embed page, posts the page's height to the parent on every size
 * change. Every value from the request goes in as an HTML-escaped attribute value;
 * nothing is inline (no script, no style), so the page runs under a CSP without
 * {@code 'unsafe-inline'}. The text of the widgets is English ({@code lang="en"}); the
 * locale only formats dates.
 */
final class EmbedPages {

    /**
     * BCP 47 language tag, the shape {@code Intl} accepts (e.g. {@code en-GB},
     * {@code zh-Hant-TW}).
     */
    static final Pattern LOCALE = Pattern.compile("[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,4}");
    static final List<String> THEMES = List.of("auto", "light", "dark");

    private EmbedPages() {
    }

    /**
     * The CSP of an embed page: resources from our origin only, and framing only by the
     * key's origins (CSP Level 2 {@code frame-ancestors}; {@code 'none'} for a key
     * without origins).
     * @param allowedOrigins serialised origins of the partner key
     * @return the {@code Content-Security-Policy} header value
     */
    static String csp(List<String> allowedOrigins) {
        String ancestors = allowedOrigins.isEmpty() ? "'none'" : String.join(" ", allowedOrigins);
        return "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors " + ancestors;
    }

    /**
     * @param element {@code chainfeed-term}, {@code chainfeed-feed} or
     * {@code chainfeed-chain}
     * @param title the document title (also what the iframe's {@code title} should say)
     * @param attributes the element's attributes, in order; a null value is left out, an
     * empty one is a boolean attribute
     * @return a complete HTML document
     */
    static String page(String element, String title, Map<String, String> attributes) {
        StringBuilder attrs = new StringBuilder();
        attributes.forEach((k, v) -> {
            if (v != null) {
                attrs.append(' ').append(k);
                if (!v.isEmpty()) {
                    attrs.append("=\"").append(HtmlUtils.htmlEscape(v)).append('"');
                }
            }
        });
        return """
                <!doctype html>
                <html lang="en" data-chainfeed-embed>
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>%s</title>
                <link rel="stylesheet" href="/widget/v1/embed.css">
                <script src="/widget/v1/chainfeed.js" defer></script>
                </head>
                <body>
                <%s%s></%s>
                </body>
                </html>
                """.formatted(HtmlUtils.htmlEscape(title), element, attrs, element);
    }

    /** Attributes shared by every widget element, in a stable order. */
    static Map<String, String> common(String key, String theme, String locale) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("key", key);
        m.put("theme", theme);
        m.put("locale", locale);
        return m;
    }

}
