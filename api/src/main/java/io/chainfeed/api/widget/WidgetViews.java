package io.chainfeed.api.widget;

import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.api.selector.Selector;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The small JSON views the widgets render: only what a card or a list line shows, so the
 * answers stay small. Field names follow the read documents ({@code id}, {@code kind},
 * {@code slug}, {@code title}, {@code summary}, {@code layers[].id/name},
 * {@code updatedAt}, {@code publishedAt} and {@code observedAt} as ISO-8601 UTC,
 * {@code version} 1, 2, 3 ...), which the live events share, so the script renders both
 * the same way. Lists are newest {@code publishedAt} first, like the feeds.
 */
final class WidgetViews {

    /** Shown by every widget, and sent with every answer. */
    static final String DISCLAIMER = "chainfeed is research, not advice: it summarises public sources and says "
            + "nothing about what to buy or sell.";

    /** The read fields a widget needs (Elasticsearch source filter). */
    static final List<String> FIELDS = List.of("id", "kind", "slug", "title", "summary", "layers.id", "layers.name",
            "layers.primary", "companies.name", "companies.symbol", "companies.primary", "sources", "updatedAt",
            "publishedAt", "observedAt", "version", "signal.direction", "signal.magnitude", "signal.until",
            "signal.decidedBy", "signal.confidence", "signal.held");

    private static final int MAX_COMPANIES = 12;

    /**
     * Primary tags (layers, companies) before passing ones; the stored order otherwise.
     */
    private static final Comparator<Map<String, Object>> PRIMARY_FIRST = Comparator
        .comparing((Map<String, Object> t) -> !Boolean.TRUE.equals(t.get("primary")));

    private static final Pattern SINGLE_TEST = Pattern.compile("(layer|company|term):(\\S+)");

    private WidgetViews() {
    }

    /**
     * @param doc a read document from the index
     * @param details also the companies (primary subjects first, at most 12) and the
     * sources (term card)
     * @return id, kind, slug, title, summary, layers [{id, name, primary}] (primary
     * first), updatedAt, publishedAt, observedAt (null for a term), version, and with
     * details companies [{name, symbol}] and sources [{name, url}]; for a signal read
     * {@code signal} (direction, magnitude, until, decidedBy, confidence, held: the
     * evidence is on the read's own answer)
     */
    static WidgetData.WidgetRead read(Map<String, Object> doc, boolean details) {
        List<Map<String, Object>> layers = maps(doc.get("layers"));
        return new WidgetData.WidgetRead(text(doc.get("id")), text(doc.get("kind")), text(doc.get("slug")),
                text(doc.get("title")), text(doc.get("summary")),
                layers.stream()
                    .sorted(PRIMARY_FIRST)
                    .map(l -> ReadViews.convert(l, WidgetData.WidgetLayer.class))
                    .toList(),
                details ? maps(doc.get("companies")).stream()
                    .sorted(PRIMARY_FIRST)
                    .limit(MAX_COMPANIES)
                    .map(c -> ReadViews.convert(c, WidgetData.WidgetCompany.class))
                    .toList() : null,
                details ? ReadViews.list(doc.get("sources"), WidgetData.WidgetSource.class) : null,
                text(doc.get("updatedAt")), text(doc.get("publishedAt")), text(doc.get("observedAt")),
                doc.get("version") instanceof Number n ? n.longValue() : null,
                doc.get("signal") instanceof Map<?, ?> signal ? ReadViews.convert(signal, WidgetData.WidgetSignal.class)
                        : null);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> maps(Object list) {
        return list instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    private static String text(Object o) {
        return o == null ? null : o.toString();
    }

    /**
     * The page of our site a topic's feed links to: the layer, company or term page for a
     * selector of one such test, the search page otherwise.
     * @param origin our origin
     * @param selector the topic
     * @return an absolute URL
     */
    static String topicPage(String origin, Selector selector) {
        Matcher m = SINGLE_TEST.matcher(selector.canonical());
        if (!m.matches()) {
            return origin + "/";
        }
        String section = switch (m.group(1)) {
            case "layer" -> "/layers/";
            case "company" -> "/companies/";
            default -> "/terms/";
        };
        return origin + section + WidgetUrls.encode(m.group(2));
    }

}
