package io.chainfeed.api.search;

import io.chainfeed.api.reads.ReadLookups;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.api.reads.ReadView;
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
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
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
@RequiredArgsConstructor
class CatalogController {

    private final SearchCatalog catalog;

    private final ReadLookups reads;

    private final ReferenceLayers referenceLayers;

    private final Suggester suggester;

    private final CompanyResolver companies;

    private final LayerReads layerReads;

    /** C0 control characters but tab, line feed and carriage return. */
    private static final Pattern CONTROL_CHARACTERS = Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]");

    @GetMapping("/suggest")
    @Operation(operationId = "suggest", summary = "Autocomplete",
            description = "Every company of the reference data (name, aliases, id, every "
                    + "listing's ticker and MIC-qualified symbol), glossary term (title, aliases) and chain layer (id, name), "
                    + "whether or not a read mentions it yet. Ranked: an exact ticker first, then an exact name, then names "
                    + "that start with the text, then names with a later word that does, then names within one or two edits. "
                    + "`suggestions` holds the best `size` of all kinds together; `terms`, `companies` and `layers` the best "
                    + "`size` of each.")
    Suggestions suggest(@RequestParam @NotBlank @Size(max = 100) String q,
            @RequestParam(defaultValue = "5") @Min(1) @Max(10) int size) throws IOException {
        // control characters carry no meaning in a name and are not echoed back
        q = CONTROL_CHARACTERS.matcher(q).replaceAll("");
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
        return new Suggestions(q, merged, terms, companyList, layers);
    }

    /**
     * {@code GET /api/v1/suggest}: suggestions from the reference data.
     *
     * @param query the text as sent, without its control characters
     * @param suggestions the best {@code size} of every kind together
     * @param terms the best {@code size} glossary terms
     * @param companies the best {@code size} companies
     * @param layers the best {@code size} chain layers
     */
    record Suggestions(String query, List<AnySuggestion> suggestions, List<TermSuggestion> terms,
            List<CompanySuggestion> companies, List<LayerSuggestion> layers) {
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
    @Operation(operationId = "listLayers", summary = "Chain layers",
            description = "Every chain layer of the reference data (and any other layer "
                    + "reads are tagged with), with its summary, its upstream edges (ids of the layers that supply it) and "
                    + "read counts; by name.")
    Layers layers() throws IOException {
        Map<String, LayerEntry> byId = new LinkedHashMap<>();
        for (ChainLayer l : referenceLayers.all()) {
            byId.put(l.getId(),
                    new LayerEntry(l.getId(), l.getName(), l.getSummary(), List.copyOf(l.getUpstream()), 0L));
        }
        for (SearchCatalog.LayerName l : catalog.layers()) {
            LayerEntry known = byId.get(l.id());
            byId.put(l.id(), known == null ? new LayerEntry(l.id(), l.name(), "", List.of(), l.reads())
                    : new LayerEntry(known.id(), known.name(), known.summary(), known.upstream(), l.reads()));
        }
        List<LayerEntry> layers = new ArrayList<>(byId.values());
        layers.sort(Comparator.comparing(LayerEntry::name, String.CASE_INSENSITIVE_ORDER));
        return new Layers(layers);
    }

    /**
     * {@code GET /api/v1/layers}.
     *
     * @param layers every chain layer, by name
     */
    record Layers(List<LayerEntry> layers) {
    }

    /**
     * A chain layer of the reference data (or one reads are tagged with).
     *
     * @param id the layer's id
     * @param name its name
     * @param summary what it is; empty for a layer only reads know
     * @param upstream ids of the layers that supply it
     * @param reads how many reads are tagged with it
     */
    record LayerEntry(String id, String name, String summary, List<String> upstream, long reads) {
    }

    @GetMapping("/layers/{id}/reads")
    @Operation(operationId = "getLayerReads", summary = "A chain layer's reads",
            description = "Two lists, newest first: `primary`, the reads whose "
                    + "primary layer this is (the source declares it, or the title names it), and `passing`, the other reads "
                    + "tagged with it (through a company or a term on the layer, or a passing mention). Each has the `total` "
                    + "in the index and the first `size` `results`, shaped as search results without snippets. A layer that "
                    + "neither the reference data nor any read knows is a 404 problem.")
    LayerReadsAnswer layerReads(@PathVariable String id,
            @Parameter(description = "term or signal, repeatable") @RequestParam(required = false) List<String> kind,
            @RequestParam(defaultValue = "20") @Min(1) @Max(50) int size) throws IOException {
        LayerReads.Split split = layerReads.reads(id, kind == null ? List.of() : kind, size);
        if (split.primary().total() == 0 && split.passing().total() == 0 && referenceLayers.layer(id).isEmpty()) {
            throw new NotFoundException("no chain layer '" + id + "'");
        }
        return new LayerReadsAnswer(id, slice(split.primary()), slice(split.passing()));
    }

    /**
     * {@code GET /api/v1/layers/{id}/reads}.
     *
     * @param layer the layer's id
     * @param primary reads whose primary layer it is, newest first
     * @param passing the other reads tagged with it, newest first
     */
    record LayerReadsAnswer(String layer, ReadSlice primary, ReadSlice passing) {
    }

    /**
     * One list of a layer's reads.
     *
     * @param total how many the index has
     * @param results the first {@code size}, without tag evidence
     */
    record ReadSlice(long total, List<ReadView> results) {
    }

    private static ReadSlice slice(LayerReads.Slice slice) {
        return new ReadSlice(slice.total(), slice.sources().stream().map(doc -> ReadViews.view(doc, false)).toList());
    }

    @GetMapping("/terms/{slug}")
    @Operation(operationId = "getTerm", summary = "A glossary term's page",
            description = "Definition, sections, layers (primary first), "
                    + "companies, related terms resolved to their own reads, sources and version history.")
    TermPage term(@PathVariable String slug) throws IOException {
        Map<String, Object> doc = reads.get("term:" + slug)
            .orElseThrow(() -> new NotFoundException("no glossary term '" + slug + "'"));
        ReadView view = ReadViews.view(doc, false);
        List<ReadView.LayerTag> layers = new ArrayList<>(view.layers());
        layers.sort((a, b) -> Boolean.compare(b.primary(), a.primary()));
        Map<String, Map<String, Object>> found = reads
            .getAll(view.related().stream().map(t -> "term:" + t.slug()).toList());
        List<TermPage.RelatedTerm> resolved = new ArrayList<>();
        for (ReadView.TermTag t : view.related()) {
            Map<String, Object> target = found.get("term:" + t.slug());
            resolved.add(target == null
                    ? new TermPage.RelatedTerm(t.slug(), t.title(), t.summary(), t.confidence(), false, null)
                    : new TermPage.RelatedTerm(t.slug(), (String) target.get("title"), (String) target.get("summary"),
                            t.confidence(), true, "/api/v1/terms/" + t.slug()));
        }
        // The index keeps the latest version of each read; earlier versions live in the
        // compacted topic only until compaction, so the history is the current entry,
        // with what changed against the version before it.
        TermPage.Version current = new TermPage.Version(view.version(), view.updatedAt(), view.previousVersion(),
                view.changes());
        return new TermPage(view.id(), view.kind(), view.slug(), view.title(), view.aliases(), view.summary(),
                view.sections(), layers, view.companies(), resolved, view.terms(), view.sources(), view.disclaimer(),
                view.version(), view.updatedAt(), view.previousVersion(), view.publishedAt(), view.observedAt(),
                view.changes(), layers.isEmpty() ? null : layers.get(0), List.of(current));
    }

}
