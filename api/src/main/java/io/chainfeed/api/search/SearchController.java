package io.chainfeed.api.search;

import io.chainfeed.api.chain.ChainStates;
import io.chainfeed.api.chain.ChainViews;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.avro.Company;
import io.chainfeed.platform.web.TimeParameters;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.schemas.ReadDocument;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/search}: reads matching the text, best first, each with highlighted
 * snippets, layers, companies (symbol, name, MIC), related terms, sources and the
 * disclaimer; facets with counts; a cursor for the next page. Tag evidence only with
 * {@code evidence=true}. Company filters, facets and query words go through
 * {@link CompanyResolver}; a fall-back to some of the words says so in {@code notice}.
 */
@RestController
@RequestMapping("/api/v1")
@Validated
@Tag(name = "search", description = "Search research notes")
@RequiredArgsConstructor
class SearchController {

    /** Longest query accepted, in characters. */
    static final int MAX_QUERY_CHARS = 1000;

    /** Largest page. */
    static final int MAX_PAGE_SIZE = 50;

    /** Most layers whose status the answer's layer section shows. */
    static final int MAX_SECTION_LAYERS = 2;

    private final ReadSearch search;

    private final CompanyResolver companies;

    private final QueryAnalyser analyser;

    private final TopResults tops;

    private final ChainStates chain;

    @GetMapping("/search")
    @Operation(summary = "Search reads",
            description = """
                    Any text is accepted. "Quoted phrases" match as phrases, -word or -"a phrase" excludes, \
                    `a OR b` (or `a | b`) matches either; every other piece is required, falling back to reads \
                    with some of them when no read has all (`mode`: `all` or `any`, with a `notice` saying so): reads \
                    with more of the pieces first, and never on a stop word such as "out" alone. A ticker of any \
                    listing, a company id, name or alias also finds the reads tagged with that company. Lower-case words tolerate typos; upper-case \
                    pieces (tickers such as 2345.TW, acronyms) match exactly. English stemming applies. A glossary \
                    term's own read ranks first for its title, aliases and acronym expansions, and each name of a term \
                    also finds its other names. Question words and filler ("who makes", "what is") need not match; \
                    constraint words (shortage, sold out, lead times, bottleneck, capacity, glut) are met by signals \
                    reporting that direction. On the first page, `top` is the term, layer or company the query names, and \
                    `sections` the term that explains it, its layer's status now and the newest signals, each ranked on its own. \
                    Reposts of one story are one result, the others in `alsoFrom` (`repostCount` in all). \
                    Pages: pass `nextCursor` back as `cursor`, with the same q and filters.""")
    SearchResults search(@RequestParam @NotBlank @Size(max = MAX_QUERY_CHARS,
            message = "must be at most {max} UTF-16 code units (characters outside the BMP, such as emoji, count as two)") String q,
            @RequestParam(defaultValue = "10") @Min(1) @Max(MAX_PAGE_SIZE) int size,
            @Parameter(description = "layer ids, repeatable (OR)") @RequestParam(required = false) List<String> layer,
            @Parameter(description = "companies, repeatable (OR): any listing's ticker (TSM, 2330.TW), a "
                    + "MIC-qualified symbol (XNYS:TSM), the company id, name or alias, any case; an unknown one is a "
                    + "400 problem with close matches") @RequestParam(required = false) List<String> company,
            @Parameter(description = "only reads where the company is a primary subject") @RequestParam(
                    defaultValue = "false") boolean primary,
            @Parameter(description = "related-term slugs, repeatable (OR)") @RequestParam(
                    required = false) List<String> term,
            @Parameter(description = "term, signal or state, repeatable") @RequestParam(
                    required = false) List<String> kind,
            @Parameter(
                    description = "updated at or after: yyyy-MM-dd or an ISO-8601 instant, 1970-01-01 to 9999-12-31") @RequestParam(
                            required = false) String from,
            @Parameter(
                    description = "updated before: yyyy-MM-dd (exclusive) or an ISO-8601 instant, 1970-01-01 to 9999-12-31") @RequestParam(
                            required = false) String to,
            @Parameter(description = "nextCursor of the previous page") @RequestParam(
                    required = false) @Size(max = 4096) String cursor,
            @RequestParam(defaultValue = "false") boolean evidence,
            @Parameter(description = "how the first page ranks: hybrid (the words and the meaning, fused; the "
                    + "default) or lexical (the words alone)") @RequestParam(defaultValue = "hybrid") String ranking)
            throws IOException {
        ReadSearch.Ranking rankBy = switch (ranking.toLowerCase(Locale.ROOT)) {
            case "hybrid" -> ReadSearch.Ranking.HYBRID;
            case "lexical" -> ReadSearch.Ranking.LEXICAL;
            default -> throw new BadRequestException("invalid-ranking", "ranking is hybrid or lexical");
        };
        ReadSearch.Filters filters = new ReadSearch.Filters(list(layer), companySymbols(list(company)), primary,
                list(term), list(kind), instant("from", from), instant("to", to));
        AnalysedQuery query = analyser.analyse(q);
        ReadSearch.Page page = search.search(query, filters, size, cursor, evidence, rankBy);
        List<Company> named = query.companies();
        SearchCatalog.TermNames namedTerm = query.wholeTerm();
        boolean any = page.mode() == SearchMode.ANY;
        Optional<TopResults.Entity> top = cursor == null ? tops.find(query) : Optional.empty();
        List<SearchResults.Result> results = page.matches()
            .stream()
            .map(m -> new SearchResults.Result(ReadViews.view(m.source(), evidence), m.score(),
                    snippets(m, named, namedTerm == null ? null : namedTerm.slug()), m.bestSection(),
                    m.reposts() > 0 ? alsoFrom(m.alsoFrom()) : null, m.reposts() > 0 ? m.reposts() : null))
            .toList();
        return new SearchResults(q, page.total(), page.mode().text(),
                any ? FallBack.notice(query, page.withAll()) : null, any ? Math.max(0, page.withAll()) : null,
                top.orElse(null), page.sections() == null ? null : sections(page.sections(), top.orElse(null)), results,
                mergeCompanyFacets(page.facets()), page.nextCursor(), page.tookMs());
    }

    /**
     * The display symbols of every listing of the named companies, resolved by
     * {@link CompanyResolver}: {@code TSM} and {@code 2330.TW} filter the same reads.
     * @throws io.chainfeed.api.reference.UnknownCompanyException for a company the
     * reference data does not know (once it is loaded)
     */
    private List<String> companySymbols(List<String> written) {
        Set<String> out = new LinkedHashSet<>();
        for (String c : written) {
            Optional<Company> found = companies.find(c);
            if (found.isPresent()) {
                out.addAll(CompanyDirectory.displaySymbols(found.get()));
                out.add(CompanyDirectory.canonicalSymbol(found.get()));
            }
            else if (companies.ready()) {
                companies.require(c);
            }
            else {
                out.add(c);
            }
        }
        return List.copyOf(out);
    }

    /**
     * Snippets that say why: the definition first on the read of the term the query
     * names, the evidence of a company the query names.
     */
    private static List<String> snippets(ReadSearch.Match m, List<Company> named, String namedTermSlug) {
        boolean ownRead = namedTermSlug != null && "term".equals(m.source().kind())
                && namedTermSlug.equals(m.source().slug());
        List<String> snippets = ownRead ? Snippets.definitionFirst(m.source(), m.snippets()) : m.snippets();
        for (Company c : named) {
            String evidence = Snippets.companyEvidence(m.source(), c.getId());
            if (evidence != null) {
                if (ownRead && !snippets.isEmpty()) {
                    List<String> rest = Snippets.lead(snippets.subList(1, snippets.size()), evidence);
                    List<String> out = new ArrayList<>();
                    out.add(snippets.get(0));
                    out.addAll(rest);
                    return out;
                }
                return Snippets.lead(snippets, evidence);
            }
        }
        String summary = m.source().summary();
        if (snippets.isEmpty() && summary != null && !summary.isBlank()) {
            // Matched on a tag alone (a company the source declares): the read's own
            // summary says what it is.
            return List.of(org.springframework.web.util.HtmlUtils.htmlEscape(summary.strip()));
        }
        return snippets;
    }

    /**
     * The other reads of a result's story (reposts): each one's id, first source's name
     * and URL, and observedAt, newest first.
     */
    static List<SearchResults.AlsoFrom> alsoFrom(List<ReadDocument> reposts) {
        List<SearchResults.AlsoFrom> out = new ArrayList<>();
        for (ReadDocument r : reposts) {
            ReadDocument.Source first = r.sources().isEmpty() ? null : r.sources().get(0);
            out.add(new SearchResults.AlsoFrom(r.id(), first == null ? null : first.name(),
                    first == null ? null : first.url(), r.observedAt()));
        }
        return out;
    }

    /**
     * The answer's sections, each ranked on its own and marked by {@code kind}:
     * {@code term} (the term reads that explain it), {@code layer} (the status now of the
     * layer the query names, else of the primary layers of the first term or signal in
     * the sections) and {@code signal} (the newest signals about it, one per story).
     * Empty sections are left out.
     */
    private List<SearchResults.AnswerSection> sections(ReadSearch.Sections found, TopResults.Entity top) {
        List<SearchResults.AnswerSection> out = new ArrayList<>();
        List<SearchResults.TermItem> terms = found.terms()
            .stream()
            .map(d -> new SearchResults.TermItem(d.id(), d.title(), d.summary(), "/terms/" + d.slug()))
            .toList();
        section(out, "term", "What it is", terms);
        Set<String> layerIds = new LinkedHashSet<>();
        if (top != null && "layer".equals(top.kind())) {
            layerIds.add(top.key());
        }
        else {
            List<ReadDocument> from = !found.terms().isEmpty() ? found.terms() : found.signals();
            if (!from.isEmpty()) {
                for (ReadDocument.LayerTag l : from.get(0).layers()) {
                    if (l.primary() && layerIds.size() < MAX_SECTION_LAYERS) {
                        layerIds.add(l.id());
                    }
                }
            }
        }
        List<SearchResults.LayerItem> layers = new ArrayList<>();
        for (String id : layerIds) {
            chain.layer(id, null)
                .ifPresent(s -> layers.add(new SearchResults.LayerItem(ChainViews.brief(s), "/layers/" + id)));
        }
        section(out, "layer", "Status now", layers);
        List<SearchResults.SignalItem> signals = found.signals().stream().map(d -> {
            ReadDocument.Signal sig = d.signal();
            return new SearchResults.SignalItem(d.id(), d.title(), d.observedAt(), sig == null ? null : sig.direction(),
                    sig == null ? null : sig.magnitude(),
                    d.sources().isEmpty() ? null : ReadViews.source(d.sources().get(0)));
        }).toList();
        section(out, "signal", "Newest signals", signals);
        return out;
    }

    private static void section(List<SearchResults.AnswerSection> out, String kind, String title,
            List<? extends SearchResults.SectionItem> items) {
        if (!items.isEmpty()) {
            out.add(new SearchResults.AnswerSection(kind, title, items));
        }
    }

    /**
     * One company facet value per company, whichever listing its reads were tagged with.
     */
    private Map<String, List<ReadSearch.FacetValue>> mergeCompanyFacets(
            Map<String, List<ReadSearch.FacetValue>> facets) {
        List<ReadSearch.FacetValue> values = facets.get("company");
        if (values == null || values.size() < 2) {
            return facets;
        }
        Map<String, ReadSearch.FacetValue> merged = new LinkedHashMap<>();
        for (ReadSearch.FacetValue v : values) {
            Optional<Company> c = companies.find(v.value());
            String key = c.map(CompanyDirectory::canonicalSymbol).orElse(v.value());
            String label = c.map(Company::getName).orElse(v.label());
            merged.merge(key, new ReadSearch.FacetValue(key, label, v.count()),
                    (a, b) -> new ReadSearch.FacetValue(key, label, a.count() + b.count()));
        }
        List<ReadSearch.FacetValue> list = new ArrayList<>(merged.values());
        list.sort(Comparator.comparingLong(ReadSearch.FacetValue::count).reversed());
        Map<String, List<ReadSearch.FacetValue>> out = new LinkedHashMap<>(facets);
        out.put("company", list);
        return out;
    }

    private static List<String> list(List<String> values) {
        return values == null ? List.of()
                : values.stream().map(String::strip).filter(v -> !v.isEmpty()).distinct().toList();
    }

    static Instant instant(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Instant t;
        try {
            t = value.length() == 10 ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : Instant.parse(value);
        }
        catch (DateTimeParseException e) {
            throw new BadRequestException("invalid-parameter",
                    name + ": not a date (yyyy-MM-dd) or an ISO-8601 instant: " + value);
        }
        try {
            return TimeParameters.inRange(name, t);
        }
        catch (IllegalArgumentException e) {
            throw new BadRequestException("invalid-parameter", e.getMessage());
        }
    }

}
