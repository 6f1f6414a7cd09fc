package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import java.util.ArrayList;
import java.util.List;

/**
 * The fall-back to some of the words (mode {@link SearchMode#ANY}), in one place: when a
 * first page falls back ({@link #wanted}, run by {@link ReadSearch}), the query that
 * finds the reads with some of the pieces ({@link #query}, built by {@link SearchQuery}),
 * and the notice that says so in the answer ({@link #notice}). Reads with every word come
 * first, then the reads with more of the words, as Algolia's optional words do.
 */
final class FallBack {

    /**
     * Score of each non-stop piece a read has in the fall-back: far above any relevance
     * score.
     */
    static final float FALLBACK_PIECE_SCORE = 10_000f;

    private FallBack() {
    }

    /**
     * Whether a first page falls back: fewer reads than a page have every word, and the
     * query has more than one word that counts ({@link QueryIntent#counted}).
     * @param query the analysed text
     * @param withAll how many reads have every word
     * @param size the page size
     * @return whether to search for the reads with some of the words
     */
    static boolean wanted(AnalysedQuery query, long withAll, int size) {
        return withAll < size && query.intent().counted() > 1;
    }

    /**
     * The query of the fall-back: a read needs at least one piece that is not a stop word
     * (a lone "out" or "of" lets nothing in), and scores {@link #FALLBACK_PIECE_SCORE}
     * per such piece it has, so reads with more of the words rank first; relevance orders
     * reads with as many.
     * @param b the query's clauses
     * @param required one query per required piece
     * @param counts per required query: whether it may let a read in on its own
     */
    static void query(BoolQuery.Builder b, List<Query> required, List<Boolean> counts) {
        List<Query> counted = new ArrayList<>();
        for (int k = 0; k < required.size(); k++) {
            if (counts.get(k)) {
                Query r = required.get(k);
                counted.add(Query.of(q -> q.constantScore(c -> c.filter(r).boost(FALLBACK_PIECE_SCORE))));
            }
        }
        if (counted.isEmpty()) {
            b.must(m -> m.matchNone(n -> n));
            return;
        }
        b.must(m -> m.bool(x -> x.should(counted).minimumShouldMatch("1")));
        b.should(required);
    }

    /**
     * The answer's notice on a page that fell back: {@link #fillUpNotice} when some reads
     * have every word, else {@link #fallBackNotice}.
     * @param query the analysed text
     * @param withAll how many reads have every word
     * @return the notice
     */
    static String notice(AnalysedQuery query, long withAll) {
        return withAll > 0 ? fillUpNotice(query, withAll) : fallBackNotice(query.parsed());
    }

    /**
     * "only 3 reads have all of: contract, manufacturers, servers; after them, reads with
     * some".
     */
    static String fillUpNotice(AnalysedQuery query, long withAll) {
        QueryText parsed = query.parsed();
        QueryIntent intent = query.intent();
        List<String> words = new ArrayList<>();
        for (QueryIntent.Segment g : intent.segments()) {
            if (g.role() != QueryIntent.Role.FILLER) {
                List<String> texts = new ArrayList<>();
                for (int i = g.from(); i < g.to(); i++) {
                    texts.add(String.join(" or ",
                            parsed.groups()
                                .get(i)
                                .stream()
                                .map(p -> p.phrase() ? "\"" + p.text() + "\"" : p.text())
                                .toList()));
                }
                words.add(String.join(" ", texts));
            }
        }
        return "only " + withAll + (withAll == 1 ? " read has" : " reads have") + " all of: " + String.join(", ", words)
                + "; after " + (withAll == 1 ? "it" : "them") + ", reads with some";
    }

    /**
     * "no read has all of: sold, out; showing reads with some" (stop words named as
     * such).
     */
    static String fallBackNotice(QueryText parsed) {
        List<String> groups = new ArrayList<>();
        List<String> stop = new ArrayList<>();
        for (List<QueryText.Piece> g : parsed.groups()) {
            String text = String.join(" or ",
                    g.stream().map(p -> p.phrase() ? "\"" + p.text() + "\"" : p.text()).toList());
            groups.add(text);
            if (g.stream().allMatch(QueryWords::isStopWord)) {
                stop.add(text);
            }
        }
        return "no read has all of: " + String.join(", ", groups) + "; showing reads with some"
                + (stop.isEmpty() ? "" : " (" + String.join(", ", stop) + (stop.size() == 1 ? " is" : " are")
                        + " too common to match on " + (stop.size() == 1 ? "its" : "their") + " own)");
    }

}
