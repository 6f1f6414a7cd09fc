package io.chainfeed.api.term;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.reads.ReadView;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The glossary, one URL family: {@code GET /api/v1/terms?layer=} (every glossary term A
 * to Z from the reads index: slug, title, summary, layers with their {@code primary}
 * flag, at most {@value #MAX_TERMS}, sorted by title ignoring case; with
 * {@code layer=<id>} only the terms tagged with that layer) and {@code GET
 * /api/v1/terms/{slug}} (a term's page: definition, sections, layers primary first,
 * companies, related terms resolved to their own reads, sources and version history; 404
 * for an unknown slug).
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "terms", description = "The glossary of the AI supply chain")
@RequiredArgsConstructor
public class TermController {

    /** Most terms the index lists (the catalogue's bound). */
    static final int MAX_TERMS = 2000;

    /** A layer a term is tagged with. */
    record LayerRef(String id, String name, boolean primary) {
    }

    /** One glossary term in the index. */
    record TermEntry(String slug, String title, String summary, List<LayerRef> layers, String page) {
    }

    /** The terms, A to Z; {@code layer} the filter given, or null. */
    record TermIndex(String layer, int total, List<TermEntry> terms, String disclaimer) {
    }

    private final ElasticsearchClient client;

    private final ReadLookups reads;

    @GetMapping("/terms")
    @Operation(operationId = "listTerms", summary = "Every glossary term, A to Z",
            description = "Slug, title, summary and layers of every "
                    + "glossary term read; layer=<id> keeps the terms tagged with that layer.")
    TermIndex terms(@RequestParam(required = false) String layer) throws IOException {
        SearchResponse<ReadDocument> r = client.search(
                s -> s.index(ReadsIndex.ALIAS)
                    .query(q -> q.term(t -> t.field(ReadFields.KIND).value("term")))
                    .size(MAX_TERMS)
                    .source(src -> src.filter(f -> f.includes(ReadFields.SLUG, ReadFields.TITLE, ReadFields.SUMMARY,
                            ReadFields.LAYERS_ID, ReadFields.LAYERS_NAME, ReadFields.LAYERS_PRIMARY))),
                ReadDocument.class);
        List<TermEntry> out = new ArrayList<>();
        for (Hit<ReadDocument> hit : r.hits().hits()) {
            ReadDocument src = hit.source();
            if (src == null || src.slug() == null) {
                continue;
            }
            List<LayerRef> refs = new ArrayList<>();
            for (ReadDocument.LayerTag l : src.layers()) {
                refs.add(new LayerRef(l.id(), l.name() == null ? l.id() : l.name(), l.primary()));
            }
            refs.sort(Comparator.comparing((LayerRef l) -> !l.primary()).thenComparing(LayerRef::name));
            if (layer != null && refs.stream().noneMatch(l -> l.id().equals(layer))) {
                continue;
            }
            String slug = src.slug();
            out.add(new TermEntry(slug, src.title() == null ? slug : src.title(), src.summary(), refs,
                    "/terms/" + URLEncoder.encode(slug, StandardCharsets.UTF_8)));
        }
        out.sort(Comparator.comparing((TermEntry t) -> t.title().toLowerCase(Locale.ROOT))
            .thenComparing(TermEntry::slug));
        return new TermIndex(layer, out.size(), out, ReadViews.INDEX_DISCLAIMER);
    }

    @GetMapping("/terms/{slug}")
    @Operation(operationId = "getTerm", summary = "A glossary term's page",
            description = "Definition, sections, layers (primary first), "
                    + "companies, related terms resolved to their own reads, sources and version history.")
    TermPage term(@PathVariable String slug) throws IOException {
        ReadDocument doc = reads.get("term:" + slug)
            .orElseThrow(() -> new NotFoundException("no glossary term '" + slug + "'"));
        ReadView view = ReadViews.view(doc, false);
        List<ReadView.LayerTag> layers = new ArrayList<>(view.layers());
        layers.sort((a, b) -> Boolean.compare(b.primary(), a.primary()));
        Map<String, ReadDocument> found = reads.getAll(view.related().stream().map(t -> "term:" + t.slug()).toList());
        List<TermPage.RelatedTerm> resolved = new ArrayList<>();
        for (ReadView.TermTag t : view.related()) {
            ReadDocument target = found.get("term:" + t.slug());
            resolved.add(target == null
                    ? new TermPage.RelatedTerm(t.slug(), t.title(), t.summary(), t.confidence(), false, null)
                    : new TermPage.RelatedTerm(t.slug(), target.title(), target.summary(), t.confidence(), true,
                            "/api/v1/terms/" + t.slug()));
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
