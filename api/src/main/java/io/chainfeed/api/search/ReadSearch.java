package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch.ElasticsearchAsyncClient;
import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.JsonData;
import com.github.benmanes.caffeine.cache.Ticker;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.GoneException;
import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.embeddings.SentenceEmbedder;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.Sha256;
import io.chainfeed.schemas.ReadDocument;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Searches the reads index through its alias {@value ReadsIndex#ALIAS}: takes the text as
 * the request analysed it ({@link AnalysedQuery}: phrases, {@code -exclusion},
 * {@code OR}; never handed to Elasticsearch as query syntax, so any text is safe), builds
 * the query ({@link SearchQuery}: fields, boosts, synonyms, companies, the fall-back to
 * some of the words when no read has all of them), pages, facets and highlights, and
 * times each search ({@code chainfeed.search}). Stored reads by id: {@link ReadLookups}.
 *
 * <p>
 * Pages: sorted by score, then newest {@code updatedAt}, then id (a total order: ids are
 * unique), one result per story ({@link PageRequests}); later pages continue by offset.
 * The first page runs on the live index and opens nothing on Elasticsearch; the second
 * page opens a point in time (kept {@value #KEEP_ALIVE} between pages, closed by the last
 * page) and every later page runs in it, so from the second page on a cursor never
 * repeats or skips a read, even while the index changes. Between the first and the second
 * page a read whose score changed in the meantime (an edit, or new reads shifting the
 * term statistics) can cross the boundary between those two pages. Facets count the
 * filtered matches. Highlights are HTML-escaped with {@code <mark>} tags, the
 * best-scoring section fragment first.
 */
@Component
public class ReadSearch {

    private static final Logger log = LoggerFactory.getLogger(ReadSearch.class);

    static final String KEEP_ALIVE = "2m";

    private final ElasticsearchClient client;

    private final ElasticsearchAsyncClient asyncClient;

    private final SearchQuery queries;

    private final FirstPageCache firstPages;

    /** The hybrid ranking's settings. */
    private final ApiProperties.Hybrid hybrid;

    /** Query vectors; null when hybrid ranking is off. */
    private final QueryVectors vectors;

    private final RankFusion fusion;

    /** The fusion of a page in {@code any} mode. */
    private final RankFusion fallBackFusion;

    /** The search timer of each outcome (ok, refused, error), registered at start. */
    private final Map<String, Timer> timers;

    /**
     * @param client the Elasticsearch client
     * @param companies resolves pieces that name a company
     * @param layers the chain layers' upstream layers (a question about a company's
     * suppliers lifts the terms of the layers it buys from)
     * @param cacheTtl how long a first page is kept for identical requests
     * ({@link FirstPageCache}: {@code chainfeed.api.search.cache-ttl}, at most the reads
     * index's 1 s refresh interval; 0 turns it off)
     * @param meters where the {@code chainfeed.search} timer (per outcome: ok, refused,
     * error) is registered
     * @param settings the hybrid ranking's settings
     * ({@code chainfeed.api.search.hybrid.*}); when it is on, the sentence model is
     * loaded here
     */
    ReadSearch(ElasticsearchClient client, CompanyResolver companies, ReferenceLayers layers, MeterRegistry meters,
            ApiProperties settings) {
        this.client = client;
        this.asyncClient = new ElasticsearchAsyncClient(client._transport());
        this.queries = new SearchQuery(companies,
                id -> layers.layer(id).map(ChainLayer::getUpstream).orElse(List.of()));
        this.firstPages = new FirstPageCache(settings.search().cacheTtl(), Ticker.systemTicker());
        this.hybrid = settings.search().hybrid();
        this.fusion = new RankFusion(hybrid.k(), hybrid.vectorWeight(), hybrid.minSimilarity());
        this.fallBackFusion = new RankFusion(hybrid.k(), hybrid.fallBackVectorWeight(), hybrid.minSimilarity());
        this.vectors = hybrid.enabled()
                ? new QueryVectors(SentenceEmbedder.shared()::embed, hybrid.cachedQueries(), meters) : null;
        Map<String, Timer> byOutcome = new HashMap<>();
        for (String outcome : List.of("ok", "refused", "error")) {
            byOutcome.put(outcome,
                    Timer.builder("chainfeed.search")
                        .description("Searches of the reads index, Elasticsearch round trips included")
                        .tag("outcome", outcome)
                        .publishPercentileHistogram()
                        .register(meters));
        }
        this.timers = Map.copyOf(byOutcome);
    }

    /**
     * Filters, all optional; values of one filter are OR'ed, filters are AND'ed.
     *
     * @param layers layer ids
     * @param companies company symbols, exact (e.g. {@code 2345.TW})
     * @param primaryOnly companies must be a primary subject of the read, not a passing
     * mention
     * @param terms related-term slugs
     * @param kinds {@code term}, {@code signal}, {@code state}
     * @param from updated at or after
     * @param to updated before
     */
    public record Filters(List<String> layers, List<String> companies, boolean primaryOnly, List<String> terms,
            List<String> kinds, Instant from, Instant to) {
        static final Filters NONE = new Filters(List.of(), List.of(), false, List.of(), List.of(), null, null);

    }

    /**
     * One search hit.
     *
     * @param source the stored read document
     * @param score relevance score
     * @param snippets highlighted fragments, HTML-escaped, matches wrapped in
     * {@code <mark>}, best first
     * @param bestSection the key of the section the best fragment comes from, or null
     * @param alsoFrom the other reads of its story (reposts,
     * {@link io.chainfeed.schemas.Stories}), newest first, at most
     * {@link PageRequests#MAX_REPOSTS} less one: id, sources and observedAt of each;
     * empty when it has none
     * @param reposts how many other reads its story has in all (matching the query)
     */
    public record Match(ReadDocument source, double score, List<String> snippets, String bestSection,
            List<ReadDocument> alsoFrom, long reposts) {
        /** A match without reposts. */
        public Match(ReadDocument source, double score, List<String> snippets, String bestSection) {
            this(source, score, snippets, bestSection, List.of(), 0);
        }
    }

    /** A facet value with its count. */
    public record FacetValue(String value, String label, long count) {
    }

    /**
     * A page of results.
     *
     * @param total total matching reads
     * @param matches matches, best first
     * @param facets facet name to values with counts (layer, company, term, kind,
     * updated)
     * @param nextCursor cursor of the next page, null on the last
     * @param mode {@link SearchMode#ALL} (every piece matched) or {@link SearchMode#ANY}
     * (the fall-back)
     * @param tookMs time Elasticsearch spent on the searches of this page
     * @param sections a first page's sections ({@link #sections}); null on later pages
     * and without matches
     * @param withAll how many reads have every word: {@code total} in mode {@code all};
     * in mode {@code any} on a first page, the reads that come first (0 when none has
     * them all); -1 unknown
     */
    public record Page(long total, List<Match> matches, Map<String, List<FacetValue>> facets, String nextCursor,
            SearchMode mode, long tookMs, Sections sections, long withAll) {
        /** A page without sections. */
        public Page(long total, List<Match> matches, Map<String, List<FacetValue>> facets, String nextCursor,
                SearchMode mode, long tookMs) {
            this(total, matches, facets, nextCursor, mode, tookMs, null, mode.all() ? total : -1);
        }
    }

    /**
     * How a first page ranks its reads.
     */
    public enum Ranking {

        /**
         * The lexical ranking fused with the reads nearest the query's meaning
         * ({@link RankFusion}), when {@code chainfeed.api.search.hybrid.enabled}; else as
         * {@link #LEXICAL}.
         */
        HYBRID,

        /** The words alone, as before issue 40. */
        LEXICAL

    }

    /**
     * @param query the user's text, analysed ({@link QueryAnalyser})
     * @param filters filters
     * @param size page size, 1..50
     * @param cursor the previous page's {@code nextCursor}, or null for the first page
     * @param evidence whether the matches' sources keep the tag evidence of
     * {@code layers}, {@code companies} and {@code terms} entries (about a third of a
     * stored read); without it Elasticsearch leaves it out of the answer
     * ({@link PageRequests#WITHOUT_EVIDENCE}), except the company evidence of a query
     * that names a company (company snippets quote it) and the rule of each term evidence
     * (related terms)
     * @param ranking how the first page ranks; the pages after a hybrid first page go on
     * in lexical order, leaving out what it showed ({@link Cursor#shown})
     * @return a page of matches; sources never hold the index-only keys of
     * {@link PageRequests#INDEX_ONLY}
     * @throws IOException on a transport failure
     */
    public Page search(AnalysedQuery query, Filters filters, int size, String cursor, boolean evidence, Ranking ranking)
            throws IOException {
        Timer.Sample sample = Timer.start();
        String outcome = "error";
        try {
            Page page = searchUntimed(query, filters, size, cursor, evidence, ranking);
            outcome = "ok";
            return page;
        }
        catch (BadRequestException | GoneException e) {
            outcome = "refused";
            throw e;
        }
        finally {
            sample.stop(timers.get(outcome));
        }
    }

    private Page searchUntimed(AnalysedQuery query, Filters filters, int size, String cursor, boolean evidence,
            Ranking ranking) throws IOException {
        if (query.parsed().isEmpty()) {
            return new Page(0, List.of(), Map.of(), null, SearchMode.ALL, 0);
        }
        String text = query.text();
        String hash = hash(text, filters);
        List<String> excludes = PageRequests.excludes(evidence, !query.companies().isEmpty());
        if (cursor != null) {
            Cursor c = Cursor.decode(cursor);
            if (!c.queryHash().equals(hash)) {
                throw new BadRequestException("invalid-cursor", "the cursor belongs to another query or other filters");
            }
            if (c.pit() != null) {
                return run(query, filters, size, c.all(), c.pit(), c, excludes);
            }
            // The second page opens the point in time that it and the pages after it run
            // in.
            String pit = client.openPointInTime(o -> o.index(ReadsIndex.ALIAS).keepAlive(t -> t.time(KEEP_ALIVE))).id();
            try {
                return run(query, filters, size, c.all(), pit, c, excludes);
            }
            catch (IOException | RuntimeException e) {
                closeQuietly(pit);
                throw e;
            }
        }
        boolean hybrid = ranking == Ranking.HYBRID && vectors != null;
        return firstPages.get(new FirstPageCache.Key(text, filters, size, evidence, hybrid), () -> firstPage(query,
                filters, size, excludes, hybrid ? vectors.of(vectorText(query.parsed(), text)) : null));
    }

    /**
     * The text a query's vector is made of: its required words and phrases, without the
     * operators ({@code -excluded}, {@code OR}); the text as given when it has none.
     */
    static String vectorText(QueryText parsed, String text) {
        String plain = parsed.plain();
        return plain.isBlank() ? text : plain;
    }

    /**
     * The first page runs on the live index: no point in time, so a reader who never asks
     * for a second page leaves no search context open on Elasticsearch. The page, its
     * sections and, on a hybrid page, the vector search go in one multi-search (one round
     * trip, the searches run side by side on Elasticsearch); the sections are asked with
     * every word required; when the page falls back to some of the words, they are taken
     * from its matches ({@link PageSections#sectionsOf}). A vector search that fails
     * leaves the page lexical.
     * @param vector the query's vector, null for a lexical page
     */
    private Page firstPage(AnalysedQuery query, Filters filters, int size, List<String> excludes, float[] vector)
            throws IOException {
        List<SearchRequest> requests = vector == null ? PageRequests.firstPage(queries, query, filters, size, excludes)
                : PageRequests.hybridFirstPage(queries, query, filters, size, excludes, vector, hybrid.window());
        List<SearchAnswer> answers = SearchAnswer.msearch(client._transport(), requests);
        ElasticsearchException failed = answers.get(0).failure("es/msearch");
        if (failed != null) {
            throw failed;
        }
        SearchAnswer whole = answers.get(0).whole();
        List<SearchAnswer.Hit> nearest = vector == null ? List.of() : vectorHits(answers.get(3));
        Page page = assemble(whole, queries.build(query, filters, true), query, excludes, nearest, filters, size, true);
        Sections sections = PageSections.sections(answers.subList(1, 3));
        long withAll = total(whole);
        if (FallBack.wanted(query, withAll, size)) {
            // Fewer reads than a page have every word: the fall-back ranks them first
            // (they have the most words), then the reads with some of the words.
            Query anyQuery = queries.build(query, filters, false);
            SearchAnswer any = SearchAnswer.search(client._transport(), PageRequests.request(anyQuery,
                    queries.highlight(query, filters, false), size, null, null, excludes));
            if (total(any) > withAll) {
                Page anyPage = assemble(any, anyQuery, query, excludes, nearest, filters, size, false);
                page = new Page(anyPage.total(), anyPage.matches(), anyPage.facets(), anyPage.nextCursor(),
                        anyPage.mode(), page.tookMs() + anyPage.tookMs(), null, withAll);
                sections = PageSections.sectionsOf(anyPage.matches(), filters);
            }
        }
        if (page.total() == 0) {
            return page;
        }
        // Kept with the page in the first-page cache: identical requests share the
        // sections' search too.
        return new Page(page.total(), page.matches(), page.facets(), page.nextCursor(), page.mode(), page.tookMs(),
                sections, page.withAll());
    }

    /** The hits of the vector search; none when it failed (logged). */
    private static List<SearchAnswer.Hit> vectorHits(SearchAnswer answer) {
        if (answer.error() != null) {
            log.warn("the vector search of a first page failed, the page is lexical: {}", answer.error());
            return List.of();
        }
        return hits(answer);
    }

    private static List<SearchAnswer.Hit> hits(SearchAnswer answer) {
        return answer.hits() == null || answer.hits().hits() == null ? List.of() : answer.hits().hits();
    }

    private static long total(SearchAnswer answer) {
        return answer.hits() == null || answer.hits().total() == null ? hits(answer).size()
                : answer.hits().total().value();
    }

    /**
     * A first page from its lexical answer and, on a hybrid page, the vector hits: both
     * rankings fused by {@link #fusion} ({@link #fallBackFusion} on a page of some of the
     * words), one result per story, the first {@code size} kept. The next page's cursor
     * goes on in lexical order after the longest run of lexical results the page showed
     * from the first, leaving out the stories it showed beyond that run. {@code total} is
     * the lexical total, or the results shown when the page shows more (a read found by
     * meaning alone further down is not counted).
     */
    private Page assemble(SearchAnswer lexical, Query query, AnalysedQuery analysed, List<String> excludes,
            List<SearchAnswer.Hit> nearest, Filters filters, int size, boolean all) throws IOException {
        String text = analysed.text();
        List<SearchAnswer.Hit> lexicalHits = hits(lexical);
        if (nearest.isEmpty()) {
            return page(lexical, lexicalHits, stories(query, lexicalHits, null, true), text, filters, size, all, null,
                    null, null);
        }
        Map<String, SearchAnswer.Hit> byKey = new LinkedHashMap<>();
        List<String> lexicalKeys = new ArrayList<>();
        for (SearchAnswer.Hit hit : lexicalHits) {
            String key = storyOf(hit);
            lexicalKeys.add(key);
            byKey.putIfAbsent(key, hit);
        }
        List<RankFusion.VectorHit> vectorKeys = new ArrayList<>();
        for (SearchAnswer.Hit hit : nearest) {
            String key = storyOf(hit);
            vectorKeys
                .add(new RankFusion.VectorHit(key, ReadsIndex.cosineOfScore(hit.score() == null ? 0 : hit.score())));
            byKey.putIfAbsent(key, hit);
        }
        List<SearchAnswer.Hit> shownHits = new ArrayList<>();
        Set<String> shownKeys = new HashSet<>();
        List<String> fetch = new ArrayList<>();
        for (RankFusion.Fused f : (all ? fusion : fallBackFusion).fuse(lexicalKeys, vectorKeys)) {
            if (shownHits.size() == size) {
                break;
            }
            SearchAnswer.Hit hit = byKey.get(f.key());
            shownHits.add(hit);
            shownKeys.add(f.key());
            if (f.lexicalRank() == 0) {
                fetch.add(hit.source().id());
            }
        }
        if (!fetch.isEmpty()) {
            // The vector hits carry ids only: the ones shown are fetched whole.
            Map<String, SearchAnswer.Hit> whole = new HashMap<>();
            for (SearchAnswer.Hit hit : hits(SearchAnswer.search(client._transport(),
                    PageRequests.byIds(fetch, queries.highlight(analysed, filters, all), excludes)))) {
                whole.put(hit.source().id(), hit);
            }
            shownHits.replaceAll(h -> whole.getOrDefault(h.source().id(), h));
            shownHits.removeIf(h -> h.source().title() == null);
        }
        int prefix = 0;
        while (prefix < lexicalKeys.size() && shownKeys.contains(lexicalKeys.get(prefix))) {
            prefix++;
        }
        Set<String> inPrefix = new HashSet<>(lexicalKeys.subList(0, prefix));
        List<String> beyond = shownKeys.stream().filter(k -> !inPrefix.contains(k)).sorted().toList();
        Page page = page(lexical, shownHits, stories(query, shownHits, null, true), text, filters, size, all, null,
                null, new Cursor(null, all, 0, "", hash(text, filters), prefix, beyond));
        return new Page(Math.max(page.total(), page.matches().size()), page.matches(), page.facets(), page.nextCursor(),
                page.mode(), page.tookMs());
    }

    /** A hit's story key; a hit without one (an older document) is its own story. */
    private static String storyOf(SearchAnswer.Hit hit) {
        String story = hit.source() == null ? null : hit.source().story();
        return story != null ? story : Matches.OWN_STORY + hit.source().id();
    }

    private static String hash(String text, Filters f) {
        return Sha256.hexPrefix(text + "\u0000" + f, 8);
    }

    /** One page after the first, in a point in time. */
    private Page run(AnalysedQuery analysed, Filters filters, int size, boolean all, String pit, Cursor after,
            List<String> excludes) throws IOException {
        String text = analysed.text();
        Query query = queries.build(analysed, filters, all);
        SearchAnswer response;
        try {
            response = SearchAnswer.search(client._transport(),
                    PageRequests.request(query, queries.highlight(analysed, filters, all), size, pit, after, excludes));
        }
        catch (ElasticsearchException e) {
            if (after != null && e.status() == 404) {
                throw new GoneException("the cursor expired; search again from the first page");
            }
            throw e;
        }
        boolean collapsed = after == null || after.offset() >= 0;
        List<SearchAnswer.Hit> hits = hits(response);
        return page(response, hits, stories(query, hits, pit, collapsed), text, filters, size, all, pit, after, null);
    }

    /**
     * The stories of a collapsed page's signal reads (the only reads that can have
     * reposts), in one search ({@link PageRequests#reposts}).
     * @return the stories by key; empty when the page is not collapsed or has no signal
     */
    private Map<String, Matches.Story> stories(Query query, List<SearchAnswer.Hit> hits, String pit, boolean collapsed)
            throws IOException {
        if (!collapsed || hits.isEmpty()) {
            return Map.of();
        }
        List<String> keys = hits.stream()
            .map(h -> h.source() == null ? null : h.source().story())
            .filter(key -> key != null && !key.startsWith(Matches.OWN_STORY))
            .distinct()
            .toList();
        if (keys.isEmpty()) {
            return Map.of();
        }
        SearchResponse<Void> r = client.search(PageRequests.reposts(query, keys, pit), Void.class);
        Map<String, Matches.Story> stories = new HashMap<>();
        for (StringTermsBucket bucket : r.aggregations().get(PageRequests.STORIES).sterms().buckets().array()) {
            List<ReadDocument> newest = new ArrayList<>();
            for (Hit<JsonData> hit : bucket.aggregations().get(PageRequests.REPOSTS).topHits().hits().hits()) {
                if (hit.source() != null) {
                    newest.add(hit.source().to(ReadDocument.class));
                }
            }
            stories.put(bucket.key().stringValue(), new Matches.Story(bucket.docCount(), newest));
        }
        return stories;
    }

    /**
     * The page of an answer; {@code pit} and {@code after} as the search had them.
     * @param hits the hits shown, in order
     * @param hybridNext on a hybrid first page, the next page's cursor less its point in
     * time and last hit; null otherwise
     */
    private Page page(SearchAnswer response, List<SearchAnswer.Hit> hits, Map<String, Matches.Story> stories,
            String text, Filters filters, int size, boolean all, String pit, Cursor after, Cursor hybridNext) {
        List<Match> matches = new ArrayList<>(hits.size());
        String lastId = null;
        double lastScore = 0;
        for (SearchAnswer.Hit hit : hits) {
            matches.add(Matches.match(hit, stories));
            lastScore = hit.sort() == null || hit.sort().isEmpty() ? 0 : ((Number) hit.sort().get(0)).doubleValue();
            // The id from the source: in a point in time Elasticsearch adds its own
            // tie-breaker to the sort values.
            lastId = hit.source().id();
        }
        int offset = hybridNext != null ? hybridNext.offset()
                : after == null ? matches.size() : after.offset() < 0 ? -1 : after.offset() + matches.size();
        List<String> shown = hybridNext != null ? hybridNext.shown() : after == null ? List.of() : after.shown();
        long total = response.hits() == null || response.hits().total() == null ? matches.size()
                : response.hits().total().value();
        String nextPit = pit == null ? null : response.pitId() != null ? response.pitId() : pit;
        String next = null;
        if (matches.size() == size && lastId != null && offset + size <= PageRequests.MAX_OFFSET) {
            next = new Cursor(nextPit, all, lastScore, lastId, hash(text, filters), offset, shown).encode();
        }
        else if (nextPit != null) {
            // The last page closes the point in time.
            closeQuietly(nextPit);
        }
        Map<String, List<FacetValue>> facets = Matches.facets(response);
        return new Page(total, matches, facets, next, SearchMode.of(all), response.took());
    }

    /**
     * The answer's sections, each ranked on its own: the term reads that explain what the
     * query asks about (best match first) and the newest signals about it (newest
     * {@code observedAt} first, one per story).
     *
     * @param terms at most {@link PageSections#SECTION_TERMS} term reads, the
     * {@link PageSections#SECTION_KEYS} of their stored documents
     * @param signals at most {@link PageSections#SECTION_SIGNALS} signal reads, the
     * {@link PageSections#SECTION_KEYS} of their stored documents
     */
    public record Sections(List<ReadDocument> terms, List<ReadDocument> signals) {
    }

    /**
     * Closes a point in time without waiting for the answer (it expires on its own if
     * this fails).
     */
    private void closeQuietly(String pit) {
        try {
            asyncClient.closePointInTime(c -> c.id(pit)).exceptionally(e -> null);
        }
        catch (RuntimeException e) {
            // It expires on its own.
        }
    }

}
