package io.chainfeed.api.reads;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Shapes a stored read document for API responses. */
public final class ReadViews {

    /** The line the term and company indexes carry. */
    public static final String INDEX_DISCLAIMER = "chainfeed is research, not advice: it summarises public sources and "
            + "says nothing about what to buy or sell.";

    /**
     * Reads stored documents into the answer records; members they do not name are left.
     */
    private static final ObjectMapper DOCUMENTS = JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();

    private ReadViews() {
    }

    /**
     * @param doc the read as stored in the index
     * @param evidence keep tag evidence (offsets, matched text, rule) or drop it
     * @return the read: id, kind, slug, title, aliases, summary, sections, layers,
     * companies, related (the terms the source itself lists as related), terms (every
     * term tag: related and mentioned), sources, disclaimer, version (1, 2, 3 ...),
     * updatedAt, previousVersion (null for a first version), publishedAt (when chainfeed
     * published this version, ISO-8601 UTC), observedAt (a signal's observation instant;
     * null for a term) and changes (what changed against it: field, change, key, detail
     * and {@code text}, a sentence from {@link #changeText}), and for a signal read
     * {@code signal}: direction, magnitude, until, decidedBy (editor or text),
     * confidence, held, decided (per value, who), evidence (per decided value, the spans:
     * field, offset, length, text, rule) and review
     * ({@code io.chainfeed.schemas.SignalViews})
     */
    public static ReadView view(Map<String, Object> doc, boolean evidence) {
        List<ReadView.TermTag> terms = list(doc.get("terms"), ReadView.TermTag.class);
        return new ReadView(str(doc.get("id")), str(doc.get("kind")), str(doc.get("slug")), str(doc.get("title")),
                list(doc.get("aliases"), String.class), str(doc.get("summary")),
                list(doc.get("sections"), ReadView.Section.class),
                tags(list(doc.get("layers"), ReadView.LayerTag.class), evidence,
                        t -> new ReadView.LayerTag(t.id(), t.name(), t.confidence(), t.primary(), null)),
                tags(list(doc.get("companies"), ReadView.CompanyTag.class), evidence,
                        t -> new ReadView.CompanyTag(t.id(), t.name(), t.symbol(), t.mic(), t.confidence(), t.primary(),
                                null)),
                tags(declaredRelated(terms), evidence, ReadViews::withoutEvidence),
                tags(terms, evidence, ReadViews::withoutEvidence), list(doc.get("sources"), ReadView.Source.class),
                str(doc.get("disclaimer")), number(doc.get("version")), str(doc.get("updatedAt")),
                number(doc.get("previousVersion")), str(doc.get("publishedAt")), str(doc.get("observedAt")),
                changes(doc), doc.get("signal") == null ? null : signal(doc.get("signal")));
    }

    private static ReadView.TermTag withoutEvidence(ReadView.TermTag t) {
        return new ReadView.TermTag(t.slug(), t.title(), t.summary(), t.confidence(), null);
    }

    /**
     * @param value a part of a stored document (a list of maps, strings, numbers)
     * @param type the record (or value type) of each item
     * @return the items as that type; empty for null
     */
    public static <T> List<T> list(Object value, Class<T> type) {
        if (!(value instanceof List<?> items)) {
            return List.of();
        }
        return items.stream().map(i -> convert(i, type)).toList();
    }

    /**
     * @param value a part of a stored document
     * @param type the record it is read as (unknown members ignored)
     * @return it as that record, null for null
     */
    public static <T> T convert(Object value, Class<T> type) {
        return value == null ? null : DOCUMENTS.convertValue(value, type);
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }

    private static Long number(Object o) {
        return o instanceof Number n ? n.longValue() : null;
    }

    /**
     * The term history of a stored read.
     * @param doc the read as stored in the index
     * @return its {@code changes}, each with field, change, key, detail and text; empty
     * when the document has none (a first version, or indexed before term history
     * existed)
     */
    public static List<ReadView.Change> changes(Map<String, Object> doc) {
        if (!(doc.get("changes") instanceof List<?> list)) {
            return List.of();
        }
        List<ReadView.Change> out = new ArrayList<>();
        for (Object o : list) {
            if (o instanceof Map<?, ?> m) {
                String[] v = new String[4];
                int i = 0;
                for (String k : List.of("field", "change", "key", "detail")) {
                    v[i++] = m.get(k) == null ? "" : String.valueOf(m.get(k));
                }
                out.add(new ReadView.Change(v[0], v[1], v[2], v[3], changeText(v[0], v[1], v[2], v[3])));
            }
        }
        return out;
    }

    /**
     * One change as a plain-English sentence, e.g.
     * {@code Section “Why it matters” changed},
     * {@code Company “Arista Networks (ANET)” added} or
     * {@code Source “JEDEC” added (https://www.jedec.org/)}. Plain text: escape it for
     * the output format.
     * @param field title, aliases, summary, sections, layers, companies, related, terms,
     * sources, disclaimer (anything else is named as it is)
     * @param change added, removed or changed
     * @param key the item's stable key (for a source: its URL, which the sentence names,
     * since two sources may share a name)
     * @param detail the label of the item (for title: the new title)
     * @return the sentence, without a final full stop
     */
    public static String changeText(String field, String change, String key, String detail) {
        String what = switch (field) {
            case "title" -> "Title";
            case "summary" -> "Summary";
            case "disclaimer" -> "Disclaimer";
            case "aliases" -> "Alias";
            case "sections" -> "Section";
            case "layers" -> "Layer";
            case "companies" -> "Company";
            case "related" -> "Related term";
            case "terms" -> "Mentioned term";
            case "sources" -> "Source";
            default -> field;
        };
        if (field.equals("title") && change.equals("changed")) {
            return "Title changed to “" + detail + "”";
        }
        if (field.equals("summary") || field.equals("disclaimer") || detail.isEmpty()) {
            return what + " " + change;
        }
        String sentence = what + " “" + detail + "” " + change;
        return field.equals("sources") && !key.isEmpty() && !key.equals(detail) ? sentence + " (" + key + ")"
                : sentence;
    }

    /**
     * The term tags with {@code declared-related} evidence: the related terms the source
     * lists.
     */
    private static List<ReadView.TermTag> declaredRelated(List<ReadView.TermTag> termTags) {
        return termTags.stream()
            .filter(t -> t.evidence() != null
                    && t.evidence().stream().anyMatch(e -> "declared-related".equals(e.rule())))
            .toList();
    }

    private static <T> List<T> tags(List<T> tags, boolean evidence, UnaryOperator<T> strip) {
        return evidence ? tags : tags.stream().map(strip).toList();
    }

    /**
     * @param stored a read document's {@code signal} object, as stored (the index leaves
     * out null members)
     * @return it typed, {@code until} and {@code review} null when absent
     */
    public static ReadView.SignalView signal(Object stored) {
        return convert(stored, ReadView.SignalView.class);
    }

}
