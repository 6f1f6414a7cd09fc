package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Operator;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch._types.query_dsl.TextQueryType;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.schemas.ReadFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Builds the Elasticsearch query of a search from the analysed text
 * ({@link AnalysedQuery}) and the filters: no I/O of its own, and the same input always
 * gives the same query (checked against golden JSON by {@code SearchQueryTest}).
 *
 * <p>
 * Each required piece of the text ({@link QueryText}) becomes a {@code multi_match} over
 * the read's fields with the {@link Boosts}, analysed with the index's {@code english}
 * analyzer; words are fuzzy ({@link Boosts#FUZZINESS}: one edit from five letters, two
 * from nine, since shorter words have too many false friends), upper-case and digit
 * pieces (tickers, acronyms) are exact and also match a company's symbol exactly. A run
 * of words that spells a glossary term's name also matches every other name of that term
 * ({@link SearchCatalog}); a piece that names a company by any listing, id, name or alias
 * ({@link QueryWords}) also matches the reads tagged with it. With {@code all}, every
 * piece is required; otherwise ({@link FallBack}) reads with more of the pieces rank
 * first and a stop word alone lets nothing in. Reads that match as well are then ordered
 * by the {@link RankingRule}s, each a {@code should} clause with its boost: whole-text
 * matches of a title, an alias or a term's name lift that read.
 *
 * <p>
 * Natural queries ({@link QueryIntent}): question words and filler are never required;
 * constraint talk is met by the words, a signal of its direction or a term read. The term
 * the subject names is lifted, and (without constraint talk) its declared related terms
 * come in beside the reads with every word; a named layer lifts its primary reads, a
 * named company its primary reads; the words together (a phrase) lift a read; state reads
 * rank after the rest ({@link Boosts}).
 */
public final class SearchQuery {

    /** The fields a piece of text is matched against, with their {@link Boosts}. */
    static final List<String> FIELDS = List.of(ReadFields.TITLE + "^" + Boosts.TITLE,
            ReadFields.ALIASES + "^" + Boosts.TITLE, ReadFields.SUMMARY + "^" + Boosts.SUMMARY,
            ReadFields.COMPANIES_NAME + "^" + Boosts.SUMMARY, ReadFields.LAYERS_NAME + "^" + Boosts.SUMMARY,
            ReadFields.TERMS_TITLE, ReadFields.SECTIONS_HEADING, ReadFields.SECTIONS_BODY);

    /**
     * Beyond this many required pieces, words are no longer fuzzy and synonyms are not
     * expanded.
     */
    static final int FUZZY_MAX_PIECES = 12;

    private final CompanyResolver companies;

    private final Function<String, List<String>> upstream;

    /**
     * A query builder that knows no chain layer's upstream.
     * @param companies resolves pieces that name a company
     */
    public SearchQuery(CompanyResolver companies) {
        this(companies, id -> List.of());
    }

    /**
     * @param companies resolves pieces that name a company
     * @param upstream the ids of the layers a layer names as its upstream (its
     * suppliers), by layer id
     */
    public SearchQuery(CompanyResolver companies, Function<String, List<String>> upstream) {
        this.companies = companies;
        this.upstream = upstream;
    }

    /**
     * @param query the analysed text
     * @param filters the filters, AND'ed as Elasticsearch filters (no effect on scores)
     * @param all whether every required piece must match ({@code false}: the fall-back)
     * @return the query
     */
    public Query build(AnalysedQuery query, ReadSearch.Filters filters, boolean all) {
        return build(query, filters, all, Boosts.FUZZINESS);
    }

    /**
     * The query the highlighter marks words with: {@link #build} with words at most one
     * edit away ({@link Boosts#HIGHLIGHT_FUZZINESS}). The unified highlighter builds the
     * query's Levenshtein automata again for every hit it highlights, and a two-edit
     * automaton costs several times a one-edit one: on the bundled corpus, the fetch
     * phase of "High bandwidth memory" took Elasticsearch 167 ms with the ranking query
     * and about 40 ms with this one (2026-12-03, docs/benchmarks.md). Ranking is
     * unchanged; a word two edits from the typed one is found but not marked.
     * @param query the analysed text
     * @param filters the filters
     * @param all whether every required piece must match
     * @return the query for {@code highlight.highlight_query}
     */
    public Query highlight(AnalysedQuery query, ReadSearch.Filters filters, boolean all) {
        return build(query, filters, all, Boosts.HIGHLIGHT_FUZZINESS);
    }

    private Query build(AnalysedQuery query, ReadSearch.Filters filters, boolean all, String fuzziness) {
        BoolQuery.Builder b = new BoolQuery.Builder();
        Required required = required(query, query.fuzzy() ? fuzziness : null);
        match(b, query, required, all);
        for (QueryText.Piece p : query.parsed().excluded()) {
            b.mustNot(piece(p, null));
        }
        for (QueryText.Piece p : required.excludedSubjects()) {
            b.mustNot(aboutIt(p));
        }
        RankingRule.Input in = new RankingRule.Input(query, upstream);
        for (RankingRule rule : RankingRule.values()) {
            for (Query lift : rule.lifts(in)) {
                b.should(lift);
            }
        }
        filters(b, filters);
        Query matched = Query.of(q -> q.bool(b.build()));
        // A state read quotes the causes of a layer's change, so it mentions nearly
        // everything: it ranks after the reads that are about the words.
        return Query.of(q -> q.boosting(x -> x.positive(matched)
            .negative(n -> n.term(t -> t.field(ReadFields.KIND).value("state")))
            .negativeBoost(Boosts.STATE_READ)));
    }

    /**
     * What the required pieces of a query ask.
     *
     * @param queries one query per required piece, name or constraint phrase, in order
     * @param counts per query: whether it may, on its own, let a read into the fall-back
     * (not a stop word)
     * @param excludedSubjects the pieces after "other than" and the like
     * ({@link QueryIntent.Role#EXCLUDED}): not required, the reads about them are left
     * out
     */
    private record Required(List<Query> queries, List<Boolean> counts, List<QueryText.Piece> excludedSubjects) {
    }

    /**
     * The required pieces of a query: each piece, a run of words that spells a glossary
     * name (or any other name of its term), constraint talk; filler is left out.
     * @param wordFuzziness the fuzziness of words, null for exact words
     */
    private Required required(AnalysedQuery query, String wordFuzziness) {
        QueryText parsed = query.parsed();
        List<SearchCatalog.NameMatch> names = query.names();
        QueryIntent intent = query.intent();
        List<Query> required = new ArrayList<>();
        List<Boolean> counts = new ArrayList<>();
        List<QueryText.Piece> excludedSubjects = new ArrayList<>();
        int i = 0;
        int next = 0;
        while (i < parsed.size()) {
            while (next < names.size() && names.get(next).from() < i) {
                next++; // a name that starts inside a two-word constraint phrase
            }
            SearchCatalog.NameMatch name = next < names.size() && names.get(next).from() == i ? names.get(next++)
                    : null;
            QueryIntent.Segment segment = intent.segmentAt(i);
            if (segment.role() == QueryIntent.Role.EXCLUDED) {
                // "other than Nvidia": not required; the reads about it are left out
                // below.
                excludedSubjects.add(parsed.groups().get(i).get(0));
                i = segment.to();
            }
            else if (name != null) {
                // The words as typed, or any other name of the term, as a phrase.
                List<Query> alternatives = new ArrayList<>();
                List<QueryText.Piece> typed = new ArrayList<>();
                for (int g = name.from(); g < name.to(); g++) {
                    typed.add(parsed.groups().get(g).get(0));
                }
                alternatives.add(typed.size() == 1 ? piece(typed.get(0), wordFuzziness)
                        : bool(typed.stream().map(p -> piece(p, wordFuzziness)).toList(), true));
                for (String synonym : name.names()) {
                    alternatives.add(phrase(synonym, 1f));
                }
                required.add(bool(alternatives, false));
                counts.add(true);
                i = name.to();
            }
            else if (segment.role() == QueryIntent.Role.FILLER) {
                // Question words and filler: never required, never a reason to let a read
                // in.
                i = segment.to();
            }
            else if (segment.role() == QueryIntent.Role.CONSTRAINT) {
                List<QueryText.Piece> typed = new ArrayList<>();
                for (int g = segment.from(); g < segment.to(); g++) {
                    typed.add(parsed.groups().get(g).get(0));
                }
                Query words = typed.size() == 1 ? piece(typed.get(0), wordFuzziness)
                        : phrase(String.join(" ", typed.stream().map(QueryText.Piece::text).toList()), 1f);
                required.add(constraint(words, segment.direction()));
                counts.add(true);
                i = segment.to();
            }
            else {
                List<QueryText.Piece> group = parsed.groups().get(i);
                required.add(bool(group.stream().map(p -> piece(p, wordFuzziness)).toList(), false));
                counts.add(!group.stream().allMatch(QueryWords::isStopWord));
                i++;
            }
        }
        return new Required(required, counts, excludedSubjects);
    }

    /**
     * The reads a query finds: with every required piece ({@code all}; beside them, the
     * terms the named term declares related, {@link Boosts#RELATED_TERM}) or with some
     * ({@link FallBack#query}); every read when nothing is required.
     */
    private static void match(BoolQuery.Builder b, AnalysedQuery query, Required pieces, boolean all) {
        List<Query> required = pieces.queries();
        SearchCatalog.TermNames named = query.term();
        Query related = named == null || named.related().isEmpty() || query.constraintTalk() ? null
                : Query.of(q -> q.constantScore(c -> c.boost(Boosts.RELATED_TERM)
                    .filter(f -> f.terms(t -> t.field(ReadFields.ID)
                        .terms(v -> v
                            .value(named.related().stream().map(slug -> FieldValue.of("term:" + slug)).toList()))))));
        if (required.isEmpty()) {
            b.must(m -> m.matchAll(a -> a));
        }
        else if (all && related != null) {
            // What a researcher reads next: the terms the named term's source declares
            // related come in beside the reads that have every word, whether or not they
            // use the words.
            Query every = Query.of(q -> q.bool(x -> x.must(required)));
            b.must(m -> m.bool(x -> x.should(every, related).minimumShouldMatch("1")));
        }
        else if (all) {
            b.must(required);
        }
        else {
            FallBack.query(b, required, pieces.counts());
        }
    }

    /**
     * Constraint talk: the words themselves, or a signal read that reports a change in
     * the direction they talk about, or a term read (it explains the part the rest of the
     * query names).
     */
    private static Query constraint(Query words, QueryIntent.Direction direction) {
        Query signal = Query.of(q -> q.constantScore(c -> c.boost(Boosts.CONSTRAINT_SIGNAL).filter(f -> f.bool(s -> {
            s.filter(k -> k.term(t -> t.field(ReadFields.KIND).value("signal")));
            if (direction != QueryIntent.Direction.EITHER) {
                s.filter(k -> k
                    .term(t -> t.field(ReadFields.SIGNAL_DIRECTION).value(direction.name().toLowerCase(Locale.ROOT))));
            }
            return s;
        }))));
        Query term = Query.of(q -> q
            .constantScore(c -> c.boost(0f).filter(f -> f.term(t -> t.field(ReadFields.KIND).value("term")))));
        return Query.of(q -> q.bool(x -> x.should(words, signal, term).minimumShouldMatch("1")));
    }

    /**
     * The reads that are about a piece the researcher does not want: its primary company
     * when the piece names a company, else the reads with the piece in their title.
     */
    private Query aboutIt(QueryText.Piece p) {
        var company = QueryWords.company(p, companies);
        if (company.isPresent()) {
            return terms(ReadFields.PRIMARY_COMPANY_SYMBOLS, CompanyDirectory.displaySymbols(company.get()));
        }
        return Query.of(q -> q.match(m -> m.field(ReadFields.TITLE).query(p.text())));
    }

    /**
     * The filters alone, for the vector search of a hybrid page: state reads (a layer's
     * status change, which quotes its causes) are left out unless the filters ask for
     * them by kind.
     * @param f the filters
     * @return a query that matches the reads passing them
     */
    static Query filtersOnly(ReadSearch.Filters f) {
        BoolQuery.Builder b = new BoolQuery.Builder();
        filters(b, f);
        if (!f.kinds().contains("state")) {
            b.mustNot(n -> n.term(t -> t.field(ReadFields.KIND).value("state")));
        }
        return Query.of(q -> q.bool(b.build()));
    }

    private static void filters(BoolQuery.Builder b, ReadSearch.Filters f) {
        if (!f.layers().isEmpty()) {
            b.filter(terms(ReadFields.LAYER_IDS, f.layers()));
        }
        if (!f.companies().isEmpty()) {
            b.filter(terms(f.primaryOnly() ? ReadFields.PRIMARY_COMPANY_SYMBOLS : ReadFields.COMPANY_SYMBOLS,
                    f.companies()));
        }
        if (!f.terms().isEmpty()) {
            b.filter(terms(ReadFields.TERM_SLUGS, f.terms()));
        }
        if (!f.kinds().isEmpty()) {
            b.filter(terms(ReadFields.KIND, f.kinds()));
        }
        if (f.from() != null || f.to() != null) {
            b.filter(q -> q.range(r -> r.date(d -> {
                d.field(ReadFields.UPDATED_AT);
                if (f.from() != null) {
                    d.gte(f.from().toString());
                }
                if (f.to() != null) {
                    d.lt(f.to().toString());
                }
                return d;
            })));
        }
    }

    /**
     * @return the reads whose {@code field} holds one of the values
     */
    static Query terms(String field, List<String> values) {
        return Query
            .of(q -> q.terms(t -> t.field(field).terms(v -> v.value(values.stream().map(FieldValue::of).toList()))));
    }

    private static Query bool(List<Query> queries, boolean all) {
        if (queries.size() == 1) {
            return queries.get(0);
        }
        return Query.of(q -> q.bool(b -> all ? b.must(queries) : b.should(queries).minimumShouldMatch("1")));
    }

    /**
     * One word or phrase: text fields, plus the exact symbol for ticker-like pieces, plus
     * the company's tags when the piece names a company by any listing, id, name or alias
     * ({@link QueryWords#company}).
     */
    private Query piece(QueryText.Piece p, String fuzziness) {
        Query text = textPiece(p, fuzziness);
        var company = QueryWords.company(p, companies);
        if (company.isEmpty()) {
            return text;
        }
        String id = company.get().getId();
        Query tagged = Query.of(q -> q.term(t -> t.field(ReadFields.COMPANIES_ID).value(id).boost(Boosts.COMPANY)));
        // A read the company is a primary subject of (not a passing mention) ranks above
        // the others.
        List<FieldValue> symbols = CompanyDirectory.displaySymbols(company.get()).stream().map(FieldValue::of).toList();
        Query primary = Query.of(q -> q.constantScore(c -> c.boost(Boosts.PRIMARY_COMPANY)
            .filter(f -> f.terms(t -> t.field(ReadFields.PRIMARY_COMPANY_SYMBOLS).terms(v -> v.value(symbols))))));
        return Query.of(q -> q.bool(b -> b.should(text, tagged, primary).minimumShouldMatch("1")));
    }

    private static Query textPiece(QueryText.Piece p, String fuzziness) {
        if (p.phrase()) {
            return phrase(p.text(), 1f);
        }
        Query words = Query.of(q -> q.multiMatch(m -> {
            m.query(p.text())
                .fields(FIELDS)
                .type(TextQueryType.BestFields)
                .operator(Operator.And)
                .tieBreaker(Boosts.TIE_BREAKER);
            if (fuzziness != null && !p.tickerLike()) {
                m.fuzziness(fuzziness).prefixLength(1).maxExpansions(10);
            }
            return m;
        }));
        if (!p.tickerLike()) {
            return words;
        }
        Query symbol = Query
            .of(q -> q.term(t -> t.field(ReadFields.COMPANY_SYMBOLS).value(p.text()).boost(Boosts.COMPANY)));
        return Query.of(q -> q.bool(b -> b.should(words, symbol).minimumShouldMatch("1")));
    }

    private static Query phrase(String text, float boost) {
        return Query.of(q -> q.multiMatch(m -> m.query(text).fields(FIELDS).type(TextQueryType.Phrase).boost(boost)));
    }

}
