package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch.ElasticsearchAsyncClient;
import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Operator;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch._types.query_dsl.TextQueryType;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.get.GetResult;
import co.elastic.clients.elasticsearch.core.mget.MultiGetResponseItem;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.github.benmanes.caffeine.cache.Ticker;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.problem.GoneException;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.Sha256;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Queries the reads index through its alias {@value ReadsIndex#ALIAS}.
 *
 * <p>The text is parsed by {@link QueryText} (phrases, {@code -exclusion}, {@code OR}), never handed to
 * Elasticsearch as query syntax, so any text is safe. Each required piece becomes a {@code multi_match}
 * over title and aliases (boost 4), summary, companies, layers (2), related-term titles and section
 * bodies (1), analysed with the {@code english} analyzer (stemming); words are fuzzy (one edit from five
 * letters, two from nine: shorter words have too many false friends), upper-case/digit pieces (tickers,
 * acronyms) are exact and also match a company's symbol exactly and case-sensitively; a run of words that spells a glossary term's name also
 * matches every other name of that term (synonyms drawn from the corpus, {@link SearchCatalog}). A
 * piece that names a company (any listing's ticker, a MIC-qualified symbol, the id, name or alias:
 * {@link QueryWords}) also matches the reads tagged with that company. All pieces are required, falling
 * back to reads with some of them when nothing has all: never on a stop word alone, reads with more of
 * the pieces first. A read whose title (boost 20) or
 * an alias (15) equals the whole text, or whose term the whole text names (20), is lifted above the rest.
 *
 * <p>Pages: sorted by score then id (a total order: ids are unique), continued with {@code search_after}.
 * The first page runs on the live index and opens nothing on Elasticsearch; the second page opens a point
 * in time (kept {@value #KEEP_ALIVE} between pages, closed by the last page) and every later page runs in
 * it, so from the second page on a cursor never repeats or skips a read, even while the index changes.
 * Between the first and the second page a read whose score changed in the meantime (an edit, or new reads
 * shifting the term statistics) can cross the boundary between those two pages. Facets count the filtered
 * matches.
 * Highlights are HTML-escaped with {@code <mark>} tags, the best-scoring section fragment first.
 */
@Component
public class ReadSearch {
    private static final List<String> FIELDS = List.of("title^4", "aliases^4", "summary^2", "companies.name^2",
            "layers.name^2", "terms.title", "sections.heading", "sections.body");
    /** The terms facets of a page, in the order of the answer's {@code facets}. */
    private static final List<String> FACETS = List.of("layer", "company", "term", "kind");

    /** Beyond this many required pieces, words are no longer fuzzy and synonyms are not expanded. */
    static final int FUZZY_MAX_PIECES = 12;
    /** Most pieces (required and excluded) a query may have: a real limit, answered with a 400. */
    public static final int MAX_PIECES = 48;
    static final String KEEP_ALIVE = "2m";

    private final ElasticsearchClient client;
    private final ElasticsearchAsyncClient asyncClient;
    private final SearchCatalog catalog;
    private final CompanyResolver companies;
    private final FirstPageCache firstPages;
    /** The search timer of each outcome (ok, refused, error), registered once instead of looked up per search. */
    private final Map<String, io.micrometer.core.instrument.Timer> timers = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param cacheTtl how long a first page is kept for identical requests ({@link FirstPageCache}:
     *                 {@code chainfeed.api.search.cache-ttl}, at most the reads index's 1 s refresh
     *                 interval; 0 turns it off)
     */
    ReadSearch(ElasticsearchClient client, SearchCatalog catalog, CompanyResolver companies,
            @Value("${chainfeed.api.search.cache-ttl:1s}") Duration cacheTtl) {
        this.client = client;
        this.asyncClient = new ElasticsearchAsyncClient(client._transport());
        this.catalog = catalog;
        this.companies = companies;
        this.firstPages = new FirstPageCache(cacheTtl, Ticker.systemTicker());
    }

    /**
     * Filters, all optional; values of one filter are OR'ed, filters are AND'ed.
     *
     * @param layers             layer ids
     * @param companies          company symbols, exact (e.g. {@code 2345.TW})
     * @param primaryOnly        companies must be a primary subject of the read, not a passing mention
     * @param terms              related-term slugs
     * @param kinds              {@code term}, {@code signal}, {@code state}
     * @param from               updated at or after
     * @param to                 updated before
     */
    public record Filters(List<String> layers, List<String> companies, boolean primaryOnly, List<String> terms,
                          List<String> kinds, Instant from, Instant to) {
        static final Filters NONE = new Filters(List.of(), List.of(), false, List.of(), List.of(), null, null);
    }

    /**
     * One search hit.
     *
     * @param source      the stored read document
     * @param score       relevance score
     * @param snippets    highlighted fragments, HTML-escaped, matches wrapped in {@code <mark>}, best first
     * @param bestSection the key of the section the best fragment comes from, or null
     */
    public record Match(Map<String, Object> source, double score, List<String> snippets, String bestSection) {
    }

    /** A facet value with its count. */
    public record FacetValue(String value, String label, long count) {
    }

    /**
     * A page of results.
     *
     * @param total      total matching reads
     * @param matches    matches, best first
     * @param facets     facet name to values with counts (layer, company, term, kind, updated)
     * @param nextCursor cursor of the next page, null on the last
     * @param mode       {@code all} (every piece matched) or {@code any} (the fall-back)
     * @param tookMs     time Elasticsearch spent on the searches of this page
     */
    public record Page(long total, List<Match> matches, Map<String, List<FacetValue>> facets, String nextCursor,
                       String mode, long tookMs) {
    }

    /** Search with no filters, first page. */
    public Page search(String text, int size) throws IOException {
        return search(text, Filters.NONE, size, null);
    }

    /**
     * @param text    the user's text (any characters)
     * @param filters filters
     * @param size    page size, 1..50
     * @param cursor  the previous page's {@code nextCursor}, or null for the first page
     * @return a page of matches
     * @throws IOException on a transport failure
     */
    public Page search(String text, Filters filters, int size, String cursor) throws IOException {
        return search(text, filters, size, cursor, true);
    }

    /**
     * @param text     the user's text (any characters)
     * @param filters  filters
     * @param size     page size, 1..50
     * @param cursor   the previous page's {@code nextCursor}, or null for the first page
     * @param evidence whether the matches' sources keep the tag evidence of {@code layers}, {@code companies}
     *                 and {@code terms} entries (about a third of a stored read); without it Elasticsearch
     *                 leaves it out of the answer ({@link PageRequests#WITHOUT_EVIDENCE}), except the company evidence
     *                 of a query that names a company (company snippets quote it) and the rule of each
     *                 term evidence (related terms)
     * @return a page of matches; sources never hold the index-only keys of {@link PageRequests#INDEX_ONLY}
     * @throws IOException on a transport failure
     */
    public Page search(String text, Filters filters, int size, String cursor, boolean evidence) throws IOException {
        io.micrometer.core.instrument.Timer.Sample sample = io.micrometer.core.instrument.Timer.start();
        String outcome = "error";
        try {
            Page page = searchUntimed(text, filters, size, cursor, evidence);
            outcome = "ok";
            return page;
        } catch (io.chainfeed.api.problem.BadRequestException | GoneException e) {
            outcome = "refused";
            throw e;
        } finally {
            sample.stop(timers.computeIfAbsent(outcome, o -> io.micrometer.core.instrument.Timer.builder("chainfeed.search")
                    .description("Searches of the reads index, Elasticsearch round trips included")
                    .tag("outcome", o).publishPercentileHistogram()
                    .register(io.micrometer.core.instrument.Metrics.globalRegistry)));
        }
    }

    private Page searchUntimed(String text, Filters filters, int size, String cursor, boolean evidence)
            throws IOException {
        QueryText parsed = QueryText.parse(text);
        if (parsed.groups().size() + parsed.excluded().size() > MAX_PIECES) {
            throw new io.chainfeed.api.problem.BadRequestException("query-too-long",
                    "at most " + MAX_PIECES + " words or phrases per query");
        }
        if (parsed.isEmpty()) {
            return new Page(0, List.of(), Map.of(), null, "all", 0);
        }
        String hash = hash(text, filters);
        List<String> excludes = PageRequests.excludes(evidence, !QueryWords.companies(parsed, companies).isEmpty());
        if (cursor != null) {
            Cursor c = Cursor.decode(cursor);
            if (!c.queryHash().equals(hash)) {
                throw new io.chainfeed.api.problem.BadRequestException("invalid-cursor",
                        "the cursor belongs to another query or other filters");
            }
            if (c.pit() != null) {
                return run(parsed, text, filters, size, c.all(), c.pit(), c, excludes);
            }
            // The second page opens the point in time that it and the pages after it run in.
            String pit = client.openPointInTime(o -> o.index(ReadsIndex.ALIAS).keepAlive(t -> t.time(KEEP_ALIVE))).id();
            try {
                return run(parsed, text, filters, size, c.all(), pit, c, excludes);
            } catch (IOException | RuntimeException e) {
                closeQuietly(pit);
                throw e;
            }
        }
        return firstPages.get(new FirstPageCache.Key(text, filters, size, evidence),
                () -> firstPage(parsed, text, filters, size, excludes));
    }

    /**
     * The first page runs on the live index: no point in time, so a reader who never asks for a second
     * page leaves no search context open on Elasticsearch.
     */
    private Page firstPage(QueryText parsed, String text, Filters filters, int size, List<String> excludes)
            throws IOException {
        Page page = run(parsed, text, filters, size, true, null, null, excludes);
        if (page.total() == 0 && parsed.size() > 1) {
            long first = page.tookMs();
            Page any = run(parsed, text, filters, size, false, null, null, excludes);
            page = new Page(any.total(), any.matches(), any.facets(), any.nextCursor(), any.mode(), first + any.tookMs());
        }
        return page;
    }

    private static String hash(String text, Filters f) {
        return Sha256.hexPrefix(text + "\u0000" + f, 8);
    }

    /** The query for the text and filters; {@code all}: every required piece must match. */
    Query query(QueryText parsed, String text, Filters filters, boolean all) throws IOException {
        BoolQuery.Builder b = new BoolQuery.Builder();
        boolean fuzzy = parsed.size() <= FUZZY_MAX_PIECES;
        List<SearchCatalog.NameMatch> names = fuzzy ? catalog.names(parsed) : List.of();
        List<Query> required = new ArrayList<>();
        // Per required query: whether it may, on its own, let a read into the fall-back (not a stop word).
        List<Boolean> counts = new ArrayList<>();
        int i = 0;
        int next = 0;
        while (i < parsed.size()) {
            SearchCatalog.NameMatch name = next < names.size() && names.get(next).from() == i ? names.get(next++) : null;
            if (name != null) {
                // The words as typed, or any other name of the term, as a phrase.
                List<Query> alternatives = new ArrayList<>();
                List<QueryText.Piece> typed = new ArrayList<>();
                for (int g = name.from(); g < name.to(); g++) {
                    typed.add(parsed.groups().get(g).get(0));
                }
                alternatives.add(typed.size() == 1 ? piece(typed.get(0), fuzzy)
                        : bool(typed.stream().map(p -> piece(p, fuzzy)).toList(), true));
                for (String synonym : name.names()) {
                    alternatives.add(phrase(synonym, 1f));
                }
                required.add(bool(alternatives, false));
                counts.add(true);
                i = name.to();
            } else {
                List<QueryText.Piece> group = parsed.groups().get(i);
                required.add(bool(group.stream().map(p -> piece(p, fuzzy)).toList(), false));
                counts.add(!group.stream().allMatch(QueryWords::isStopWord));
                i++;
            }
        }
        if (required.isEmpty()) {
            b.must(m -> m.matchAll(a -> a));
        } else if (all) {
            b.must(required);
        } else {
            fallBack(b, required, counts);
        }
        for (QueryText.Piece p : parsed.excluded()) {
            b.mustNot(piece(p, false));
        }
        // Exact names lift the term's own read to the top.
        String plain = parsed.plain();
        if (!plain.isEmpty()) {
            b.should(s -> s.term(t -> t.field("title.exact").value(plain).boost(20f)));
            b.should(s -> s.term(t -> t.field("aliases.exact").value(plain).boost(15f)));
            SearchCatalog.TermNames named = catalog.termNamed(plain);
            if (named != null) {
                b.should(s -> s.term(t -> t.field("id").value("term:" + named.slug()).boost(20f)));
            }
        }
        filters(b, filters);
        return Query.of(q -> q.bool(b.build()));
    }

    /** Score of each non-stop piece a read has in the fall-back: far above any relevance score. */
    static final float FALLBACK_PIECE_SCORE = 10_000f;

    /**
     * The fall-back to some of the pieces: a read needs at least one piece that is not a stop word (a
     * lone "out" or "of" lets nothing in), and scores {@link #FALLBACK_PIECE_SCORE} per such piece it has,
     * so reads with more of the words rank first; relevance orders reads with as many.
     */
    private static void fallBack(BoolQuery.Builder b, List<Query> required, List<Boolean> counts) {
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

    private static void filters(BoolQuery.Builder b, Filters f) {
        if (!f.layers().isEmpty()) {
            b.filter(terms("layerIds", f.layers()));
        }
        if (!f.companies().isEmpty()) {
            b.filter(terms(f.primaryOnly() ? "primaryCompanySymbols" : "companySymbols", f.companies()));
        }
        if (!f.terms().isEmpty()) {
            b.filter(terms("termSlugs", f.terms()));
        }
        if (!f.kinds().isEmpty()) {
            b.filter(terms("kind", f.kinds()));
        }
        if (f.from() != null || f.to() != null) {
            b.filter(q -> q.range(r -> r.date(d -> {
                d.field("updatedAt");
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

    private static Query terms(String field, List<String> values) {
        return Query.of(q -> q.terms(t -> t.field(field)
                .terms(v -> v.value(values.stream().map(FieldValue::of).toList()))));
    }

    private static Query bool(List<Query> queries, boolean all) {
        if (queries.size() == 1) {
            return queries.get(0);
        }
        return Query.of(q -> q.bool(b -> all ? b.must(queries) : b.should(queries).minimumShouldMatch("1")));
    }

    /**
     * One word or phrase: text fields, plus the exact symbol for ticker-like pieces, plus the company's
     * tags when the piece names a company by any listing, id, name or alias ({@link QueryWords#company}).
     */
    private Query piece(QueryText.Piece p, boolean fuzzy) {
        Query text = textPiece(p, fuzzy);
        var company = QueryWords.company(p, companies);
        if (company.isEmpty()) {
            return text;
        }
        String id = company.get().getId();
        Query tagged = Query.of(q -> q.term(t -> t.field("companies.id").value(id).boost(3f)));
        return Query.of(q -> q.bool(b -> b.should(text, tagged).minimumShouldMatch("1")));
    }

    private static Query textPiece(QueryText.Piece p, boolean fuzzy) {
        if (p.phrase()) {
            return phrase(p.text(), 1f);
        }
        Query words = Query.of(q -> q.multiMatch(m -> {
            m.query(p.text()).fields(FIELDS).type(TextQueryType.BestFields).operator(Operator.And).tieBreaker(0.3);
            if (fuzzy && !p.tickerLike()) {
                m.fuzziness("AUTO:5,8").prefixLength(1).maxExpansions(10);
            }
            return m;
        }));
        if (!p.tickerLike()) {
            return words;
        }
        Query symbol = Query.of(q -> q.term(t -> t.field("companySymbols").value(p.text()).boost(3f)));
        return Query.of(q -> q.bool(b -> b.should(words, symbol).minimumShouldMatch("1")));
    }

    private static Query phrase(String text, float boost) {
        return Query.of(q -> q.multiMatch(m -> m.query(text).fields(FIELDS).type(TextQueryType.Phrase).boost(boost)));
    }

    /** One page; {@code pit} null runs on the live index (the first page). */
    private Page run(QueryText parsed, String text, Filters filters, int size, boolean all, String pit, Cursor after,
            List<String> excludes) throws IOException {
        Query query = query(parsed, text, filters, all);
        SearchAnswer response;
        try {
            response = SearchAnswer.search(client._transport(), PageRequests.request(query, size, pit, after, excludes));
        } catch (ElasticsearchException e) {
            if (after != null && e.status() == 404) {
                throw new GoneException("the cursor expired; search again from the first page");
            }
            throw e;
        }
        List<SearchAnswer.Hit> hits = response.hits() == null || response.hits().hits() == null ? List.of()
                : response.hits().hits();
        List<Match> matches = new ArrayList<>(hits.size());
        String lastId = null;
        double lastScore = 0;
        for (SearchAnswer.Hit hit : hits) {
            matches.add(match(hit));
            lastScore = ((Number) hit.sort().get(0)).doubleValue();
            lastId = (String) hit.sort().get(1);
        }
        long total = response.hits() == null || response.hits().total() == null ? matches.size()
                : response.hits().total().value();
        String nextPit = pit == null ? null : response.pitId() != null ? response.pitId() : pit;
        String next = null;
        if (matches.size() == size && lastId != null) {
            next = new Cursor(nextPit, all, lastScore, lastId, hash(text, filters)).encode();
        } else if (nextPit != null) {
            // The last page closes the point in time.
            closeQuietly(nextPit);
        }
        Map<String, List<FacetValue>> facets = new LinkedHashMap<>();
        for (String name : FACETS) {
            List<FacetValue> values = new ArrayList<>();
            for (SearchAnswer.Bucket bucket : response.buckets(name)) {
                String key = String.valueOf(bucket.key());
                String[] ref = "kind".equals(name) ? new String[] {key, key} : SearchCatalog.split(key);
                values.add(new FacetValue(ref[0], ref[1], bucket.docCount()));
            }
            facets.put(name, values);
        }
        List<FacetValue> months = new ArrayList<>();
        for (SearchAnswer.Bucket bucket : response.buckets("updated")) {
            months.add(new FacetValue(bucket.keyAsString(), bucket.keyAsString(), bucket.docCount()));
        }
        facets.put("updated", months);
        return new Page(total, matches, facets, next, all ? "all" : "any", response.took());
    }

    /** Closes a point in time without waiting for the answer (it expires on its own if this fails). */
    private void closeQuietly(String pit) {
        try {
            asyncClient.closePointInTime(c -> c.id(pit)).exceptionally(e -> null);
        } catch (RuntimeException e) {
            // It expires on its own.
        }
    }

    @SuppressWarnings("unchecked")
    private static Match match(SearchAnswer.Hit hit) {
        Map<String, Object> source = hit.source();
        Map<String, List<String>> highlight = hit.highlight() == null ? Map.of() : hit.highlight();
        List<String> snippets = new ArrayList<>();
        List<String> body = highlight.getOrDefault("sections.body", List.of());
        snippets.addAll(body);
        snippets.addAll(highlight.getOrDefault("summary", List.of()));
        String bestSection = null;
        if (!body.isEmpty()) {
            String plain = unhighlight(body.get(0));
            for (Map<String, Object> section : (List<Map<String, Object>>) source.getOrDefault("sections", List.of())) {
                if (section.get("body") instanceof String b && b.contains(plain)) {
                    bestSection = (String) section.get("key");
                    break;
                }
            }
        }
        return new Match(source, hit.score() == null ? 0 : hit.score(), snippets, bestSection);
    }

    /** The text of a highlighted, HTML-escaped fragment. */
    static String unhighlight(String fragment) {
        return fragment.replace("<mark>", "").replace("</mark>", "").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&quot;", "\"").replace("&#x27;", "'").replace("&#39;", "'").replace("&#x2F;", "/")
                .replace("&amp;", "&").strip();
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
     * @param ids read ids
     * @return the stored reads that exist, by id
     * @throws IOException on a transport failure
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Map<String, Map<String, Object>> getAll(List<String> ids) throws IOException {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        MgetResponse<Map> r = client.mget(m -> m.index(ReadsIndex.ALIAS).ids(ids), Map.class);
        for (MultiGetResponseItem<Map> item : r.docs()) {
            if (item.isResult() && item.result().found()) {
                GetResult<Map> g = item.result();
                out.put(g.id(), new LinkedHashMap<String, Object>(g.source()));
            }
        }
        return out;
    }

    /**
     * The newest reads tagged with a company (whichever of its listings the tag names).
     *
     * @param companyId the company id, e.g. {@code sk-hynix}
     * @param size   how many, 1..50
     * @return the reads, newest first
     * @throws IOException on a transport failure
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public List<Map<String, Object>> latestForCompany(String companyId, int size) throws IOException {
        SearchResponse<Map> response = client.search(s -> s
                .index(ReadsIndex.ALIAS)
                .query(q -> q.term(t -> t.field("companies.id").value(companyId)))
                .sort(o -> o.field(f -> f.field("updatedAt").order(co.elastic.clients.elasticsearch._types.SortOrder.Desc)))
                .size(size), Map.class);
        List<Map<String, Object>> out = new ArrayList<>();
        for (Hit<Map> hit : response.hits().hits()) {
            out.add(new LinkedHashMap<String, Object>(hit.source()));
        }
        return out;
    }
}
