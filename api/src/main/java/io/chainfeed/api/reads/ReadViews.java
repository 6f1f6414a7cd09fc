package io.chainfeed.api.reads;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shapes a stored read document for API responses. */
public final class ReadViews {

    private ReadViews() {
    }

    /**
     * @param doc the read as stored in the index
     * @param evidence keep tag evidence (offsets, matched text, rule) or drop it
     * @return a new ordered map: id, kind, slug, title, aliases, summary, sections,
     * layers, companies, related (the terms the source itself lists as related), terms
     * (every term tag: related and mentioned), sources, disclaimer, version (1, 2, 3
     * ...), updatedAt, previousVersion (null for a first version), publishedAt (when
     * chainfeed published this version, ISO-8601 UTC), observedAt (a signal's observation
     * instant; null for a term) and changes (what changed against it: field, change, key,
     * detail and {@code text}, a sentence from {@link #changeText}), and for a signal
     * read {@code signal}: direction, magnitude, until, decidedBy (editor or text),
     * confidence, held, decided (per value, who), evidence (per decided value, the spans:
     * field, offset, length, text, rule) and review
     * ({@code io.chainfeed.schemas.SignalViews})
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> view(Map<String, Object> doc, boolean evidence) {
        Map<String, Object> v = new LinkedHashMap<>();
        for (String k : List.of("id", "kind", "slug", "title", "aliases", "summary", "sections")) {
            v.put(k, doc.get(k));
        }
        v.put("layers", tags((List<Map<String, Object>>) doc.get("layers"), evidence));
        v.put("companies", tags((List<Map<String, Object>>) doc.get("companies"), evidence));
        List<Map<String, Object>> termTags = (List<Map<String, Object>>) doc.get("terms");
        v.put("related", tags(declaredRelated(termTags), evidence));
        v.put("terms", tags(termTags, evidence));
        for (String k : List.of("sources", "disclaimer", "version", "updatedAt", "previousVersion", "publishedAt",
                "observedAt")) {
            v.put(k, doc.get(k));
        }
        v.put("changes", changes(doc));
        if (doc.get("signal") != null) {
            v.put("signal", signal(doc.get("signal")));
        }
        return v;
    }

    /**
     * The term history of a stored read.
     * @param doc the read as stored in the index
     * @return its {@code changes}, each a new map with field, change, key, detail and
     * text; empty when the document has none (a first version, or indexed before term
     * history existed)
     */
    public static List<Map<String, Object>> changes(Map<String, Object> doc) {
        if (!(doc.get("changes") instanceof List<?> list)) {
            return List.of();
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : list) {
            if (o instanceof Map<?, ?> m) {
                Map<String, Object> c = new LinkedHashMap<>();
                for (String k : List.of("field", "change", "key", "detail")) {
                    c.put(k, m.get(k) == null ? "" : String.valueOf(m.get(k)));
                }
                c.put("text", changeText((String) c.get("field"), (String) c.get("change"), (String) c.get("key"),
                        (String) c.get("detail")));
                out.add(c);
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
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> declaredRelated(List<Map<String, Object>> termTags) {
        if (termTags == null) {
            return List.of();
        }
        return termTags.stream().filter(t -> {
            Object ev = t.get("evidence");
            return ev instanceof List<?> list && list.stream()
                .anyMatch(e -> e instanceof Map<?, ?> m && "declared-related".equals(m.get("rule")));
        }).toList();
    }

    private static List<Map<String, Object>> tags(List<Map<String, Object>> tags, boolean evidence) {
        if (tags == null) {
            return List.of();
        }
        return tags.stream().map(t -> {
            Map<String, Object> copy = new LinkedHashMap<>(t);
            if (!evidence) {
                copy.remove("evidence");
            }
            return copy;
        }).toList();
    }

    /**
     * @param stored a read document's {@code signal} object, as stored (the index leaves
     * out null members)
     * @return a new map with every member of {@code io.chainfeed.schemas.SignalViews},
     * {@code until} and {@code review} null when absent
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> signal(Object stored) {
        Map<String, Object> s = new LinkedHashMap<>((Map<String, Object>) stored);
        s.putIfAbsent("until", null);
        s.putIfAbsent("review", null);
        return s;
    }

}
