package io.chainfeed.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renders a {@link TermContent} as a JSON-ready tree (the shape the ingest endpoint and
 * CLI print).
 */
public final class TermJson {

    private TermJson() {
    }

    /**
     * @param t term content
     * @return ordered map: slug, title, aliases, definition, sections[key, heading,
     * body], layer, companies[name, symbol], related[slug, title, summary], sources[name,
     * url], disclaimer, origin
     */
    public static Map<String, Object> of(TermContent t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("slug", t.slug());
        m.put("title", t.title());
        m.put("aliases", t.aliases());
        m.put("definition", t.definition());
        m.put("sections",
                t.sections()
                    .stream()
                    .map(s -> ordered("key", s.getKey(), "heading", s.getHeading(), "body", s.getBody()))
                    .toList());
        m.put("layer", t.layerHint());
        m.put("companies",
                t.companies().stream().map(c -> ordered("name", c.getName(), "symbol", c.getSymbol())).toList());
        m.put("related",
                t.related()
                    .stream()
                    .map(r -> ordered("slug", r.getSlug(), "title", r.getTitle(), "summary", r.getSummary()))
                    .toList());
        m.put("sources", t.sources().stream().map(s -> ordered("name", s.getName(), "url", s.getUrl())).toList());
        m.put("disclaimer", t.disclaimer());
        m.put("origin", t.origin());
        return m;
    }

    private static Map<String, Object> ordered(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

}
