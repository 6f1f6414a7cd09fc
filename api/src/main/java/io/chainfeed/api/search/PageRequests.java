package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.aggregations.CalendarInterval;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.search.HighlighterEncoder;
import co.elastic.clients.elasticsearch.core.search.HighlighterOrder;
import io.chainfeed.platform.ReadsIndex;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Elasticsearch request of one page of {@link ReadSearch}, and which source keys it leaves out.
 * {@code api/load/search-body.json} is this request for a first page (SearchLoadBodyTest).
 */
final class PageRequests {
    /**
     * Keys of a stored read that only filters and facets use (flat copies of the tags): left out of search
     * answers, which show the tags themselves.
     */
    static final List<String> INDEX_ONLY = List.of("layerIds", "primaryLayerIds", "layerRefs", "companySymbols",
            "primaryCompanySymbols", "companyRefs", "termSlugs", "termRefs");
    /**
     * What a search answer without evidence leaves out: the index-only keys, layer evidence, and of term
     * evidence everything but its {@code rule} (a read's related terms are the term tags whose evidence is
     * the declared-related rule: ReadViews). Company evidence stays: the snippet of a read found through
     * a company quotes it (Snippets); {@link #WITHOUT_ANY_EVIDENCE} leaves it out when no company is named.
     */
    static final List<String> WITHOUT_EVIDENCE = Stream.concat(INDEX_ONLY.stream(),
            Stream.of("layers.evidence", "terms.evidence.field", "terms.evidence.start",
                    "terms.evidence.end", "terms.evidence.text")).toList();
    /**
     * {@link #WITHOUT_EVIDENCE} and company evidence too: for a query that names no company, whose
     * snippets never quote company evidence (about a third of a stored read's bytes).
     */
    static final List<String> WITHOUT_ANY_EVIDENCE = Stream.concat(WITHOUT_EVIDENCE.stream(),
            Stream.of("companies.evidence")).toList();

    private PageRequests() {
    }

    /**
     * The search request of one page: the query, page size, exact total, sort by score then id, highlight
     * and the five facet aggregations; in the point in time if one is given (else on the alias
     * {@value ReadsIndex#ALIAS}), after the cursor's sort values if one is given; sources without the
     * source keys {@code excludes} ({@link #excludes}) left out.
     */
    static SearchRequest request(Query query, int size, String pit, Cursor after, List<String> excludes) {
        return SearchRequest.of(s -> {
            if (pit != null) {
                s.pit(p -> p.id(pit).keepAlive(t -> t.time(ReadSearch.KEEP_ALIVE)));
            } else {
                s.index(ReadsIndex.ALIAS);
            }
            s.query(query)
                    .source(src -> src.filter(f -> f.excludes(excludes)))
                    .size(size)
                    .trackTotalHits(t -> t.enabled(true))
                    .sort(o -> o.score(sc -> sc.order(SortOrder.Desc)))
                    .sort(o -> o.field(f -> f.field("id").order(SortOrder.Asc)))
                    .highlight(h -> h.encoder(HighlighterEncoder.Html)
                            .preTags("<mark>").postTags("</mark>")
                            .fields("sections.body", f -> f.fragmentSize(180).numberOfFragments(3)
                                    .order(HighlighterOrder.Score))
                            .fields("summary", f -> f.numberOfFragments(0)));
            if (after != null) {
                s.searchAfter(FieldValue.of(after.score()), FieldValue.of(after.id()));
            }
            s.aggregations("layer", a -> a.terms(t -> t.field("layerRefs").size(50)))
                    .aggregations("company", a -> a.terms(t -> t.field("companyRefs").size(50)))
                    .aggregations("term", a -> a.terms(t -> t.field("termRefs").size(50)))
                    .aggregations("kind", a -> a.terms(t -> t.field("kind").size(10)))
                    .aggregations("updated", a -> a.dateHistogram(d -> d.field("updatedAt")
                            .calendarInterval(CalendarInterval.Month).minDocCount(1).format("yyyy-MM")));
            return s;
        });
    }

    /**
     * The source keys a search leaves out.
     *
     * @param evidence      the answer shows tag evidence
     * @param companyNamed  the query names a company (its snippets quote company evidence)
     * @return {@link #INDEX_ONLY}, {@link #WITHOUT_EVIDENCE} or {@link #WITHOUT_ANY_EVIDENCE}
     */
    static List<String> excludes(boolean evidence, boolean companyNamed) {
        return evidence ? INDEX_ONLY : companyNamed ? WITHOUT_EVIDENCE : WITHOUT_ANY_EVIDENCE;
    }
}
