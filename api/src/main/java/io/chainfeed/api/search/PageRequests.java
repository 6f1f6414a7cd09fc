package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.aggregations.CalendarInterval;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.search.Highlight;
import co.elastic.clients.elasticsearch.core.search.HighlighterEncoder;
import co.elastic.clients.elasticsearch.core.search.HighlighterOrder;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadFields;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Elasticsearch request of one page of {@link ReadSearch}, and which source keys it
 * leaves out. {@code api/load/search-body.json} is this request for a first page
 * (SearchLoadBodyTest).
 */
final class PageRequests {

    /**
     * Keys of a stored read that only filters and facets use (flat copies of the tags):
     * left out of search answers, which show the tags themselves.
     */
    static final List<String> INDEX_ONLY = List.of(ReadFields.LAYER_IDS, ReadFields.PRIMARY_LAYER_IDS,
            ReadFields.LAYER_REFS, ReadFields.COMPANY_SYMBOLS, ReadFields.PRIMARY_COMPANY_SYMBOLS,
            ReadFields.COMPANY_REFS, ReadFields.TERM_SLUGS, ReadFields.TERM_REFS, ReadFields.EMBEDDING,
            ReadFields.EMBEDDING_MODEL, ReadFields.EMBEDDED_VERSION);

    /**
     * What a search answer without evidence leaves out: the index-only keys, layer
     * evidence, and of term evidence everything but its {@code rule} (a read's related
     * terms are the term tags whose evidence is the declared-related rule: ReadViews).
     * Company evidence stays: the snippet of a read found through a company quotes it
     * (Snippets); {@link #WITHOUT_ANY_EVIDENCE} leaves it out when no company is named.
     */
    static final List<String> WITHOUT_EVIDENCE = Stream
        .concat(INDEX_ONLY.stream(), Stream.of(ReadFields.LAYERS_EVIDENCE, ReadFields.TERMS_EVIDENCE_FIELD,
                ReadFields.TERMS_EVIDENCE_START, ReadFields.TERMS_EVIDENCE_END, ReadFields.TERMS_EVIDENCE_TEXT))
        .toList();

    /**
     * {@link #WITHOUT_EVIDENCE} and company evidence too: for a query that names no
     * company, whose snippets never quote company evidence (about a third of a stored
     * read's bytes).
     */
    static final List<String> WITHOUT_ANY_EVIDENCE = Stream
        .concat(WITHOUT_EVIDENCE.stream(), Stream.of(ReadFields.COMPANIES_EVIDENCE))
        .toList();

    /** The name of a story's newest reads in {@link #reposts}. */
    static final String REPOSTS = "reposts";

    /** The name of the per-story buckets of {@link #reposts}. */
    static final String STORIES = "stories";

    /** How many reads of a story a result lists (the result itself among them). */
    static final int MAX_REPOSTS = 6;

    /**
     * Elasticsearch's {@code index.max_result_window}: collapsed pages page by offset, up
     * to this many results.
     */
    static final int MAX_OFFSET = 10_000;

    private PageRequests() {
    }

    /**
     * The search request of one page: the query ({@code highlight} marks the words of the
     * snippets: {@link SearchQuery#highlight}), page size, exact total, sort by score,
     * then newest {@code updatedAt} (only when collapsing: old cursors continue in the
     * order they were issued in), then id, highlight and the five facet aggregations; in
     * the point in time if one is given (else on the alias {@value ReadsIndex#ALIAS});
     * collapsed by {@code story} (the reposts: {@link #reposts}), from the cursor's
     * offset if one is given (a cursor without one continues after its sort values,
     * uncollapsed); sources without the source keys {@code excludes} ({@link #excludes})
     * left out.
     */
    static SearchRequest request(Query query, Query highlight, int size, String pit, Cursor after,
            List<String> excludes) {
        boolean collapse = after == null || after.offset() >= 0;
        Query matching = after == null || after.shown().isEmpty() ? query : withoutStories(query, after.shown());
        return SearchRequest.of(s -> {
            if (pit != null) {
                s.pit(p -> p.id(pit).keepAlive(t -> t.time(ReadSearch.KEEP_ALIVE)));
            }
            else {
                s.index(ReadsIndex.ALIAS);
            }
            s.query(matching)
                .source(src -> src.filter(f -> f.excludes(excludes)))
                .size(size)
                .trackTotalHits(t -> t.enabled(true))
                .sort(o -> o.score(sc -> sc.order(SortOrder.Desc)));
            if (collapse) {
                // Among equally relevant reads (a company's tagged reads often are), the
                // newest first.
                s.sort(o -> o.field(f -> f.field(ReadFields.UPDATED_AT).order(SortOrder.Desc)));
            }
            s.sort(o -> o.field(f -> f.field(ReadFields.ID).order(SortOrder.Asc)))
                .highlight(h -> highlight(h, highlight));
            if (collapse) {
                // One result per story; the reposts of a signal's story are asked
                // afterwards, in one search for the whole page (reposts(...)), not as
                // inner hits: Elasticsearch runs inner hits as one more search per
                // collapsed hit, each rebuilding the query's fuzzy automata.
                s.collapse(c -> c.field(ReadFields.STORY));
                if (after != null) {
                    s.from(after.offset());
                }
            }
            else if (after != null) {
                // A cursor from before collapsing: continued after its last hit, as it
                // was issued.
                s.searchAfter(FieldValue.of(after.score()), FieldValue.of(after.id()));
            }
            s.aggregations("layer", a -> a.terms(t -> t.field(ReadFields.LAYER_REFS).size(50)))
                .aggregations("company", a -> a.terms(t -> t.field(ReadFields.COMPANY_REFS).size(50)))
                .aggregations("term", a -> a.terms(t -> t.field(ReadFields.TERM_REFS).size(50)))
                .aggregations("kind", a -> a.terms(t -> t.field(ReadFields.KIND).size(10)))
                .aggregations("updated",
                        a -> a.dateHistogram(d -> d.field(ReadFields.UPDATED_AT)
                            .calendarInterval(CalendarInterval.Month)
                            .minDocCount(1)
                            .format("yyyy-MM")));
            return s;
        });
    }

    /**
     * The searches of a hybrid first page: {@link #firstPage}, then the vector search
     * ({@link #vectorRequest}). {@code api/load/search-load.sh} sends Elasticsearch the
     * same searches ({@code SearchLoadBodyTest}).
     * @param vector the query's vector
     * @param window how many nearest reads are asked for
     * @return four searches
     */
    static List<SearchRequest> hybridFirstPage(SearchQuery queries, AnalysedQuery query, ReadSearch.Filters filters,
            int size, List<String> excludes, float[] vector, int window) {
        List<SearchRequest> requests = new ArrayList<>(firstPage(queries, query, filters, size, excludes));
        requests.add(vectorRequest(vector, SearchQuery.filtersOnly(filters), window));
        return requests;
    }

    /**
     * The searches of a first page in full-word mode, as {@link ReadSearch} sends them in
     * one multi-search: the page ({@link PageRequests#request}), then the two sections'
     * ({@link PageSections#sectionRequests}). {@code api/load/search-load.sh} sends
     * Elasticsearch the same searches, as {@code SearchLoadBodyTest} checks.
     * @param queries the query builder
     * @param query the analysed text, not empty
     * @param filters the filters
     * @param size the page size
     * @param excludes the source keys left out of the page's hits
     * @return three searches
     */
    static List<SearchRequest> firstPage(SearchQuery queries, AnalysedQuery query, ReadSearch.Filters filters, int size,
            List<String> excludes) {
        List<SearchRequest> requests = new ArrayList<>(3);
        requests.add(request(queries.build(query, filters, true), queries.highlight(query, filters, true), size, null,
                null, excludes));
        requests.addAll(PageSections.sectionRequests(queries, query, filters));
        return requests;
    }

    /**
     * The vector search of a hybrid first page: the {@code window} reads nearest the
     * query's vector (approximate kNN on the {@value ReadsIndex#EMBEDDING} field's HNSW
     * graph, {@code num_candidates} twice the window, at least 100) among the reads that
     * pass the filters, each with its id and story only: the fusion needs no more, and
     * the few that reach the page are fetched whole afterwards ({@link #byIds}).
     */
    static SearchRequest vectorRequest(float[] vector, Query filter, int window) {
        return SearchRequest.of(s -> s.index(ReadsIndex.ALIAS)
            .knn(k -> k.field(ReadsIndex.EMBEDDING)
                .queryVector(ReadsIndex.queryVector(vector))
                .k(window)
                .numCandidates(Math.max(100, 2 * window))
                .filter(filter))
            .size(window)
            .source(src -> src.filter(f -> f.includes(ReadFields.ID, ReadFields.STORY))));
    }

    /**
     * Some reads by id, whole (less {@code excludes}) and highlighted as a page is: the
     * reads a hybrid first page shows that the lexical page did not return.
     */
    static SearchRequest byIds(List<String> ids, Query highlight, List<String> excludes) {
        return SearchRequest.of(s -> s.index(ReadsIndex.ALIAS)
            .query(q -> q.ids(i -> i.values(ids)))
            .size(ids.size())
            .source(src -> src.filter(f -> f.excludes(excludes)))
            .highlight(h -> highlight(h, highlight)));
    }

    /** The page's highlighting: HTML-escaped {@code <mark>} fragments, best first. */
    private static Highlight.Builder highlight(Highlight.Builder h, Query highlight) {
        return h.highlightQuery(highlight)
            .encoder(HighlighterEncoder.Html)
            .preTags("<mark>")
            .postTags("</mark>")
            .fields(ReadFields.SECTIONS_BODY,
                    f -> f.fragmentSize(180).numberOfFragments(3).order(HighlighterOrder.Score))
            .fields(ReadFields.SUMMARY, f -> f.numberOfFragments(0));
    }

    /**
     * A page's query less the stories a hybrid first page already showed out of lexical
     * order ({@link Cursor#shown}).
     */
    static Query withoutStories(Query query, List<String> stories) {
        return Query.of(q -> q.bool(b -> b.must(query)
            .mustNot(n -> n.terms(t -> t.field(ReadFields.STORY)
                .terms(v -> v.value(stories.stream().map(FieldValue::of).toList()))))));
    }

    /**
     * The reads of some stories that match a page's query: one {@code terms} bucket per
     * story ({@link #STORIES}) with its count and its newest {@link #MAX_REPOSTS} reads
     * ({@code top_hits} {@link #REPOSTS}: id, sources and observedAt, newest
     * {@code observedAt} first, then id). One search for a whole page, where inner hits
     * of the collapse would run one per collapsed hit.
     * @param query the page's query
     * @param stories the story keys of the page's signal reads (a read of another kind is
     * its own story)
     * @param pit the page's point in time, or null for the live index
     */
    static SearchRequest reposts(Query query, List<String> stories, String pit) {
        return SearchRequest.of(s -> {
            if (pit != null) {
                s.pit(p -> p.id(pit).keepAlive(t -> t.time(ReadSearch.KEEP_ALIVE)));
            }
            else {
                s.index(ReadsIndex.ALIAS);
            }
            return s.size(0)
                .query(q -> q.bool(b -> b.must(query)
                    .filter(f -> f.terms(t -> t.field(ReadFields.STORY)
                        .terms(v -> v.value(stories.stream().map(FieldValue::of).toList()))))))
                .aggregations(STORIES, a -> a.terms(t -> t.field(ReadFields.STORY).size(stories.size()))
                    .aggregations(REPOSTS, r -> r.topHits(h -> h.size(MAX_REPOSTS)
                        .sort(o -> o.field(f -> f.field(ReadFields.OBSERVED_AT).order(SortOrder.Desc)))
                        .sort(o -> o.field(f -> f.field(ReadFields.ID).order(SortOrder.Asc)))
                        .source(src -> src
                            .filter(f -> f.includes(ReadFields.ID, ReadFields.SOURCES, ReadFields.OBSERVED_AT))))));
        });
    }

    /**
     * The source keys a search leaves out.
     * @param evidence the answer shows tag evidence
     * @param companyNamed the query names a company (its snippets quote company evidence)
     * @return {@link #INDEX_ONLY}, {@link #WITHOUT_EVIDENCE} or
     * {@link #WITHOUT_ANY_EVIDENCE}
     */
    static List<String> excludes(boolean evidence, boolean companyNamed) {
        return evidence ? INDEX_ONLY : companyNamed ? WITHOUT_EVIDENCE : WITHOUT_ANY_EVIDENCE;
    }

}
