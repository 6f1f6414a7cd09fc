package io.chainfeed.api.search;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.problem.NotFoundException;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.api.reads.ReadViews;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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
 * Autocomplete ({@code GET /api/v1/suggest}), a glossary term's page ({@code GET
 * /api/v1/terms/{slug}}), the chain layers that reads are tagged with
 * ({@code GET /api/v1/layers}) and one layer's reads, split into those whose primary
 * layer it is and those that touch it in passing ({@code GET /api/v1/layers/{id}/reads},
 * {@link LayerReads}).
 */
@RestController
@RequestMapping("/api/v1")
@Validated
@Tag(name = "search", description = "Search research notes")
class CatalogController {

    private final SearchCatalog catalog;

    private final ReadLookups reads;

    private final ReferenceLayers referenceLayers;

    private final Suggester suggester;

    private final CompanyResolver companies;

    private final LayerReads layerReads;

    CatalogController(SearchCatalog catalog, ReadLookups reads, ReferenceLayers referenceLayers, Suggester suggester,
            CompanyResolver companies, LayerReads layerReads) {
        this.layerReads = layerReads;
        this.catalog = catalog;
        this.reads = reads;
        this.referenceLayers = referenceLayers;
        this.suggester = suggester;
        this.companies = companies;
    }

    @GetMapping("/suggest")
    @Operation(summary = "Autocomplete", description = "Every company of the reference data (name, aliases, id, every "
            + "listing's ticker and MIC-qualified symbol), glossary term (title, aliases) and chain layer (id, name), "
            + "whether or not a read mentions it yet. Ranked: an exact ticker first, then an exact name, then names "
            + "that start with the text, then names with a later word that does, then names within one or two edits. "
            + "`suggestions` holds the best `size` of all kinds together; `terms`, `companies` and `layers` the best "
            + "`size` of each.")
    Map<String, Object> suggest(@RequestParam @NotBlank @Size(max = 100) String q,
            @RequestParam(defaultValue = "5") @Min(1) @Max(10) int size) throws IOException {
        List<Suggester.Suggestion> all = suggester.suggest(q, 500);
        Map<String, Long> companyReads = new HashMap<>();
        for (SearchCatalog.CompanyName c : catalog.companies()) {
            companies.find(c.symbol()).ifPresent(co -> companyReads.merge(co.getId(), c.reads(), Long::sum));
        }
        Map<String, Long> layerReads = new HashMap<>();
        for (SearchCatalog.LayerName l : catalog.layers()) {
            layerReads.put(l.id(), l.reads());
        }
        List<AnySuggestion> merged = new ArrayList<>();
        List<TermSuggestion> terms = new ArrayList<>();
        List<CompanySuggestion> companyList = new ArrayList<>();
        List<LayerSuggestion> layers = new ArrayList<>();
        for (Suggester.Suggestion s : all) {
            switch (s.kind()) {
                case COMPANY -> add(companyList, new CompanySuggestion(s.symbol(), s.id(), s.label(), s.matched(),
                        companyReads.getOrDefault(s.id(), 0L), "/api/v1/companies/" + s.symbol()), size);
                case TERM ->
                    add(terms, new TermSuggestion(s.id(), s.label(), s.matched(), "/api/v1/terms/" + s.id()), size);
                case LAYER -> add(layers,
                        new LayerSuggestion(s.id(), s.label(), s.matched(), layerReads.getOrDefault(s.id(), 0L)), size);
            }
            add(merged, new AnySuggestion(s.kind().name().toLowerCase(java.util.Locale.ROOT), s.id(), s.label(),
                    s.symbol(), s.matched(), s.href()), size);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("query", q);
        out.put("suggestions", merged);
        out.put("terms", terms);
        out.put("companies", companyList);
        out.put("layers", layers);
        return out;
    }

    private static <T> void add(List<T> list, T suggestion, int size) {
        if (list.size() < size) {
            list.add(suggestion);
        }
    }

    /**
     * A company suggestion as {@code companies} lists it; {@code name} is the label,
     * {@code reads} its read count.
     */
    record CompanySuggestion(String symbol, String id, String name, String matched, long reads, String href) {
    }

    /** A glossary term suggestion as {@code terms} lists it. */
    record TermSuggestion(String slug, String title, String matched, String href) {
    }

    /** A chain layer suggestion as {@code layers} lists it. */
    record LayerSuggestion(String id, String name, String matched, long reads) {
    }

    /**
     * A suggestion of any kind as {@code suggestions} lists it; {@code page} is the web
     * page's path.
     */
    record AnySuggestion(String kind, String id, String label, String symbol, String matched, String page) {
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

    @GetMapping("/layers/{id}/reads")
    @Operation(summary = "A chain layer's reads", description = "Two lists, newest first: `primary`, the reads whose "
            + "primary layer this is (the source declares it, or the title names it), and `passing`, the other reads "
            + "tagged with it (through a company or a term on the layer, or a passing mention). Each has the `total` "
            + "in the index and the first `size` `results`, shaped as search results without snippets. A layer that "
            + "neither the reference data nor any read knows is a 404 problem.")
    Map<String, Object> layerReads(@PathVariable String id,
            @Parameter(description = "term or signal, repeatable") @RequestParam(required = false) List<String> kind,
            @RequestParam(defaultValue = "20") @Min(1) @Max(50) int size) throws IOException {
        LayerReads.Split split = layerReads.reads(id, kind == null ? List.of() : kind, size);
        if (split.primary().total() == 0 && split.passing().total() == 0 && referenceLayers.layer(id).isEmpty()) {
            throw new NotFoundException("no chain layer '" + id + "'");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("layer", id);
        out.put("primary", slice(split.primary()));
        out.put("passing", slice(split.passing()));
        return out;
    }

    private static Map<String, Object> slice(LayerReads.Slice slice) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("total", slice.total());
        m.put("results", slice.sources().stream().map(doc -> ReadViews.view(doc, false)).toList());
        return m;
    }

    @GetMapping("/terms/{slug}")
    @Operation(summary = "A glossary term's page",
            description = "Definition, sections, layers (primary first), "
                    + "companies, related terms resolved to their own reads, sources and version history.")
    @SuppressWarnings("unchecked")
    Map<String, Object> term(@PathVariable String slug) throws IOException {
        Map<String, Object> doc = reads.get("term:" + slug)
            .orElseThrow(() -> new NotFoundException("no glossary term '" + slug + "'"));
        Map<String, Object> view = ReadViews.view(doc, false);
        List<Map<String, Object>> layers = new ArrayList<>((List<Map<String, Object>>) view.get("layers"));
        layers.sort((a, b) -> Boolean.compare(Boolean.TRUE.equals(b.get("primary")),
                Boolean.TRUE.equals(a.get("primary"))));
        view.put("layers", layers);
        view.put("layer", layers.isEmpty() ? null : layers.get(0));
        List<Map<String, Object>> related = (List<Map<String, Object>>) view.get("related");
        Map<String, Map<String, Object>> found = reads
            .getAll(related.stream().map(t -> "term:" + t.get("slug")).toList());
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
        // The index keeps the latest version of each read; earlier versions live in the
        // compacted topic
        // only until compaction, so the history is the current entry, with what changed
        // against the
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
