package io.chainfeed.api.selector;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch._types.query_dsl.QueryBuilders;
import io.chainfeed.api.selector.Expression.And;
import io.chainfeed.api.selector.Expression.Not;
import io.chainfeed.api.selector.Expression.Or;
import io.chainfeed.api.selector.Expression.Test;
import io.chainfeed.schemas.ReadFields;
import java.util.Locale;

/**
 * Writes an {@link Expression} as an Elasticsearch query over the {@code chainfeed-reads}
 * alias (filter context: no scoring) that selects exactly the documents
 * {@link SelectorEvaluator} accepts: AND as {@code bool.filter}, OR as
 * {@code bool.should} with one required, NOT as {@code bool.must_not}, {@code all} as
 * {@code match_all}.
 */
final class SelectorQueryWriter {

    private SelectorQueryWriter() {
    }

    /**
     * @param n the expression
     * @return its query
     */
    static Query query(Expression n) {
        if (n instanceof Test t) {
            return testQuery(t);
        }
        else if (n instanceof And a) {
            return QueryBuilders.bool(b -> b.filter(a.parts().stream().map(SelectorQueryWriter::query).toList()));
        }
        else if (n instanceof Or o) {
            return QueryBuilders.bool(
                    b -> b.should(o.parts().stream().map(SelectorQueryWriter::query).toList()).minimumShouldMatch("1"));
        }
        else if (n instanceof Not x) {
            return QueryBuilders.bool(b -> b.mustNot(query(x.part())));
        }
        return QueryBuilders.matchAll(m -> m);
    }

    private static Query testQuery(Test t) {
        String v = t.value();
        return switch (t.field()) {
            case LAYER -> term(ReadFields.LAYER_IDS, v);
            // Display symbols are stored as published (upper-case letters); the term
            // query on companySymbols is made case-insensitive so that company:anet
            // finds ANET.
            case COMPANY -> t.companyId() != null
                    ? QueryBuilders.bool(b -> b
                        .should(term(ReadFields.COMPANIES_ID, t.companyId()),
                                QueryBuilders.terms(q -> q.field(ReadFields.COMPANY_SYMBOLS)
                                    .terms(tv -> tv.value(t.symbols().stream().map(FieldValue::of).toList()))))
                        .minimumShouldMatch("1"))
                    : QueryBuilders.bool(b -> b.should(
                            QueryBuilders.term(q -> q.field(ReadFields.COMPANY_SYMBOLS).value(v).caseInsensitive(true)),
                            term(ReadFields.COMPANIES_ID, v.toLowerCase(Locale.ROOT)))
                        .minimumShouldMatch("1"));
            case TERM ->
                QueryBuilders.bool(
                        b -> b
                            .should(term(ReadFields.TERM_SLUGS, v),
                                    QueryBuilders.bool(
                                            own -> own.filter(term(ReadFields.KIND, "term"), term(ReadFields.SLUG, v))))
                            .minimumShouldMatch("1"));
            case KIND -> term(ReadFields.KIND, v);
        };
    }

    private static Query term(String field, String value) {
        return QueryBuilders.term(q -> q.field(field).value(FieldValue.of(value)));
    }

}
