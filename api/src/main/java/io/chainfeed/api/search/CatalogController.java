package io.chainfeed.api.search;

import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.web.NotFoundException;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.api.web.ReadViews;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Autocomplete ({@code GET /api/v1/suggest}), a glossary term's page ({@code GET /api/v1/terms/{slug}})
 * and the chain layers that reads are tagged with ({@code GET /api/v1/layers}).
 */
@RestController
@RequestMapping("/api/v1")
@Validated
@Tag(name = "search", description = "Search research notes")
class CatalogController {
    private final SearchCatalog catalog;
    private final ReadSearch search;
    private final ReferenceLayers referenceLayers;

    CatalogController(SearchCatalog catalog, ReadSearch search, ReferenceLayers referenceLayers) {
        this.catalog = catalog;
        this.search = search;
        this.referenceLayers = referenceLayers;
    }

    @GetMapping("/suggest")
    @Operation(summary = "Autocomplete", description = "Glossary terms (titles and aliases), companies (names and "
            + "tickers) and chain layers whose name, or a word of it, starts with the text; exact matches first.")
    Map<String, Object> suggest(@RequestParam @NotBlank @Size(max = 100) String q,
            @RequestParam(defaultValue = "5") @Min(1) @Max(10) int size) throws IOException {
        SearchCatalog.Suggestions s = catalog.suggest(q, size);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("query", q);
        out.put("terms", s.terms());
        out.put("companies", s.companies());
        out.put("layers", s.layers());
        return out;
    }

    @GetMapping("/layers")
    @Operation(summary = "Chain layers", description = "Every chain layer of the reference data (and any other layer "
            + "reads are tagged with), with its summary, its upstream edges (ids of the layers that supply it) and "
            + "read counts; by name.")
    Map<String, Object> layers() throws IOException {
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        for (ChainLayer l : referenceLayers.all()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", l.getId());
            m.put("name", l.getName());
            m.put("summary", l.getSummary());
            m.put("upstream", List.copyOf(l.getUpstream()));
            m.put("reads", 0L);
            byId.put(l.getId(), m);
        }
        for (SearchCatalog.LayerName l : catalog.layers()) {
            Map<String, Object> m = byId.computeIfAbsent(l.id(), id -> {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("id", id);
                n.put("name", l.name());
                n.put("summary", "");
                n.put("upstream", List.of());
                return n;
            });
            m.put("reads", l.reads());
        }
        List<Map<String, Object>> layers = new ArrayList<>(byId.values());
        layers.sort(Comparator.comparing(m -> (String) m.get("name"), String.CASE_INSENSITIVE_ORDER));
        return Map.of("layers", layers);
    }

    @GetMapping("/terms/{slug}")
    @Operation(summary = "A glossary term's page", description = "Definition, sections, layers (primary first), "
            + "companies, related terms resolved to their own reads, sources and version history.")
    @SuppressWarnings("unchecked")
    Map<String, Object> term(@PathVariable String slug) throws IOException {
        Map<String, Object> doc = search.get("term:" + slug)
                .orElseThrow(() -> new NotFoundException("no glossary term '" + slug + "'"));
        Map<String, Object> view = ReadViews.view(doc, false);
        List<Map<String, Object>> layers = new ArrayList<>((List<Map<String, Object>>) view.get("layers"));
        layers.sort((a, b) -> Boolean.compare(Boolean.TRUE.equals(b.get("primary")), Boolean.TRUE.equals(a.get("primary"))));
        view.put("layers", layers);
        view.put("layer", layers.isEmpty() ? null : layers.get(0));
        List<Map<String, Object>> related = (List<Map<String, Object>>) view.get("related");
        Map<String, Map<String, Object>> found = search.getAll(related.stream()
                .map(t -> "term:" + t.get("slug")).toList());
        List<Map<String, Object>> resolved = new ArrayList<>();
        for (Map<String, Object> t : related) {
            Map<String, Object> r = new LinkedHashMap<>(t);
            Map<String, Object> target = found.get("term:" + t.get("slug"));
            r.put("exists", target != null);
            if (target != null) {
                r.put("title", target.get("title"));
                r.put("summary", target.get("summary"));
                r.put("href", "/api/v1/terms/" + t.get("slug"));
            }
            resolved.add(r);
        }
        view.put("related", resolved);
        // The index keeps the latest version of each read; earlier versions live in the compacted topic
        // only until compaction, so the history is the current entry, with what changed against the
        // version before it.
        Map<String, Object> current = new LinkedHashMap<>();
        current.put("version", doc.get("version"));
        current.put("updatedAt", doc.get("updatedAt"));
        current.put("previousVersion", doc.get("previousVersion"));
        current.put("changes", view.get("changes"));
        view.put("history", List.of(current));
        return view;
    }
}
