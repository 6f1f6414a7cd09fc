package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.CompanyDirectory;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The site's indexes: every glossary term A to Z ({@code GET /api/v1/terms?layer=}) and
 * every company of the reference data by chain layer
 * ({@code GET /api/v1/companies?layer=}), behind the {@code /terms} and
 * {@code /companies} pages.
 *
 * <ul>
 * <li>Terms come from the reads index (the term reads: slug, title, summary, layers with
 * their {@code primary} flag), at most {@value #MAX_TERMS}, sorted by title ignoring
 * case; with {@code layer=<id>} only the terms tagged with that layer (primary or in
 * passing).</li>
 * <li>Companies come from the reference data ({@code chainfeed.reference.companies.v1})
 * and the layers from {@code chainfeed.reference.layers.v1}: per layer, by layer name,
 * the companies whose primary layer it is, then those that list it among their other
 * layers, each by name; a company appears under each of its layers. With
 * {@code layer=<id>}, that layer only.</li>
 * </ul>
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "search", description = "Search research notes")
@RequiredArgsConstructor
class IndexController {

    /** Most terms the index lists (the catalogue's bound). */
    static final int MAX_TERMS = 2000;
    static final String DISCLAIMER = "chainfeed is research, not advice: it summarises public sources and says "
            + "nothing about what to buy or sell.";

    /** A layer a term is tagged with. */
    record LayerRef(String id, String name, boolean primary) {
    }

    /** One glossary term in the index. */
    record TermEntry(String slug, String title, String summary, List<LayerRef> layers, String page) {
    }

    /** The terms, A to Z; {@code layer} the filter given, or null. */
    record TermIndex(String layer, int total, List<TermEntry> terms, String disclaimer) {
    }

    /**
     * A company under one layer: {@code primary} when it is the company's primary layer.
     */
    record CompanyEntry(String id, String name, String symbol, boolean primary, String page) {
    }

    /** One layer and its companies. */
    record LayerCompanies(String id, String name, String page, List<CompanyEntry> companies) {
    }

    /** Every layer with its companies; {@code companies} counts distinct companies. */
    record CompanyIndex(String layer, int companies, List<LayerCompanies> layers, String disclaimer) {
    }

    private final ElasticsearchClient client;

    private final ReferenceLayers layers;

    private final CompanyResolver companies;

    @GetMapping("/terms")
    @Operation(operationId = "listTerms", summary = "Every glossary term, A to Z",
            description = "Slug, title, summary and layers of every "
                    + "glossary term read; layer=<id> keeps the terms tagged with that layer.")
    @SuppressWarnings({ "rawtypes", "unchecked" })
    TermIndex terms(@RequestParam(required = false) String layer) throws IOException {
        SearchResponse<Map> r = client.search(
                s -> s.index(ReadsIndex.ALIAS)
                    .query(q -> q.term(t -> t.field("kind").value("term")))
                    .size(MAX_TERMS)
                    .source(src -> src.filter(
                            f -> f.includes("slug", "title", "summary", "layers.id", "layers.name", "layers.primary"))),
                Map.class);
        List<TermEntry> out = new ArrayList<>();
        for (Hit<Map> hit : r.hits().hits()) {
            Map<String, Object> src = hit.source();
            if (src == null || src.get("slug") == null) {
                continue;
            }
            List<LayerRef> refs = new ArrayList<>();
            for (Map<String, Object> l : (List<Map<String, Object>>) src.getOrDefault("layers", List.of())) {
                refs.add(new LayerRef(String.valueOf(l.get("id")),
                        l.get("name") == null ? String.valueOf(l.get("id")) : String.valueOf(l.get("name")),
                        Boolean.TRUE.equals(l.get("primary"))));
            }
            refs.sort(Comparator.comparing((LayerRef l) -> !l.primary()).thenComparing(LayerRef::name));
            if (layer != null && refs.stream().noneMatch(l -> l.id().equals(layer))) {
                continue;
            }
            String slug = String.valueOf(src.get("slug"));
            out.add(new TermEntry(slug, src.get("title") == null ? slug : String.valueOf(src.get("title")),
                    (String) src.get("summary"), refs, "/terms/" + URLEncoder.encode(slug, StandardCharsets.UTF_8)));
        }
        out.sort(Comparator.comparing((TermEntry t) -> t.title().toLowerCase(Locale.ROOT))
            .thenComparing(TermEntry::slug));
        return new TermIndex(layer, out.size(), out, DISCLAIMER);
    }

    @GetMapping("/companies")
    @Operation(operationId = "listCompanies", summary = "Every company by chain layer",
            description = "Per layer of the reference data, the "
                    + "companies whose primary layer it is, then those that list it among their other layers; "
                    + "layer=<id> keeps that layer only.")
    CompanyIndex companies(@RequestParam(required = false) String layer) {
        CompanyDirectory dir = companies.directory();
        Map<String, List<CompanyEntry>> byLayer = new HashMap<>();
        List<Company> all = new ArrayList<>(dir.companies());
        all.sort(Comparator.comparing((Company c) -> c.getName().toLowerCase(Locale.ROOT))
            .thenComparing(Company::getId));
        int counted = 0;
        for (Company c : all) {
            String symbol = CompanyDirectory.canonicalSymbol(c);
            String page = "/companies/"
                    + URLEncoder.encode(symbol == null ? c.getId() : symbol, StandardCharsets.UTF_8);
            boolean listed = false;
            if (c.getPrimaryLayer() != null && (layer == null || layer.equals(c.getPrimaryLayer()))) {
                byLayer.computeIfAbsent(c.getPrimaryLayer(), k -> new ArrayList<>())
                    .add(new CompanyEntry(c.getId(), c.getName(), symbol, true, page));
                listed = true;
            }
            for (String other : c.getLayers()) {
                if (other.equals(c.getPrimaryLayer()) || (layer != null && !layer.equals(other))) {
                    continue;
                }
                byLayer.computeIfAbsent(other, k -> new ArrayList<>())
                    .add(new CompanyEntry(c.getId(), c.getName(), symbol, false, page));
                listed = true;
            }
            counted += listed ? 1 : 0;
        }
        Map<String, String> names = new HashMap<>();
        for (ChainLayer l : layers.all()) {
            names.put(l.getId(), l.getName());
        }
        List<LayerCompanies> out = new ArrayList<>();
        for (Map.Entry<String, List<CompanyEntry>> e : byLayer.entrySet()) {
            List<CompanyEntry> list = new ArrayList<>(e.getValue());
            list.sort(Comparator.comparing((CompanyEntry c) -> !c.primary()));
            out.add(new LayerCompanies(e.getKey(), names.getOrDefault(e.getKey(), e.getKey()),
                    "/layers/" + URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8), list));
        }
        for (ChainLayer l : layers.all()) {
            if (!byLayer.containsKey(l.getId()) && (layer == null || layer.equals(l.getId()))) {
                out.add(new LayerCompanies(l.getId(), l.getName(),
                        "/layers/" + URLEncoder.encode(l.getId(), StandardCharsets.UTF_8), List.of()));
            }
        }
        out.sort(Comparator.comparing((LayerCompanies l) -> l.name().toLowerCase(Locale.ROOT))
            .thenComparing(LayerCompanies::id));
        return new CompanyIndex(layer, counted, out, DISCLAIMER);
    }

}
