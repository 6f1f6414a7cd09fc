package io.chainfeed.api.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shapes a stored read document for API responses. */
public final class ReadViews {
    private ReadViews() {
    }

    /**
     * @param doc      the read as stored in the index
     * @param evidence keep tag evidence (offsets, matched text, rule) or drop it
     * @return a new ordered map: id, kind, slug, title, aliases, summary, sections, layers, companies,
     *         related (the terms the source itself lists as related), terms (every term tag: related
     *         and mentioned), sources, disclaimer, version, updatedAt
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
        for (String k : List.of("sources", "disclaimer", "version", "updatedAt")) {
            v.put(k, doc.get(k));
        }
        return v;
    }

    /** The term tags with {@code declared-related} evidence: the related terms the source lists. */
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
}
