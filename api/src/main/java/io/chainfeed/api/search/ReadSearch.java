package io.chainfeed.api.search;

import io.chainfeed.api.reads.ReadLookups;

import co.elastic.clients.elasticsearch.ElasticsearchAsyncClient;
import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.JsonData;
import com.github.benmanes.caffeine.cache.Ticker;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.GoneException;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.Sha256;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Searches the reads index through its alias {@value ReadsIndex#ALIAS}: parses the text
 * ({@link QueryText}: phrases, {@code -exclusion}, {@code OR}; never handed to
 * Elasticsearch as query syntax, so any text is safe), builds the query
 * ({@link SearchQuery}: fields, boosts, synonyms, companies, the fall-back to some of the
 * words when no read has all of them), pages, facets and highlights, and times each
 * search ({@code chainfeed.search}). Stored reads by id: {@link ReadLookups}.
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

    /** The terms facets of a page, in the order of the answer's {@code facets}. */
    private static final List<String> FACETS = List.of("layer", "company", "term", "kind");

    /**
     * Most pieces (required and excluded) a query may have: a real limit, answered with a
     * 400.
     */
    public static final int MAX_PIECES = 48;
    static final String KEEP_ALIVE = "2m";

    private final ElasticsearchClient client;

    private final ElasticsearchAsyncClient asyncClient;

    private final SearchQuery queries;

    private final CompanyResolver companies;

    private final FirstPageCache firstPages;

    /** The search timer of each outcome (ok, refused, error), registered at start. */
    private final Map<String, Timer> timers;

    /**
     * @param client the Elasticsearch client
     * @param catalog the glossary terms' names, for synonyms ({@link SearchQuery})
     * @param companies resolves pieces that name a company
     * @param layers the chain layers' names and aliases (a query naming one lifts its
     * reads)
     * @param cacheTtl how long a first page is kept for identical requests
     * ({@link FirstPageCache}: {@code chainfeed.api.search.cache-ttl}, at most the reads
     * index's 1 s refresh interval; 0 turns it off)
     * @param meters where the {@code chainfeed.search} timer (per outcome: ok, refused,
     * error) is registered
     */
    ReadSearch(ElasticsearchClient client, SearchCatalog catalog, CompanyResolver companies, ReferenceLayers layers,
            @Value("${chainfeed.api.search.cache-ttl:1s}") Duration cacheTtl, MeterRegistry meters) {
        this.client = client;
        this.asyncClient = new ElasticsearchAsyncClient(client._transport());
        this.queries = new SearchQuery(catalog, companies,
                words -> TopResults.layerNamed(layers.all(), words).map(ChainLayer::getId),
                id -> layers.layer(id).map(ChainLayer::getUpstream).orElse(List.of()));
        this.companies = companies;
        this.firstPages = new FirstPageCache(cacheTtl, Ticker.systemTicker());
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
    public record Match(Map<String, Object> source, double score, List<String> snippets, String bestSection,
            List<Map<String, Object>> alsoFrom, long reposts) {
        /** A match without reposts. */
        public Match(Map<String, Object> source, double score, List<String> snippets, String bestSection) {
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
     * @param mode {@code all} (every piece matched) or {@code any} (the fall-back)
     * @param tookMs time Elasticsearch spent on the searches of this page
     * @param sections a first page's sections ({@link #sections}); null on later pages
     * and without matches
     * @param withAll how many reads have every word: {@code total} in mode {@code all};
     * in mode {@code any} on a first page, the reads that come first (0 when none has
     * them all); -1 unknown
     */
    public record Page(long total, List<Match> matches, Map<String, List<FacetValue>> facets, String nextCursor,
            String mode, long tookMs, Sections sections, long withAll) {
        /** A page without sections. */
        public Page(long total, List<Match> matches, Map<String, List<FacetValue>> facets, String nextCursor,
                String mode, long tookMs) {
            this(total, matches, facets, nextCursor, mode, tookMs, null, "all".equals(mode) ? total : -1);
        }
    }

    /** Search with no filters, first page. */
    public Page search(String text, int size) throws IOException {
        return search(text, Filters.NONE, size, null);
    }

    /**
     * @param text the user's text (any characters)
     * @param filters filters
     * @param size page size, 1..50
     * @param cursor the previous page's {@code nextCursor}, or null for the first page
     * @return a page of matches
     * @throws IOException on a transport failure
     */
    public Page search(String text, Filters filters, int size, String cursor) throws IOException {
        return search(text, filters, size, cursor, true);
    }

    /**
     * @param text the user's text (any characters)
     * @param filters filters
     * @param size page size, 1..50
     * @param cursor the previous page's {@code nextCursor}, or null for the first page
     * @param evidence whether the matches' sources keep the tag evidence of
     * {@code layers}, {@code companies} and {@code terms} entries (about a third of a
     * stored read); without it Elasticsearch leaves it out of the answer
     * ({@link PageRequests#WITHOUT_EVIDENCE}), except the company evidence of a query
     * that names a company (company snippets quote it) and the rule of each term evidence
     * (related terms)
     * @return a page of matches; sources never hold the index-only keys of
     * {@link PageRequests#INDEX_ONLY}
     * @throws IOException on a transport failure
     */
    public Page search(String text, Filters filters, int size, String cursor, boolean evidence) throws IOException {
        Timer.Sample sample = Timer.start();
        String outcome = "error";
        try {
            Page page = searchUntimed(text, filters, size, cursor, evidence);
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

    private Page searchUntimed(String text, Filters filters, int size, String cursor, boolean evidence)
            throws IOException {
        QueryText parsed = QueryText.parse(text);
        if (parsed.groups().size() + parsed.excluded().size() > MAX_PIECES) {
            throw new BadRequestException("query-too-long", "at most " + MAX_PIECES + " words or phrases per query");
        }
        if (parsed.isEmpty()) {
            return new Page(0, List.of(), Map.of(), null, "all", 0);
        }
        String hash = hash(text, filters);
        List<String> excludes = PageRequests.excludes(evidence, !QueryWords.companies(parsed, companies).isEmpty());
        if (cursor != null) {
            Cursor c = Cursor.decode(cursor);
            if (!c.queryHash().equals(hash)) {
                throw new BadRequestException("invalid-cursor", "the cursor belongs to another query or other filters");
            }
            if (c.pit() != null) {
                return run(parsed, text, filters, size, c.all(), c.pit(), c, excludes);
            }
            // The second page opens the point in time that it and the pages after it run
            // in.
            String pit = client.openPointInTime(o -> o.index(ReadsIndex.ALIAS).keepAlive(t -> t.time(KEEP_ALIVE))).id();
            try {
                return run(parsed, text, filters, size, c.all(), pit, c, excludes);
            }
            catch (IOException | RuntimeException e) {
                closeQuietly(pit);
                throw e;
            }
        }
        return firstPages.get(new FirstPageCache.Key(text, filters, size, evidence),
                () -> firstPage(parsed, text, filters, size, excludes));
    }

    /**
     * The first page runs on the live index: no point in time, so a reader who never asks
     * for a second page leaves no search context open on Elasticsearch. The page and its
     * sections go in one multi-search (one round trip, the searches run side by side on
     * Elasticsearch); the sections are asked with every word required; when the page
     * falls back to some of the words, they are taken from its matches
     * ({@link #sectionsOf}).
     */
    private Page firstPage(QueryText parsed, String text, Filters filters, int size, List<String> excludes)
            throws IOException {
        List<SearchAnswer> answers = SearchAnswer.msearch(client._transport(),
                firstPageRequests(queries, parsed, filters, size, excludes));
        ElasticsearchException failed = answers.get(0).failure("es/msearch");
        if (failed != null) {
            throw failed;
        }
        SearchAnswer whole = answers.get(0).whole();
        Page page = page(whole, stories(queries.build(parsed, filters, true), whole, null, true), text, filters, size,
                true, null, null);
        Sections sections = sections(answers.subList(1, answers.size()));
        if (page.total() < size && QueryIntent.of(parsed).counted() > 1) {
            // Fewer reads than a page have every word: the fall-back ranks them first
            // (they have the most words), then the reads with some of the words, as
            // Algolia's optional words do.
            long first = page.tookMs();
            long withAll = page.total();
            Page any = run(parsed, text, filters, size, false, null, null, excludes);
            if (any.total() > withAll) {
                page = new Page(any.total(), any.matches(), any.facets(), any.nextCursor(), any.mode(),
                        first + any.tookMs(), null, withAll);
                sections = sectionsOf(any.matches(), filters);
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

    private static String hash(String text, Filters f) {
        return Sha256.hexPrefix(text + "\u0000" + f, 8);
    }

    /** One page; {@code pit} null runs on the live index (the first page). */
    private Page run(QueryText parsed, String text, Filters filters, int size, boolean all, String pit, Cursor after,
            List<String> excludes) throws IOException {
        Query query = queries.build(parsed, filters, all);
        SearchAnswer response;
        try {
            response = SearchAnswer.search(client._transport(),
                    PageRequests.request(query, queries.highlight(parsed, filters, all), size, pit, after, excludes));
        }
        catch (ElasticsearchException e) {
            if (after != null && e.status() == 404) {
                throw new GoneException("the cursor expired; search again from the first page");
            }
            throw e;
        }
        boolean collapsed = after == null || after.offset() >= 0;
        return page(response, stories(query, response, pit, collapsed), text, filters, size, all, pit, after);
    }

    /**
     * How the story key of a read that is not a signal starts: such a read is its own
     * story (ReadDocuments.story), so it has no reposts.
     */
    private static final String OWN_STORY = "read\n";

    /** A story's reads that match a page's query: how many, and the newest of them. */
    private record Story(long count, List<Map<String, Object>> newest) {
    }

    /**
     * The stories of a collapsed page's signal reads (the only reads that can have
     * reposts), in one search ({@link PageRequests#reposts}).
     * @return the stories by key; empty when the page is not collapsed or has no signal
     */
    @SuppressWarnings({ "unchecked", "rawtypes" })
    private Map<String, Story> stories(Query query, SearchAnswer response, String pit, boolean collapsed)
            throws IOException {
        if (!collapsed || response.hits() == null || response.hits().hits() == null) {
            return Map.of();
        }
        List<String> keys = response.hits()
            .hits()
            .stream()
            .map(h -> h.source() == null ? null : h.source().get("story"))
            .filter(k -> k instanceof String key && !key.startsWith(OWN_STORY))
            .map(String.class::cast)
            .distinct()
            .toList();
        if (keys.isEmpty()) {
            return Map.of();
        }
        SearchResponse<Map> r = client.search(PageRequests.reposts(query, keys, pit), Map.class);
        Map<String, Story> stories = new HashMap<>();
        for (StringTermsBucket bucket : r.aggregations().get(PageRequests.STORIES).sterms().buckets().array()) {
            List<Map<String, Object>> newest = new ArrayList<>();
            for (Hit<JsonData> hit : bucket.aggregations().get(PageRequests.REPOSTS).topHits().hits().hits()) {
                if (hit.source() != null) {
                    newest.add(hit.source().to(Map.class));
                }
            }
            stories.put(bucket.key().stringValue(), new Story(bucket.docCount(), newest));
        }
        return stories;
    }

    /** The page of an answer; {@code pit} and {@code after} as the search had them. */
    private Page page(SearchAnswer response, Map<String, Story> stories, String text, Filters filters, int size,
            boolean all, String pit, Cursor after) {
        List<SearchAnswer.Hit> hits = response.hits() == null || response.hits().hits() == null ? List.of()
                : response.hits().hits();
        List<Match> matches = new ArrayList<>(hits.size());
        String lastId = null;
        double lastScore = 0;
        for (SearchAnswer.Hit hit : hits) {
            matches.add(match(hit, stories));
            lastScore = hit.sort() == null ? 0 : ((Number) hit.sort().get(0)).doubleValue();
            // The id from the source: in a point in time Elasticsearch adds its own
            // tie-breaker to the sort values.
            lastId = (String) hit.source().get("id");
        }
        int offset = after == null ? matches.size() : after.offset() < 0 ? -1 : after.offset() + matches.size();
        long total = response.hits() == null || response.hits().total() == null ? matches.size()
                : response.hits().total().value();
        String nextPit = pit == null ? null : response.pitId() != null ? response.pitId() : pit;
        String next = null;
        if (matches.size() == size && lastId != null && offset + size <= PageRequests.MAX_OFFSET) {
            next = new Cursor(nextPit, all, lastScore, lastId, hash(text, filters), offset).encode();
        }
        else if (nextPit != null) {
            // The last page closes the point in time.
            closeQuietly(nextPit);
        }
        Map<String, List<FacetValue>> facets = facets(response);
        return new Page(total, matches, facets, next, all ? "all" : "any", response.took());
    }

    /**
     * The answer's sections, each ranked on its own: the term reads that explain what the
     * query asks about (best match first) and the newest signals about it (newest
     * {@code observedAt} first, one per story).
     *
     * @param terms at most {@link #SECTION_TERMS} term reads, the {@link #SECTION_KEYS}
     * of their stored documents
     * @param signals at most {@link #SECTION_SIGNALS} signal reads, the
     * {@link #SECTION_KEYS} of their stored documents
     */
    public record Sections(List<Map<String, Object>> terms, List<Map<String, Object>> signals) {
    }

    /** Term reads in the answer's term section. */
    static final int SECTION_TERMS = 2;

    /** Signal reads in the answer's newest-signals section. */
    static final int SECTION_SIGNALS = 5;

    /**
     * The source keys the sections show (what {@code SearchController} reads of each term
     * and signal): Elasticsearch sends only these, not the reads' long sections and tags.
     */
    static final List<String> SECTION_KEYS = List.of("id", "slug", "title", "summary", "observedAt", "layers.id",
            "layers.primary", "signal.direction", "signal.magnitude", "sources");

    /**
     * The searches of a first page in full-word mode, as {@link #firstPage} sends them in
     * one multi-search: the page ({@link PageRequests#request}), then the two sections'
     * ({@link #sectionRequests}). {@code api/load/search-load.sh} sends Elasticsearch the
     * same searches, as {@code SearchLoadBodyTest} checks.
     * @param queries the query builder
     * @param parsed the parsed text, not empty
     * @param filters the filters
     * @param size the page size
     * @param excludes the source keys left out of the page's hits
     * @return three searches
     * @throws IOException if the glossary names could not be loaded
     */
    static List<SearchRequest> firstPageRequests(SearchQuery queries, QueryText parsed, Filters filters, int size,
            List<String> excludes) throws IOException {
        List<SearchRequest> requests = new ArrayList<>(3);
        requests.add(PageRequests.request(queries.build(parsed, filters, true),
                queries.highlight(parsed, filters, true), size, null, null, excludes));
        requests.addAll(sectionRequests(queries, parsed, filters));
        return requests;
    }

    /**
     * The two searches of the sections: the best {@link #SECTION_TERMS} term reads, and
     * the newest {@link #SECTION_SIGNALS} signal reads (newest {@code observedAt} first,
     * one per story), each with the page's filters; a kind filter that leaves a kind out
     * asks for none of it.
     */
    private static List<SearchRequest> sectionRequests(SearchQuery queries, QueryText parsed, Filters filters)
            throws IOException {
        boolean wantTerms = wants(filters, "term");
        boolean wantSignals = wants(filters, "signal");
        Query terms = queries.build(parsed, withKind(filters, "term"), true);
        Query signals = queries.build(parsed, withKind(filters, "signal"), true);
        return List.of(
                SearchRequest.of(b -> b.index(ReadsIndex.ALIAS)
                    .query(terms)
                    .size(wantTerms ? SECTION_TERMS : 0)
                    .source(src -> src.filter(f -> f.includes(SECTION_KEYS)))),
                SearchRequest.of(b -> b.index(ReadsIndex.ALIAS)
                    .query(signals)
                    .size(wantSignals ? SECTION_SIGNALS : 0)
                    .collapse(c -> c.field("story"))
                    .sort(o -> o.field(f -> f.field("observedAt").order(SortOrder.Desc)))
                    .sort(o -> o.field(f -> f.field("id").order(SortOrder.Asc)))
                    .source(src -> src.filter(f -> f.includes(SECTION_KEYS)))));
    }

    /**
     * The sections of the two answers to {@link #sectionRequests}: a search that failed
     * leaves its section empty (the page itself still answers).
     */
    private static Sections sections(List<SearchAnswer> answers) {
        List<List<Map<String, Object>>> out = new ArrayList<>(2);
        for (SearchAnswer answer : answers) {
            List<Map<String, Object>> docs = new ArrayList<>();
            if (answer.error() == null && answer.hits() != null && answer.hits().hits() != null) {
                for (SearchAnswer.Hit hit : answer.hits().hits()) {
                    docs.add(hit.source());
                }
            }
            out.add(docs);
        }
        return new Sections(out.get(0), out.get(1));
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
    static Sections sectionsOf(List<Match> matches, Filters filters) {
        boolean wantTerms = wants(filters, "term");
        boolean wantSignals = wants(filters, "signal");
        List<Map<String, Object>> terms = new ArrayList<>();
        List<Map<String, Object>> signals = new ArrayList<>();
        for (Match m : matches) {
            Object kind = m.source().get("kind");
            if ("term".equals(kind) && wantTerms && terms.size() < SECTION_TERMS) {
                terms.add(m.source());
            }
            else if ("signal".equals(kind) && wantSignals) {
                signals.add(m.source());
            }
        }
        signals.sort(Comparator.comparing((Map<String, Object> d) -> String.valueOf(d.get("observedAt")))
            .reversed()
            .thenComparing(d -> String.valueOf(d.get("id"))));
        return new Sections(terms, List.copyOf(signals.subList(0, Math.min(SECTION_SIGNALS, signals.size()))));
    }

    /**
     * Whether a page with these filters shows reads of the kind (no kind filter: all).
     */
    private static boolean wants(Filters f, String kind) {
        return f.kinds().isEmpty() || f.kinds().contains(kind);
    }

    private static Filters withKind(Filters f, String kind) {
        return new Filters(f.layers(), f.companies(), f.primaryOnly(), f.terms(), List.of(kind), f.from(), f.to());
    }

    /**
     * The facets of an answer: the terms facets of {@link #FACETS} (ids with labels),
     * then {@code updated} (months).
     */
    static Map<String, List<FacetValue>> facets(SearchAnswer response) {
        Map<String, List<FacetValue>> facets = new LinkedHashMap<>();
        for (String name : FACETS) {
            List<FacetValue> values = new ArrayList<>();
            for (SearchAnswer.Bucket bucket : response.buckets(name)) {
                String key = String.valueOf(bucket.key());
                String[] ref = "kind".equals(name) ? new String[] { key, key } : SearchCatalog.split(key);
                values.add(new FacetValue(ref[0], ref[1], bucket.docCount()));
            }
            facets.put(name, values);
        }
        List<FacetValue> months = new ArrayList<>();
        for (SearchAnswer.Bucket bucket : response.buckets("updated")) {
            months.add(new FacetValue(bucket.keyAsString(), bucket.keyAsString(), bucket.docCount()));
        }
        facets.put("updated", months);
        return facets;
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

    @SuppressWarnings("unchecked")
    private static Match match(SearchAnswer.Hit hit, Map<String, Story> stories) {
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
        Story story = source.get("story") instanceof String key ? stories.get(key) : null;
        long others = story == null ? 0 : Math.max(0, story.count() - 1);
        return new Match(source, hit.score() == null ? 0 : hit.score(), snippets, bestSection, reposts(story, source),
                others);
    }

    /**
     * The other reads of a collapsed hit's story (its newest reads less itself), newest
     * first: id, sources and observedAt of each.
     */
    private static List<Map<String, Object>> reposts(Story story, Map<String, Object> source) {
        if (story == null) {
            return List.of();
        }
        Object id = source.get("id");
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> other : story.newest()) {
            if (!id.equals(other.get("id"))) {
                out.add(other);
            }
        }
        return out;
    }

    /** The text of a highlighted, HTML-escaped fragment. */
    static String unhighlight(String fragment) {
        return fragment.replace("<mark>", "")
            .replace("</mark>", "")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#x27;", "'")
            .replace("&#39;", "'")
            .replace("&#x2F;", "/")
            .replace("&amp;", "&")
            .strip();
    }

}
