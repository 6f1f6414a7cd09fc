package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The sections of a first page ({@link ReadSearch.Sections}): the term reads that explain
 * what the query asks about and the newest signals about it, each ranked on its own, how
 * they are asked of Elasticsearch and how they are read from its answers or, on a page
 * that fell back to some of the words, from the page's own matches.
 */
final class PageSections {

    private PageSections() {
    }

    /** Term reads in the answer's term section. */
    static final int SECTION_TERMS = 2;

    /** Signal reads in the answer's newest-signals section. */
    static final int SECTION_SIGNALS = 5;

    /**
     * The source keys the sections show (what {@code SearchController} reads of each term
     * and signal): Elasticsearch sends only these, not the reads' long sections and tags.
     */
    static final List<String> SECTION_KEYS = List.of(ReadFields.ID, ReadFields.SLUG, ReadFields.TITLE,
            ReadFields.SUMMARY, ReadFields.OBSERVED_AT, ReadFields.LAYERS_ID, ReadFields.LAYERS_PRIMARY,
            ReadFields.SIGNAL_DIRECTION, ReadFields.SIGNAL_MAGNITUDE, ReadFields.SOURCES);

    /**
     * The two searches of the sections: the best {@link #SECTION_TERMS} term reads, and
     * the newest {@link #SECTION_SIGNALS} signal reads (newest {@code observedAt} first,
     * one per story), each with the page's filters; a kind filter that leaves a kind out
     * asks for none of it.
     */
    static List<SearchRequest> sectionRequests(SearchQuery queries, AnalysedQuery query, ReadSearch.Filters filters) {
        boolean wantTerms = wants(filters, "term");
        boolean wantSignals = wants(filters, "signal");
        Query terms = queries.build(query, withKind(filters, "term"), true);
        Query signals = queries.build(query, withKind(filters, "signal"), true);
        return List.of(
                SearchRequest.of(b -> b.index(ReadsIndex.ALIAS)
                    .query(terms)
                    .size(wantTerms ? SECTION_TERMS : 0)
                    .source(src -> src.filter(f -> f.includes(SECTION_KEYS)))),
                SearchRequest.of(b -> b.index(ReadsIndex.ALIAS)
                    .query(signals)
                    .size(wantSignals ? SECTION_SIGNALS : 0)
                    .collapse(c -> c.field(ReadFields.STORY))
                    .sort(o -> o.field(f -> f.field(ReadFields.OBSERVED_AT).order(SortOrder.Desc)))
                    .sort(o -> o.field(f -> f.field(ReadFields.ID).order(SortOrder.Asc)))
                    .source(src -> src.filter(f -> f.includes(SECTION_KEYS)))));
    }

    /**
     * The sections of the two answers to {@link #sectionRequests}: a search that failed
     * leaves its section empty (the page itself still answers).
     */
    static ReadSearch.Sections sections(List<SearchAnswer> answers) {
        List<List<ReadDocument>> out = new ArrayList<>(2);
        for (SearchAnswer answer : answers) {
            List<ReadDocument> docs = new ArrayList<>();
            if (answer.error() == null && answer.hits() != null && answer.hits().hits() != null) {
                for (SearchAnswer.Hit hit : answer.hits().hits()) {
                    docs.add(hit.source());
                }
            }
            out.add(docs);
        }
        return new ReadSearch.Sections(out.get(0), out.get(1));
    }

    /**
     * The sections of a page that fell back to some of the words, taken from its own
     * matches rather than searched again: searched without every word, "the newest
     * signals" would be the newest reads sharing any one word with the query (a turbine
     * order for "EUV orders falling"), while the page's matches are the reads with the
     * most words. The best {@link #SECTION_TERMS} term reads in page order, and the
     * page's signal reads (one per story already) newest {@code observedAt} first, at
     * most {@link #SECTION_SIGNALS}; a kind filter that leaves a kind out gives none of
     * it.
     */
    static ReadSearch.Sections sectionsOf(List<ReadSearch.Match> matches, ReadSearch.Filters filters) {
        boolean wantTerms = wants(filters, "term");
        boolean wantSignals = wants(filters, "signal");
        List<ReadDocument> terms = new ArrayList<>();
        List<ReadDocument> signals = new ArrayList<>();
        for (ReadSearch.Match m : matches) {
            String kind = m.source().kind();
            if ("term".equals(kind) && wantTerms && terms.size() < SECTION_TERMS) {
                terms.add(m.source());
            }
            else if ("signal".equals(kind) && wantSignals) {
                signals.add(m.source());
            }
        }
        signals.sort(Comparator.comparing((ReadDocument d) -> String.valueOf(d.observedAt()))
            .reversed()
            .thenComparing(d -> String.valueOf(d.id())));
        return new ReadSearch.Sections(terms,
                List.copyOf(signals.subList(0, Math.min(SECTION_SIGNALS, signals.size()))));
    }

    /**
     * Whether a page with these filters shows reads of the kind (no kind filter: all).
     */
    private static boolean wants(ReadSearch.Filters f, String kind) {
        return f.kinds().isEmpty() || f.kinds().contains(kind);
    }

    private static ReadSearch.Filters withKind(ReadSearch.Filters f, String kind) {
        return new ReadSearch.Filters(f.layers(), f.companies(), f.primaryOnly(), f.terms(), List.of(kind), f.from(),
                f.to());
    }

}
