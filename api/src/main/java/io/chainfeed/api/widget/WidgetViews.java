package io.chainfeed.api.widget;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.util.Comparator;
import java.util.List;
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
    static final List<String> FIELDS = List.of(ReadFields.ID, ReadFields.KIND, ReadFields.SLUG, ReadFields.TITLE,
            ReadFields.SUMMARY, ReadFields.LAYERS_ID, ReadFields.LAYERS_NAME, ReadFields.LAYERS_PRIMARY,
            ReadFields.COMPANIES_NAME, ReadFields.COMPANIES_SYMBOL, ReadFields.COMPANIES_PRIMARY, ReadFields.SOURCES,
            ReadFields.UPDATED_AT, ReadFields.PUBLISHED_AT, ReadFields.OBSERVED_AT, ReadFields.VERSION,
            ReadFields.SIGNAL_DIRECTION, ReadFields.SIGNAL_MAGNITUDE, ReadFields.SIGNAL_UNTIL,
            ReadFields.SIGNAL_DECIDED_BY, ReadFields.SIGNAL_CONFIDENCE, ReadFields.SIGNAL_HELD);

    private static final int MAX_COMPANIES = 12;

    /**
     * Primary tags (layers, companies) before passing ones; the stored order otherwise.
     */
    private static final Comparator<ReadDocument.LayerTag> LAYER_PRIMARY_FIRST = Comparator
        .comparing((ReadDocument.LayerTag t) -> !t.primary());

    private static final Comparator<ReadDocument.CompanyTag> COMPANY_PRIMARY_FIRST = Comparator
        .comparing((ReadDocument.CompanyTag t) -> !t.primary());

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
    static WidgetData.WidgetRead read(ReadDocument doc, boolean details) {
        ReadDocument.Signal signal = doc.signal();
        return new WidgetData.WidgetRead(doc.id(), doc.kind(), doc.slug(), doc.title(), doc.summary(),
                doc.layers()
                    .stream()
                    .sorted(LAYER_PRIMARY_FIRST)
                    .map(l -> new WidgetData.WidgetLayer(l.id(), l.name(), l.primary()))
                    .toList(),
                details ? doc.companies()
                    .stream()
                    .sorted(COMPANY_PRIMARY_FIRST)
                    .limit(MAX_COMPANIES)
                    .map(c -> new WidgetData.WidgetCompany(c.name(), c.symbol()))
                    .toList() : null,
                details ? doc.sources().stream().map(x -> new WidgetData.WidgetSource(x.name(), x.url())).toList()
                        : null,
                doc.updatedAt(), doc.publishedAt(), doc.observedAt(), doc.version(),
                signal == null ? null : new WidgetData.WidgetSignal(signal.direction(), signal.magnitude(),
                        signal.until(), signal.decidedBy(), signal.confidence(), signal.held()));
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
