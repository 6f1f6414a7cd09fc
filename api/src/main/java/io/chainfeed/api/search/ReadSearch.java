package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.query_dsl.Operator;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch._types.query_dsl.TextQueryType;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.HighlighterEncoder;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.chainfeed.infra.ReadsIndex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Queries the reads index through its alias {@value ReadsIndex#ALIAS}.
 *
 * <p>Search is a {@code multi_match} (best_fields, AND of the words) over title and aliases
 * (boost 4), summary (2), companies, layers and related-term titles (2) and section bodies (1),
 * falling back to OR of the words when AND finds nothing; a read whose title (boost 20) or an alias
 * (boost 15) equals the whole text, case-folded, is lifted above the rest, so a term's own read
 * ranks first for its title, aliases and acronym expansions. The text is passed as match and term
 * queries, never parsed as query syntax, so any text is safe. Highlights are HTML-escaped with
 * {@code <mark>} tags.
 */
@Component
public class ReadSearch {
    private static final List<String> FIELDS = List.of("title^4", "aliases^4", "summary^2", "companies.name^2",
            "companies.symbol^2", "layers.name^2", "terms.title", "sections.body");

    private final ElasticsearchClient client;

    ReadSearch(ElasticsearchClient client) {
        this.client = client;
    }

    /**
     * One search hit.
     *
     * @param source   the stored read document
     * @param score    relevance score
     * @param snippets highlighted fragments, HTML-escaped, matches wrapped in {@code <mark>}
     */
    public record Match(Map<String, Object> source, double score, List<String> snippets) {
    }

    /**
     * A page of results.
     *
     * @param total   total matching reads
     * @param matches matches, best first
     */
    public record Page(long total, List<Match> matches) {
    }

    /**
     * @param text  the user's text (any characters)
     * @param size  page size, 1..50
     * @return the best matches
     * @throws IOException on a transport failure
     */
    @SuppressWarnings("unchecked")
    public Page search(String text, int size) throws IOException {
        Page page = run(text, size, Operator.And);
        return page.total() > 0 ? page : run(text, size, Operator.Or);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Page run(String text, int size, Operator operator) throws IOException {
        String folded = text.strip().toLowerCase(java.util.Locale.ROOT);
        Query words = Query.of(q -> q.multiMatch(m -> m.query(text).fields(FIELDS)
                .type(TextQueryType.BestFields).operator(operator).tieBreaker(0.3)));
        Query query = Query.of(q -> q.bool(b -> b.must(words)
                .should(s -> s.term(t -> t.field("title.exact").value(folded).boost(20f)))
                .should(s -> s.term(t -> t.field("aliases.exact").value(folded).boost(15f)))));
        SearchResponse<Map> response = client.search(s -> s
                .index(ReadsIndex.ALIAS)
                .query(query)
                .size(size)
                .trackTotalHits(t -> t.enabled(true))
                .highlight(h -> h.encoder(HighlighterEncoder.Html)
                        .preTags("<mark>").postTags("</mark>")
                        .fields("summary", f -> f.numberOfFragments(0))
                        .fields("sections.body", f -> f.fragmentSize(160).numberOfFragments(2))),
                Map.class);
        List<Match> matches = new ArrayList<>();
        for (Hit<Map> hit : response.hits().hits()) {
            List<String> snippets = new ArrayList<>();
            hit.highlight().getOrDefault("sections.body", List.of()).forEach(snippets::add);
            hit.highlight().getOrDefault("summary", List.of()).forEach(snippets::add);
            matches.add(new Match(new LinkedHashMap<String, Object>(hit.source()),
                    hit.score() == null ? 0 : hit.score(), snippets));
        }
        long total = response.hits().total() == null ? matches.size() : response.hits().total().value();
        return new Page(total, matches);
    }

    /**
     * @param id a read id, e.g. {@code term:rdma}
     * @return the stored read, if any
     * @throws IOException on a transport failure
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Optional<Map<String, Object>> get(String id) throws IOException {
        GetResponse<Map> r = client.get(g -> g.index(ReadsIndex.ALIAS).id(id), Map.class);
        return r.found() ? Optional.of(new LinkedHashMap<String, Object>(r.source())) : Optional.empty();
    }

    /**
     * The newest reads tagged with a company listing.
     *
     * @param symbol display symbol as stored on company tags, e.g. {@code 000660.KS}
     * @param size   how many, 1..50
     * @return the reads, newest first
     * @throws IOException on a transport failure
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public List<Map<String, Object>> latestForCompany(String symbol, int size) throws IOException {
        SearchResponse<Map> response = client.search(s -> s
                .index(ReadsIndex.ALIAS)
                .query(q -> q.term(t -> t.field("companies.symbol").value(symbol)))
                .sort(o -> o.field(f -> f.field("updatedAt").order(co.elastic.clients.elasticsearch._types.SortOrder.Desc)))
                .size(size), Map.class);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Hit<Map> hit : response.hits().hits()) {
            out.add(new LinkedHashMap<String, Object>(hit.source()));
        }
        return out;
    }
}
