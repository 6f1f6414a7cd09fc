package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch._types.query_dsl.TextQueryType;
import io.chainfeed.avro.Company;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.schemas.ReadFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Every rule that lifts reads above the others that match a query as well, with its name
 * ({@link #id()}) and its boost ({@link Boosts}), in the order {@link SearchQuery} adds
 * them as {@code should} clauses of the query: each gives no clause, one or several
 * ({@link #lifts}). Matching (which reads are found) is not here: the required pieces,
 * their company tags, constraint talk, the related terms and the fall-back are
 * {@link SearchQuery}'s; so is the factor that puts state reads last
 * ({@link Boosts#STATE_READ}).
 *
 * <p>
 * Exact names lift the term's own read to the top: of the whole text, or of its subject
 * once the question words and constraint talk are left out ("what is CoWoS", "CoWoS
 * shortage"). A query without constraint talk asks what something is more often than what
 * happened to it: term reads rank above the news.
 */
enum RankingRule {

    /** A read whose title equals the whole text. */
    EXACT_TITLE("exact-title", Boosts.EXACT_TITLE) {
        @Override
        List<Query> lifts(Input in) {
            return wholeText(in, ReadFields.TITLE_EXACT, boost());
        }
    },

    /** A read one of whose aliases equals the whole text. */
    EXACT_ALIAS("exact-alias", Boosts.EXACT_ALIAS) {
        @Override
        List<Query> lifts(Input in) {
            return wholeText(in, ReadFields.ALIASES_EXACT, boost());
        }
    },

    /**
     * Proximity: reads where the query's words (filler aside) stand together, as a phrase
     * with a little slop ({@link Boosts#PHRASE_SLOP}), rank above reads that have them
     * scattered ("rate limits", "optical fiber shortage"). Not beyond
     * {@link SearchQuery#FUZZY_MAX_PIECES} pieces.
     */
    PHRASE("phrase", Boosts.PHRASE) {
        @Override
        List<Query> lifts(Input in) {
            String together = in.query().intent().meaningful();
            if (!in.query().fuzzy() || !together.contains(" ")) {
                return List.of();
            }
            return List.of(Query.of(s -> s.multiMatch(m -> m.query(together)
                .fields(SearchQuery.FIELDS)
                .type(TextQueryType.Phrase)
                .slop(Boosts.PHRASE_SLOP)
                .boost(boost()))));
        }
    },

    /**
     * A subject that names a chain layer ("memory layer", "energy and power"): the reads
     * whose primary layer it is.
     */
    NAMED_LAYER("named-layer", Boosts.NAMED_LAYER) {
        @Override
        List<Query> lifts(Input in) {
            return in.query()
                .layerId()
                .map(id -> List.of(Query.of(s -> s.constantScore(c -> c.boost(boost())
                    .filter(f -> f.term(t -> t.field(ReadFields.PRIMARY_LAYER_IDS).value(id)))))))
                .orElse(List.of());
        }
    },

    /**
     * A year in the query ("is HBM still sold out in 2026"): the signals that speak of
     * it, observed in that year (UTC) or with a horizon ({@code until}) reaching into it.
     */
    YEAR("year", Boosts.YEAR) {
        @Override
        List<Query> lifts(Input in) {
            List<Query> out = new ArrayList<>();
            for (List<QueryText.Piece> group : in.query().parsed().groups()) {
                if (group.size() == 1 && group.get(0).text().matches("(19|20)\\d\\d")) {
                    out.add(yearSignals(Integer.parseInt(group.get(0).text()), boost()));
                }
            }
            return out;
        }
    },

    /**
     * Without constraint talk, a query naming a layer asks what the layer is made of: its
     * term reads rank above its news.
     */
    LAYER_TERM("layer-term", Boosts.LAYER_TERM) {
        @Override
        List<Query> lifts(Input in) {
            if (in.query().constraintTalk()) {
                return List.of();
            }
            return in.query()
                .layerId()
                .map(id -> List.of(termReadsWhere(boost(), termIs(ReadFields.PRIMARY_LAYER_IDS, id))))
                .orElse(List.of());
        }
    },

    /**
     * Without constraint talk, a subject that names a company ("TSMC", "NVDA") asks what
     * the company does: the term reads that list it among their main companies and sit in
     * one of its layers; for a question about its suppliers ({@link #SUPPLIER_WORDS}),
     * those in the layers upstream of its primary layer (the parts of the chain it buys
     * from, as far as their terms name it).
     */
    COMPANY_TERM("company-term", Boosts.COMPANY_TERM) {
        @Override
        List<Query> lifts(Input in) {
            Company company = in.query().subjectCompany();
            if (in.query().constraintTalk() || company == null) {
                return List.of();
            }
            List<String> its = new ArrayList<>();
            if (suppliers(in.query())) {
                its.addAll(in.upstream().apply(company.getPrimaryLayer()));
            }
            else {
                its.add(company.getPrimaryLayer());
                its.addAll(company.getLayers());
            }
            return its.isEmpty() ? List.of() : List
                .of(termReadsWhere(boost(), listing(company), SearchQuery.terms(ReadFields.PRIMARY_LAYER_IDS, its)));
        }
    },

    /**
     * The same, more so when the term sits in the company's primary layer; not for a
     * question about its suppliers.
     */
    COMPANY_PRIMARY_LAYER_TERM("company-primary-layer-term", Boosts.COMPANY_PRIMARY_LAYER_TERM) {
        @Override
        List<Query> lifts(Input in) {
            Company company = in.query().subjectCompany();
            if (in.query().constraintTalk() || company == null || suppliers(in.query())) {
                return List.of();
            }
            return List.of(termReadsWhere(boost(), listing(company),
                    termIs(ReadFields.PRIMARY_LAYER_IDS, company.getPrimaryLayer())));
        }
    },

    /**
     * Without constraint talk, a term read (an explanation) ranks a little above a signal
     * read (news) that matches as well.
     */
    TERM_READ("term-read", Boosts.TERM_READ) {
        @Override
        List<Query> lifts(Input in) {
            return in.query().constraintTalk() ? List.of()
                    : List.of(Query.of(s -> s.constantScore(c -> c.boost(boost()).filter(TERM_KIND))));
        }
    },

    /**
     * The read of the glossary term the query names ({@link AnalysedQuery#term}).
     */
    NAMED_TERM("named-term", Boosts.NAMED_TERM) {
        @Override
        List<Query> lifts(Input in) {
            SearchCatalog.TermNames named = in.query().term();
            return named == null ? List.of() : List
                .of(Query.of(s -> s.term(t -> t.field(ReadFields.ID).value("term:" + named.slug()).boost(boost()))));
        }
    };

    /**
     * Words that ask for a company's suppliers: with a company as the subject, the terms
     * of the layers upstream of its primary layer that list it are lifted instead of its
     * own.
     */
    static final Set<String> SUPPLIER_WORDS = Set.of("supplier", "suppliers", "supplies", "vendors");

    /** Term reads (kind {@code term}). */
    private static final Query TERM_KIND = termIs(ReadFields.KIND, "term");

    private final String id;

    private final float boost;

    RankingRule(String id, float boost) {
        this.id = id;
        this.boost = boost;
    }

    /**
     * What a rule reads.
     *
     * @param query the analysed text
     * @param upstream the ids of the layers a layer names as its upstream (its
     * suppliers), by layer id
     */
    record Input(AnalysedQuery query, Function<String, List<String>> upstream) {
    }

    /**
     * @return the rule's name, e.g. {@code exact-title}
     */
    String id() {
        return id;
    }

    /**
     * @return the boost of the reads it lifts
     */
    float boost() {
        return boost;
    }

    /**
     * @param in the query and what the rules know of the chain
     * @return the {@code should} clauses this rule adds, in order; empty when it does not
     * apply
     */
    abstract List<Query> lifts(Input in);

    /** The reads whose exact {@code field} equals the whole text, if it has words. */
    private static List<Query> wholeText(Input in, String field, float boost) {
        String plain = in.query().parsed().plain();
        return plain.isEmpty() ? List.of()
                : List.of(Query.of(s -> s.term(t -> t.field(field).value(plain).boost(boost))));
    }

    private static boolean suppliers(AnalysedQuery query) {
        return QueryText.words(query.parsed().plain()).stream().anyMatch(SUPPLIER_WORDS::contains);
    }

    /** The reads that list a company among their main companies, by any listing. */
    private static Query listing(Company company) {
        List<FieldValue> symbols = CompanyDirectory.displaySymbols(company).stream().map(FieldValue::of).toList();
        return Query.of(q -> q.terms(t -> t.field(ReadFields.PRIMARY_COMPANY_SYMBOLS).terms(v -> v.value(symbols))));
    }

    /**
     * The signal reads that speak of a calendar year (UTC): observed in it, or observed
     * before its end with a horizon ({@code until}) on or after its start.
     */
    private static Query yearSignals(int year, float boost) {
        String start = year + "-01-01T00:00:00Z";
        String end = (year + 1) + "-01-01T00:00:00Z";
        Query observedIn = Query.of(q -> q.range(r -> r.date(d -> d.field(ReadFields.OBSERVED_AT).gte(start).lt(end))));
        Query reaching = Query
            .of(q -> q.bool(x -> x.filter(k -> k.range(r -> r.date(d -> d.field(ReadFields.OBSERVED_AT).lt(end))))
                .filter(k -> k.range(r -> r.date(d -> d.field(ReadFields.SIGNAL_UNTIL).gte(start))))));
        return Query.of(q -> q.constantScore(c -> c.boost(boost)
            .filter(f -> f.bool(x -> x.filter(k -> k.term(t -> t.field(ReadFields.KIND).value("signal")))
                .should(observedIn, reaching)
                .minimumShouldMatch("1")))));
    }

    /**
     * @return a constant {@code boost} for the term reads that pass every filter
     */
    private static Query termReadsWhere(float boost, Query... filters) {
        List<Query> all = new ArrayList<>();
        all.add(TERM_KIND);
        all.addAll(List.of(filters));
        return Query.of(q -> q.constantScore(c -> c.boost(boost).filter(f -> f.bool(x -> x.filter(all)))));
    }

    private static Query termIs(String field, String value) {
        return Query.of(q -> q.term(t -> t.field(field).value(value)));
    }

}
