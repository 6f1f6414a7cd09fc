package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.testsupport.TopicProbe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticsearch.client.RestClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The walking skeleton end to end, on a real Kafka broker (KRaft, in-process) and a real
 * Elasticsearch (a separate process): reference data and a glossary page go in through
 * the ingest publisher, the real tagging topology and indexer run, and the tagged read
 * comes out of {@code GET /api/v1/search}.
 */
// Search behaviour, not the outage guard (ResilienceIT keeps the api's 1 s socket
// timeout): a slow answer on
// a busy 2-core machine must not turn into a 503 in the middle of hundreds of queries.
@PipelineTest
class SearchPipelineIT {

    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("search-pipeline-it", TestPipeline.Streams.TAGGING);

    private static final String ADMIN_KEY = "admin-" + java.util.UUID.randomUUID();

    @Autowired
    TestRestTemplate http;

    @Autowired
    ElasticsearchClient esClient;

    @Autowired
    RestClient restClient;

    @DynamicPropertySource
    static void adminKey(DynamicPropertyRegistry registry) {
        registry.add("chainfeed.api.admin-key-hashes", () -> io.chainfeed.platform.auth.HashedKeys.hash(ADMIN_KEY));
    }

    @Test
    void aGlossaryPageGoesInAndATaggedReadComesOutOfSearch() throws Exception {
        pipeline.start();
        long pageVersion;
        try (TestPipeline.Ingest ingest = pipeline.ingest("it-ingest")) {
            ingest.publishReference();
            // Tagging does not wait for reference data: a term tagged before it arrives
            // is re-tagged
            // once it does, so no ordering is needed here.
            String page = TestPipeline.rdmaPage();
            var result = ingest.service().ingestPage(page, false, "https://example.org/glossary/rdma", false);
            assertThat(result.result().outcome()).isEqualTo(TermPublisher.Outcome.PUBLISHED);
            pageVersion = result.result().version();
            assertThat(pageVersion).as("ingest's term version, an ordering key the reads do not show").isPositive();
            // The same page again publishes nothing.
            assertThat(ingest.service()
                .ingestPage(page, false, "https://example.org/glossary/rdma", false)
                .result()
                .outcome()).isEqualTo(TermPublisher.Outcome.UNCHANGED);
        }

        Map<String, Object> hit = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> firstHit("remote direct memory access"),
                    h -> h != null && "term:rdma".equals(h.get("id")) && ((Number) h.get("version")).longValue() >= 1
                    // this page's version, not one indexed earlier (the corpus's RDMA,
                    // when another
                    // test of this class loaded the corpus first): versions people see
                    // restart at 1
                            && String.valueOf(h.get("sources")).contains("https://example.org/glossary/rdma"));

        assertThat(hit.get("kind")).isEqualTo("term");
        assertThat(ids(hit.get("layers"), "id")).contains("network-fabric");
        // The page says "fabric layer": its only primary layer; the companies it names
        // add passing ones.
        assertThat(primaryIds(hit.get("layers"))).containsExactly("network-fabric");
        assertThat(ids(hit.get("layers"), "id")).hasSizeGreaterThan(1);
        assertThat(ids(hit.get("companies"), "symbol")).contains("ANET", "ORCL", "HPE", "2345.TW");
        assertThat(ids(hit.get("related"), "title")).containsExactly("InfiniBand", "AI Ethernet (RoCE)",
                "Network fabric", "Scale-out vs scale-up");
        assertThat((String) hit.get("disclaimer")).contains("research, not advice");
        assertThat((List<?>) hit.get("sources")).isNotEmpty();
        assertThat((List<?>) hit.get("snippets")).isNotEmpty();
        assertThat(hit).doesNotContainKey("evidence");

        ResponseEntity<Map<String, Object>> read = http.exchange("/api/v1/reads/term:rdma", HttpMethod.GET, null, JSON);
        assertThat(read.getStatusCode()).isEqualTo(HttpStatus.OK);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> companies = (List<Map<String, Object>>) read.getBody().get("companies");
        assertThat(companies).allSatisfy(c -> assertThat((List<?>) c.get("evidence")).isNotEmpty());

        ResponseEntity<Map<String, Object>> missing = http.exchange("/api/v1/reads/term:nope", HttpMethod.GET, null,
                JSON);
        assertThat(missing.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(missing.getHeaders().getContentType().toString()).contains("application/problem+json");

        ResponseEntity<Map<String, Object>> health = http.exchange("/actuator/health", HttpMethod.GET, null, JSON);
        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        @SuppressWarnings("unchecked")
        Map<String, Object> components = (Map<String, Object>) health.getBody().get("components");
        assertThat(components).containsKeys("kafka", "elasticsearch");
    }

    /**
     * Loads the whole bundled corpus through the real pipeline, once, and waits until
     * every term is searchable.
     */
    private Corpus loadCorpus() throws Exception {
        pipeline.start();
        return pipeline.loadCorpus();
    }

    /**
     * The whole bundled corpus through the real pipeline: every term's read ranks first
     * when searched by its title and by each of its aliases (acronym expansions among
     * them), in any case.
     */
    @Test
    void everyCorpusTermRanksFirstForItsTitleAndEveryAlias() throws Exception {
        Corpus corpus = loadCorpus();
        List<String> misses = new java.util.ArrayList<>();
        int checked = 0;
        List<Long> micros = new java.util.ArrayList<>();
        List<Long> tooks = new java.util.ArrayList<>();
        for (var term : corpus.terms()) {
            List<String> queries = new java.util.ArrayList<>(List.of(term.title()));
            queries.addAll(term.aliases());
            queries.add(term.title().toLowerCase(java.util.Locale.ROOT));
            for (String q : queries) {
                long t0 = System.nanoTime();
                Map<String, Object> body = searchBody("q=" + enc(q));
                micros.add((System.nanoTime() - t0) / 1000);
                tooks.add(((Number) body.get("tookMs")).longValue());
                List<?> results = (List<?>) body.get("results");
                Map<?, ?> hit = results.isEmpty() ? null : (Map<?, ?>) results.get(0);
                String got = hit == null ? "nothing" : (String) hit.get("id");
                checked++;
                if (!("term:" + term.slug()).equals(got)) {
                    misses.add("'" + q + "' -> " + got + " (wanted term:" + term.slug() + ")");
                }
            }
        }
        assertThat(checked).isGreaterThan(200);
        micros.sort(null);
        System.out.printf(
                "search latency over %d title/alias queries (HTTP round trip, first page): median %.1f ms,"
                        + " p95 %.1f ms, max %.1f ms%n",
                micros.size(), micros.get(micros.size() / 2) / 1000.0, micros.get(micros.size() * 95 / 100) / 1000.0,
                micros.get(micros.size() - 1) / 1000.0);
        tooks.sort(null);
        System.out.printf("  of which Elasticsearch (took): median %d ms, p95 %d ms, max %d ms%n",
                tooks.get(tooks.size() / 2), tooks.get(tooks.size() * 95 / 100), tooks.get(tooks.size() - 1));
        assertThat(misses).as("queries whose first hit is not the term's own read").isEmpty();
    }

    @Test
    void stemmingTyposSynonymsAndExactTickers() throws Exception {
        loadCorpus();
        // English stemming: the plural finds what the singular finds.
        assertThat(allIds("q=computers")).isNotEmpty().isEqualTo(allIds("q=computer"));
        // Typo tolerance on words ...
        assertThat(firstHit("infinibnd").get("id")).isEqualTo("term:infiniband");
        assertThat(firstHit("interposr").get("id")).isEqualTo("term:interposer");
        // ... but not on tickers: ANET finds Arista's reads, a one-letter typo does not.
        Set<String> anet = allIds("q=ANET");
        assertThat(anet).isNotEmpty();
        assertThat(allIds("q=ANEX")).doesNotContainAnyElementsOf(anet);
        assertThat(allIds("q=2345.TW")).isNotEmpty();
        assertThat(allIds("q=2345.TX")).isEmpty();
        // Synonyms drawn from the corpus: each name of a term finds what its other names
        // find.
        Set<String> hbm = allIds("q=HBM");
        assertThat(allIds("q=" + enc("high bandwidth memory"))).containsAll(hbm);
        assertThat(allIds("q=" + enc("stacked DRAM"))).containsAll(hbm);
        Set<String> roce = allIds("q=RoCE");
        assertThat(allIds("q=" + enc("RDMA over Converged Ethernet"))).containsAll(roce);
    }

    @Test
    void phrasesExclusionsAndOr() throws Exception {
        loadCorpus();
        assertThat(firstHit("\"remote direct memory access\"").get("id")).isEqualTo("term:rdma");
        Set<String> memory = allIds("q=memory");
        assertThat(memory).contains("term:hbm");
        Set<String> withoutHbm = allIds("q=" + enc("memory -HBM"));
        assertThat(withoutHbm).isNotEmpty().doesNotContain("term:hbm");
        assertThat(memory).containsAll(withoutHbm);
        assertThat(allIds("q=" + enc("memory -\"high bandwidth\""))).doesNotContain("term:hbm");
        Set<String> either = allIds("q=" + enc("CoWoS OR InfiniBand"));
        assertThat(either).contains("term:cowos", "term:infiniband");
        assertThat(allIds("q=" + enc("CoWoS | InfiniBand"))).isEqualTo(either);
        // Every word required; when no read has all of them, any of them.
        Map<String, Object> fallback = searchBody("q=" + enc("infiniband zzyzxqwv"));
        assertThat(fallback.get("mode")).isEqualTo("any");
        assertThat((List<?>) fallback.get("results")).isNotEmpty();
    }

    @Test
    void anyTextIsSafe() throws Exception {
        loadCorpus();
        List<String> texts = List.of("\"", "\"\"", "\"unclosed phrase", "a \"b\" \"c", "/", "//", "a/b", ":",
                "title:hbm", "[", "]", "[1 TO 5]", "{", "}", "(", ")", "((hbm)", "\\", "\\\\", "hbm\\", "AT&T",
                "2345.TW", "000660.KS", "🙂", "🚀 GPUs 🙂", "-", "--", "-hbm", "-\"", "OR", "OR OR", "hbm OR", "| |",
                "||", "&&", "!", "+hbm", "~", "*", "hbm*", "?", "^2", "hbm^99", "<script>alert(1)</script>",
                "&lt;b&gt;", "%", "%25", "'", "`", "$", "#", "\u0000", "\t", "NOT", "AND", "a".repeat(999),
                "x ".repeat(40), "hbm ".repeat(40), "日本語", "Ω≈ç√", "ß", "café", "nvidia's", "co-packaged", "800G",
                "1.6T", "0", "-1", "1e9", "\"\" -\"\" | OR", "{\"query\":{\"match_all\":{}}}");
        List<String> failures = new java.util.ArrayList<>();
        for (String q : texts) {
            ResponseEntity<Map<String, Object>> r = get("/api/v1/search?q=" + enc(q));
            boolean ok = r.getStatusCode() == HttpStatus.OK && r.getBody().get("results") instanceof List<?>;
            boolean blank = q.trim().isEmpty() && r.getStatusCode() == HttpStatus.BAD_REQUEST;
            if (!ok && !blank) {
                failures.add((q.length() > 40 ? q.substring(0, 40) + "..." : q) + " -> " + r.getStatusCode() + " "
                        + r.getBody());
            }
        }
        assertThat(failures).isEmpty();
        // A real limit answers a clear 400 problem.
        ResponseEntity<Map<String, Object>> huge = get("/api/v1/search?q=" + enc("a".repeat(10_000)));
        assertThat(huge.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(huge.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat((String) huge.getBody().get("detail")).contains("q");
        ResponseEntity<Map<String, Object>> emoji = get("/api/v1/search?q=" + enc("🙂".repeat(10_000)));
        assertThat(emoji.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(emoji.getHeaders().getContentType().toString()).contains("application/problem+json");
        // Past server.max-http-request-header-size (160 KB) the server itself refuses the
        // request, also
        // with a problem detail.
        ResponseEntity<Map<String, Object>> oversized = get("/api/v1/search?q=" + enc("🙂".repeat(16_000)));
        assertThat(oversized.getStatusCode().value()).isIn(414, 431);
        assertThat(oversized.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat(oversized.getBody()).containsEntry("status", oversized.getStatusCode().value());
        ResponseEntity<Map<String, Object>> nowhere = get("/api/v1/nowhere");
        assertThat(nowhere.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(nowhere.getHeaders().getContentType().toString()).contains("application/problem+json");
        ResponseEntity<Map<String, Object>> words = get("/api/v1/search?q=" + enc("w ".repeat(60)));
        assertThat(words.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(words.getBody().get("type").toString()).endsWith("query-too-long");
    }

    @Test
    @SuppressWarnings("unchecked")
    void highlightsAreHtmlSafeAndComeFromTheBestSection() throws Exception {
        loadCorpus();
        Map<String, Object> hit = firstHit("through-silicon vias");
        assertThat(hit.get("id")).isEqualTo("term:hbm");
        List<String> snippets = (List<String>) hit.get("snippets");
        assertThat(snippets.get(0)).contains("<mark>");
        assertThat(hit.get("bestSection")).isNotNull();
        // Tag evidence only when asked for (Elasticsearch leaves it out of the answer
        // otherwise).
        assertThat((List<Map<String, Object>>) hit.get("companies")).isNotEmpty()
            .allSatisfy(c -> assertThat(c).doesNotContainKey("evidence"));
        Map<String, Object> withEvidence = ((List<Map<String, Object>>) searchBody(
                "q=" + enc("through-silicon vias") + "&evidence=true")
            .get("results")).get(0);
        assertThat(withEvidence.get("id")).isEqualTo("term:hbm");
        assertThat((List<Map<String, Object>>) withEvidence.get("companies"))
            .allSatisfy(c -> assertThat((List<?>) c.get("evidence")).isNotEmpty());
        for (Map<String, Object> r : (List<Map<String, Object>>) searchBody("q=" + enc("memory OR network OR <b>"))
            .get("results")) {
            for (String s : (List<String>) r.get("snippets")) {
                assertThat(s.replace("<mark>", "").replace("</mark>", "")).doesNotContain("<", ">");
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void filtersAndFacetsAgree() throws Exception {
        loadCorpus();
        String q = "q=" + enc("memory OR network OR chip OR power");
        Map<String, Object> body = searchBody(q);
        long total = ((Number) body.get("total")).longValue();
        Map<String, List<Map<String, Object>>> facets = (Map<String, List<Map<String, Object>>>) body.get("facets");
        assertThat(facets).containsKeys("layer", "company", "term", "kind", "updated");
        Map<String, Object> layer = facets.get("layer").get(0);
        Set<String> inLayer = allIds(q + "&layer=" + enc((String) layer.get("value")));
        assertThat((long) inLayer.size()).isEqualTo(((Number) layer.get("count")).longValue());
        Map<String, Object> company = facets.get("company").get(0);
        String symbol = (String) company.get("value");
        Map<String, Object> byCompany = searchBody(q + "&company=" + enc(symbol) + "&size=50");
        assertThat(((Number) byCompany.get("total")).longValue())
            .isEqualTo(((Number) company.get("count")).longValue());
        for (Map<String, Object> r : (List<Map<String, Object>>) byCompany.get("results")) {
            assertThat(ids(r.get("companies"), "symbol")).contains(symbol);
        }
        Map<String, Object> primary = searchBody(q + "&company=" + enc(symbol) + "&primary=true&size=50");
        assertThat(((Number) primary.get("total")).longValue())
            .isLessThanOrEqualTo(((Number) byCompany.get("total")).longValue());
        for (Map<String, Object> r : (List<Map<String, Object>>) primary.get("results")) {
            assertThat(((List<Map<String, Object>>) r.get("companies")).stream()
                .anyMatch(c -> symbol.equals(c.get("symbol")) && Boolean.TRUE.equals(c.get("primary")))).isTrue();
        }
        Map<String, Object> term = facets.get("term").get(0);
        assertThat((long) allIds(q + "&term=" + enc((String) term.get("value"))).size())
            .isEqualTo(((Number) term.get("count")).longValue());
        long kindCount = facets.get("kind")
            .stream()
            .filter(k -> "term".equals(k.get("value")))
            .mapToLong(k -> ((Number) k.get("count")).longValue())
            .sum();
        assertThat((long) allIds(q + "&kind=term").size()).isEqualTo(kindCount);
        assertThat(allIds(q + "&kind=signal")).allMatch(id -> id.startsWith("signal:"));
        assertThat((long) allIds(q + "&from=2000-01-01").size()).isEqualTo(total);
        assertThat(allIds(q + "&to=2000-01-01")).isEmpty();
        assertThat(get("/api/v1/search?" + q + "&from=yesterday").getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
    }

    @Test
    @SuppressWarnings("unchecked")
    void cursorPagesHaveNoDuplicatesOrGaps() throws Exception {
        loadCorpus();
        String q = "q=" + enc("memory OR network OR chip OR power OR data");
        long total = ((Number) searchBody(q + "&size=50").get("total")).longValue();
        assertThat(total).isGreaterThan(20);
        // A first page opens no search context on Elasticsearch (no point in time) ...
        long before = openContexts();
        for (int i = 0; i < 20; i++) {
            assertThat(searchBody(q + "&size=7").get("nextCursor")).isNotNull();
        }
        assertThat(openContexts()).isLessThanOrEqualTo(before);
        List<String> seen = new java.util.ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Map<String, Object> page = searchBody(q + "&size=7" + (cursor == null ? "" : "&cursor=" + enc(cursor)));
            List<Map<String, Object>> results = (List<Map<String, Object>>) page.get("results");
            assertThat(results.size()).isLessThanOrEqualTo(7);
            results.forEach(r -> seen.add((String) r.get("id")));
            cursor = (String) page.get("nextCursor");
            pages++;
            if (pages == 2 && cursor != null) {
                // ... the second page opens the point in time the later pages run in ...
                assertThat(openContexts()).isGreaterThan(before);
            }
        }
        while (cursor != null && pages < 100);
        assertThat(pages).isGreaterThan(3);
        assertThat(seen).doesNotHaveDuplicates();
        assertThat((long) seen.size()).isEqualTo(total);
        // ... and the last page closes it (asynchronously).
        await().atMost(Duration.ofSeconds(30)).until(() -> openContexts() <= before);
        assertThat(get("/api/v1/search?" + q + "&size=51").getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        ResponseEntity<Map<String, Object>> bad = get("/api/v1/search?" + q + "&cursor=not-a-cursor");
        assertThat(bad.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(bad.getHeaders().getContentType().toString()).contains("application/problem+json");
        String first = (String) searchBody(q + "&size=2").get("nextCursor");
        assertThat(get("/api/v1/search?q=other&cursor=" + enc(first)).getStatusCode())
            .isEqualTo(HttpStatus.BAD_REQUEST);
    }

    @Test
    @SuppressWarnings("unchecked")
    void suggestTermPageLayersAndOpenApi() throws Exception {
        loadCorpus();
        Map<String, Object> s = get("/api/v1/suggest?q=infini").getBody();
        assertThat(ids(s.get("terms"), "slug")).contains("infiniband");
        assertThat(ids(get("/api/v1/suggest?q=ANE").getBody().get("companies"), "symbol")).contains("ANET");
        assertThat(ids(get("/api/v1/suggest?q=arista").getBody().get("companies"), "symbol")).contains("ANET");
        assertThat(ids(get("/api/v1/suggest?q=2345").getBody().get("companies"), "symbol")).contains("2345.TW");
        assertThat(ids(get("/api/v1/suggest?q=mem").getBody().get("layers"), "id")).contains("memory");
        assertThat(get("/api/v1/suggest?q=" + enc("🙂\"/:")).getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(get("/api/v1/suggest?q=").getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);

        ResponseEntity<Map<String, Object>> page = get("/api/v1/terms/hbm");
        assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
        Map<String, Object> term = page.getBody();
        assertThat(term.get("title")).isEqualTo("HBM");
        assertThat(term.get("summary")).isNotNull();
        assertThat((List<?>) term.get("sections")).isNotEmpty();
        assertThat(((Map<String, Object>) term.get("layer")).get("id")).isEqualTo("memory");
        assertThat(ids(term.get("companies"), "symbol")).contains("000660.KS", "MU");
        List<Map<String, Object>> related = (List<Map<String, Object>>) term.get("related");
        assertThat(related).isNotEmpty().allSatisfy(r -> assertThat(r).containsKeys("slug", "title", "exists"));
        assertThat(related).anySatisfy(r -> {
            assertThat(r.get("exists")).isEqualTo(true);
            assertThat(r.get("href")).isEqualTo("/api/v1/terms/" + r.get("slug"));
        });
        assertThat((List<?>) term.get("sources")).isNotEmpty();
        assertThat((List<?>) term.get("history")).isNotEmpty();
        ResponseEntity<Map<String, Object>> missing = get("/api/v1/terms/nope");
        assertThat(missing.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(missing.getHeaders().getContentType().toString()).contains("application/problem+json");

        List<Map<String, Object>> layers = (List<Map<String, Object>>) get("/api/v1/layers").getBody().get("layers");
        assertThat(layers).hasSizeGreaterThan(5).allSatisfy(l -> assertThat(l).containsKeys("id", "name", "reads"));

        // A layer's reads: those whose primary layer it is, and apart from them the ones
        // that touch it in passing
        // (through the companies they name), in the index's primaryLayerIds and layerIds.
        Map<String, Object> memory = get("/api/v1/layers/memory/reads?size=50").getBody();
        List<Object> memoryPrimary = ids(((Map<String, Object>) memory.get("primary")).get("results"), "id");
        List<Object> memoryPassing = ids(((Map<String, Object>) memory.get("passing")).get("results"), "id");
        assertThat(memoryPrimary).contains("term:hbm", "term:dram", "term:nand")
            .doesNotContain("term:euv-lithography", "term:high-na-euv", "term:foundry-model", "term:process-node",
                    "term:rdma");
        assertThat(memoryPassing).isNotEmpty().doesNotContainAnyElementsOf(memoryPrimary);
        assertThat(((Number) ((Map<String, Object>) memory.get("passing")).get("total")).longValue())
            .isGreaterThanOrEqualTo(memoryPassing.size());
        for (Object id : memoryPassing.subList(0, Math.min(10, memoryPassing.size()))) {
            Map<String, Object> read = get("/api/v1/reads/" + id).getBody();
            assertThat(ids(read.get("layers"), "id")).as("%s", id).contains("memory");
            assertThat(primaryIds(read.get("layers"))).as("%s", id).doesNotContain("memory");
        }
        Map<String, Object> fabric = get("/api/v1/layers/network-fabric/reads?kind=term").getBody();
        assertThat(ids(((Map<String, Object>) fabric.get("primary")).get("results"), "id")).contains("term:rdma");
        assertThat(primaryIds(get("/api/v1/reads/term:rdma").getBody().get("layers")))
            .containsExactly("network-fabric");
        assertThat(get("/api/v1/layers/no-such-layer/reads").getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);

        Map<String, Object> api = get("/v3/api-docs").getBody();
        assertThat((Map<String, Object>) api.get("paths")).containsKeys("/api/v1/search", "/api/v1/suggest",
                "/api/v1/terms/{slug}", "/api/v1/layers", "/api/v1/reads/{id}", "/api/v1/layers/{id}/reads");
        assertThat(http.getForEntity("/swagger-ui/index.html", String.class).getStatusCode()).isEqualTo(HttpStatus.OK);
    }

    /**
     * One resolver for companies: any listing, the MIC-qualified symbol, the id or the
     * name, in any case, answers the same company in the company API, the search filter,
     * the feeds and suggest; an unknown one is a problem naming it with close matches,
     * never an empty 200.
     */
    @Test
    @SuppressWarnings("unchecked")
    void anyIdentifierOfACompanyAnswersTheSameEverywhere() throws Exception {
        loadCorpus();
        for (String id : List.of("TSM", "tsmc", "2330.tw", "XNYS:TSM", "Taiwan%20Semiconductor")) {
            ResponseEntity<Map<String, Object>> c = await().atMost(Duration.ofSeconds(30))
                .until(() -> get("/api/v1/companies/" + id), r -> r.getStatusCode() == HttpStatus.OK);
            assertThat(c.getBody()).as(id).containsEntry("id", "tsmc").containsEntry("symbol", "2330.TW");
            assertThat((String) c.getBody().get("name")).startsWith("Taiwan Semiconductor");
            assertThat(ids(c.getBody().get("listings"), "symbol")).containsExactly("2330.TW", "TSM");
            assertThat((List<?>) c.getBody().get("latestReads")).as(id).isNotEmpty();
        }
        ResponseEntity<Map<String, Object>> nope = get("/api/v1/companies/NOPEXYZ");
        assertThat(nope.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(nope.getHeaders().getContentType().toString()).contains("application/problem+json");

        // The search filter: every listing filters the same reads, which the tags carry
        // under one symbol.
        Map<String, Object> home = searchBody("q=cowos&company=2330.TW&size=50");
        assertThat(((Number) home.get("total")).longValue()).isPositive();
        for (String id : List.of("TSM", "tsm", "xnys:tsm", "tsmc")) {
            Map<String, Object> other = searchBody("q=cowos&company=" + enc(id) + "&size=50");
            assertThat(other.get("results")).as(id).isEqualTo(home.get("results"));
            assertThat(other.get("facets")).as(id).isEqualTo(home.get("facets"));
        }
        for (Map<String, Object> r : (List<Map<String, Object>>) home.get("results")) {
            assertThat(ids(r.get("companies"), "id")).contains("tsmc");
            assertThat(ids(r.get("companies"), "symbol")).doesNotContain("TSM");
        }
        ResponseEntity<Map<String, Object>> unknown = get("/api/v1/search?q=cowos&company=NOPEXYZ");
        assertThat(unknown.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(unknown.getBody()).containsEntry("company", "NOPEXYZ");
        assertThat(unknown.getBody().get("type").toString()).endsWith("/unknown-company");
        ResponseEntity<Map<String, Object>> typo = get("/api/v1/search?q=cowos&company=TSMX");
        assertThat(typo.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat((List<String>) typo.getBody().get("closeMatches")).anyMatch(m -> m.startsWith("2330.TW"));

        // A ticker of any listing finds the company's reads, and the snippet shows where
        // the company is named.
        Set<String> byHome = allIds("q=2330.TW");
        assertThat(byHome).isNotEmpty().isEqualTo(allIds("q=TSM")).isEqualTo(allIds("q=tsmc"));
        Map<String, Object> tsm = searchBody("q=TSM&size=50");
        List<Map<String, Object>> tsmResults = (List<Map<String, Object>>) tsm.get("results");
        assertThat(tsmResults)
            .allSatisfy(r -> assertThat((List<?>) r.get("snippets")).as((String) r.get("id")).isNotEmpty());
        assertThat(tsmResults).anySatisfy(r -> assertThat(((List<String>) r.get("snippets")).get(0))
            .containsPattern("<mark>[^<]*(TSMC|TSM|Taiwan Semiconductor|2330)[^<]*</mark>"));
        for (Map<String, Object> r : tsmResults) {
            for (String snippet : (List<String>) r.get("snippets")) {
                assertThat(snippet.replace("<mark>", "").replace("</mark>", "")).doesNotContain("<", ">");
            }
        }
        // A term's own read leads with its definition.
        Map<String, Object> cowos = firstHit("CoWoS");
        assertThat(cowos.get("id")).isEqualTo("term:cowos");
        // (The index's highlighter writes an apostrophe as &#x27;, Spring's escaper as
        // &#39;: the same text.)
        assertThat(((List<String>) cowos.get("snippets")).get(0)
            .replace("<mark>", "")
            .replace("</mark>", "")
            .replace("&#x27;", "&#39;"))
            .isEqualTo(org.springframework.web.util.HtmlUtils.htmlEscape(((String) cowos.get("summary")).strip()));

        // The feeds: company:TSM is the same topic as company:2330.TW.
        String homeFeed = feedText("company:2330.TW");
        assertThat(homeFeed).contains("\"items\"").contains("tsmc");
        for (String topic : List.of("company:TSM", "company:tsmc", "company:XNYS:TSM")) {
            assertThat(feedText(topic)).as(topic).isEqualTo(homeFeed);
        }
        ResponseEntity<Map<String, Object>> badFeed = get("/api/v1/feeds/json?topic=" + enc("company:NOPEXYZ"));
        assertThat(badFeed.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(badFeed.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat((String) badFeed.getBody().get("detail")).contains("NOPEXYZ");

        // Suggest: the company first for its ticker and for its short name.
        for (String q : List.of("TSM", "TSMC", "tsm", "2330.TW")) {
            Map<String, Object> s = get("/api/v1/suggest?q=" + enc(q)).getBody();
            assertThat(((List<Map<String, Object>>) s.get("suggestions")).get(0)).as(q)
                .containsEntry("id", "tsmc")
                .containsEntry("kind", "company")
                .containsEntry("page", "/companies/2330.TW");
            assertThat(ids(s.get("companies"), "id").get(0)).as(q).isEqualTo("tsmc");
        }
        // Companies no read mentions are suggested too (from the reference data).
        assertThat(ids(get("/api/v1/suggest?q=" + enc("XNYS:TSM")).getBody().get("companies"), "id")).contains("tsmc");
    }

    private String feedText(String topic) {
        ResponseEntity<String> r = http.exchange(java.net.URI.create("/api/v1/feeds/json?topic=" + enc(topic)),
                HttpMethod.GET, null, String.class);
        assertThat(r.getStatusCode()).as(topic).isEqualTo(HttpStatus.OK);
        return r.getBody();
    }

    /**
     * The fall-back to some of the words says so, never lets a stop word in alone, and
     * ranks more words first.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theFallBackSaysSoAndNeedsARealWord() throws Exception {
        loadCorpus();
        Map<String, Object> body = searchBody("q=" + enc("infiniband out zzyzxqwv") + "&size=50");
        assertThat(body.get("mode")).isEqualTo("any");
        assertThat(body.get("notice")).isEqualTo(
                "no read has all of: infiniband, out, zzyzxqwv; showing reads with some (out is too common to match on its own)");
        Set<String> infiniband = allIds("q=infiniband");
        List<String> got = ((List<Map<String, Object>>) body.get("results")).stream()
            .map(r -> (String) r.get("id"))
            .toList();
        assertThat(got).isNotEmpty();
        assertThat(infiniband).as("a lone 'out' lets nothing in").containsAll(got);
        // Nothing but a stop word and a word no read has: nothing at all.
        Map<String, Object> lone = searchBody("q=" + enc("out zzyzxqwv"));
        assertThat(lone.get("total")).isEqualTo(0);
        // More of the words first: reads with both words come before reads with one.
        // Fewer than a page have
        // both, so the answer itself goes on with reads that have one of them, and says
        // how many have both.
        Map<String, Object> two = searchBody("q=" + enc("infiniband nvlink") + "&size=50");
        List<String> twoIds = ((List<Map<String, Object>>) two.get("results")).stream()
            .map(r -> (String) r.get("id"))
            .toList();
        int withAll = ((Number) two.getOrDefault("withAll", two.get("total"))).intValue();
        assertThat(withAll).as("reads with both words: %s", two).isPositive();
        Set<String> both = Set.copyOf(twoIds.subList(0, withAll));
        if (withAll < twoIds.size()) {
            assertThat(two.get("mode")).isEqualTo("any");
            assertThat((String) two.get("notice")).startsWith("only " + withAll + " read");
        }
        Map<String, Object> some = searchBody("q=" + enc("infiniband nvlink zzyzxqwv") + "&size=50");
        List<String> ranked = ((List<Map<String, Object>>) some.get("results")).stream()
            .map(r -> (String) r.get("id"))
            .toList();
        assertThat(ranked.size()).isGreaterThan(both.size());
        assertThat(Set.copyOf(ranked.subList(0, both.size()))).isEqualTo(both);
    }

    /**
     * The selector's Elasticsearch query selects exactly the documents its in-memory test
     * accepts.
     */
    @Test
    void selectorQueriesAgreeWithTheInMemoryTest() throws Exception {
        loadCorpus();
        List<ReadDocument> all = esClient
            .search(s -> s.index(io.chainfeed.platform.ReadsIndex.ALIAS).size(1000), ReadDocument.class)
            .hits()
            .hits()
            .stream()
            .map(h -> h.source())
            .toList();
        assertThat(all).hasSizeGreaterThan(60);
        for (String text : List.of("all", "layer:network-fabric", "company:anet", "company:2345.TW",
                "company:arista-networks", "term:rdma", "kind:term", "kind:signal",
                "layer:memory OR layer:advanced-packaging", "layer:network-fabric AND NOT term:infiniband",
                "(company:NVDA OR company:AMD) AND NOT layer:accelerators", "NOT all")) {
            io.chainfeed.api.selector.Selector selector = io.chainfeed.api.selector.Selector.parse(text);
            Set<String> expected = new java.util.TreeSet<>();
            all.stream().filter(selector::matches).forEach(d -> expected.add(d.id()));
            Set<String> got = new java.util.TreeSet<>();
            esClient
                .search(s -> s.index(io.chainfeed.platform.ReadsIndex.ALIAS).size(1000).query(selector.toQuery()),
                        Map.class)
                .hits()
                .hits()
                .forEach(h -> got.add(h.id()));
            assertThat(got).as(text).isEqualTo(expected);
            if (!text.contains("NOT") && !text.equals("kind:signal")) {
                assertThat(got).as(text + " selects something in the corpus").isNotEmpty();
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void apiKeysAreIssuedCheckedAndRevokedUnderTheAdminKey() throws Exception {
        pipeline.start();
        String body = "{\"kind\":\"PARTNER\",\"label\":\"Demo partner\",\"allowedOrigins\":[\"HTTP://Partner.Example:80/\"],"
                + "\"ratePerMinute\":120}";
        org.springframework.http.HttpHeaders noAdmin = new org.springframework.http.HttpHeaders();
        noAdmin.setContentType(org.springframework.http.MediaType.APPLICATION_JSON);
        noAdmin.setBearerAuth("not-the-admin-key");
        ResponseEntity<Map<String, Object>> refused = http.exchange("/api/v1/admin/keys", HttpMethod.POST,
                new org.springframework.http.HttpEntity<>(body, noAdmin), JSON);
        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(refused.getHeaders().getFirst("WWW-Authenticate")).startsWith("Bearer");
        assertThat(refused.getHeaders().getContentType().toString()).contains("application/problem+json");

        org.springframework.http.HttpHeaders admin = new org.springframework.http.HttpHeaders();
        admin.setContentType(org.springframework.http.MediaType.APPLICATION_JSON);
        admin.setBearerAuth(ADMIN_KEY);
        ResponseEntity<Map<String, Object>> created = http.exchange("/api/v1/admin/keys", HttpMethod.POST,
                new org.springframework.http.HttpEntity<>(body, admin), JSON);
        assertThat(created.getStatusCode()).as("%s", created.getBody()).isEqualTo(HttpStatus.CREATED);
        String token = (String) created.getBody().get("token");
        String id = (String) created.getBody().get("id");
        assertThat(token).matches("cf_[a-z2-7]{12}_[A-Za-z0-9_-]{43}").contains(id);
        assertThat(created.getBody().get("allowedOrigins")).isEqualTo(List.of("http://partner.example"));

        io.chainfeed.api.access.ApiKeys keys = context.getBean(io.chainfeed.api.access.ApiKeys.class);
        assertThat(keys.authenticate(token)).get().satisfies(p -> {
            assertThat(p.keyId()).isEqualTo(id);
            assertThat(p.allowsOrigin("http://partner.example")).isTrue();
            assertThat(p.allowsOrigin("http://partner.example:8080")).isFalse();
            assertThat(p.allowsOrigin("https://evil.example")).isFalse();
        });
        String last = token.substring(token.length() - 1);
        assertThat(keys.authenticate(token.substring(0, token.length() - 1) + (last.equals("A") ? "B" : "A")))
            .isEmpty();

        // The topic holds the hash, never the token.
        try (TopicProbe<byte[]> apiKeys = TopicProbe.bytes(pipeline.bootstrap(),
                io.chainfeed.schemas.Topics.API_KEYS)) {
            List<byte[]> values = apiKeys.atLeast(1, Duration.ofSeconds(20))
                .stream()
                .map(TopicProbe.Rec::value)
                .toList();
            String secret = token.substring(token.lastIndexOf('_') + 1);
            values.forEach(v -> assertThat(new String(v, StandardCharsets.ISO_8859_1)).doesNotContain(secret)
                .contains(io.chainfeed.platform.auth.HashedKeys.hash(token)));
        }

        ResponseEntity<List<Object>> listed = http.exchange("/api/v1/admin/keys", HttpMethod.GET,
                new org.springframework.http.HttpEntity<>(admin), new ParameterizedTypeReference<List<Object>>() {
                });
        assertThat(listed.getBody())
            .anySatisfy(k -> assertThat((Map<String, Object>) k).containsEntry("id", id).doesNotContainKey("token"));

        ResponseEntity<Map<String, Object>> badOrigin = http.exchange("/api/v1/admin/keys", HttpMethod.POST,
                new org.springframework.http.HttpEntity<>(
                        "{\"kind\":\"PARTNER\",\"label\":\"x\"," + "\"allowedOrigins\":[\"javascript:alert(1)\"]}",
                        admin),
                JSON);
        assertThat(badOrigin.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat((String) badOrigin.getBody().get("detail")).contains("not a web origin");

        assertThat(http
            .exchange("/api/v1/admin/keys/" + id, HttpMethod.DELETE, new org.springframework.http.HttpEntity<>(admin),
                    Void.class)
            .getStatusCode()).isEqualTo(HttpStatus.NO_CONTENT);
        assertThat(keys.authenticate(token)).isEmpty();
        assertThat(http
            .exchange("/api/v1/admin/keys/nosuchkey", HttpMethod.DELETE,
                    new org.springframework.http.HttpEntity<>(admin), Void.class)
            .getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    }

    @Autowired
    org.springframework.context.ApplicationContext context;

    @Test
    void badQueriesGetProblemDetails() {
        ResponseEntity<Map<String, Object>> blank = http.exchange("/api/v1/search?q=", HttpMethod.GET, null, JSON);
        assertThat(blank.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(blank.getHeaders().getContentType().toString()).contains("application/problem+json");
        ResponseEntity<Map<String, Object>> tooLong = http.exchange("/api/v1/search?q=" + "a".repeat(1001),
                HttpMethod.GET, null, JSON);
        assertThat(tooLong.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
    }

    /**
     * Search contexts open on the test's Elasticsearch (points in time and scrolls), over
     * all nodes.
     */
    private long openContexts() throws java.io.IOException {
        org.elasticsearch.client.Response r = restClient
            .performRequest(new org.elasticsearch.client.Request("GET", "/_nodes/stats/indices/search"));
        long open = 0;
        for (com.fasterxml.jackson.databind.JsonNode node : new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(r.getEntity().getContent())
            .path("nodes")) {
            open += node.path("indices").path("search").path("open_contexts").asLong();
        }
        return open;
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private ResponseEntity<Map<String, Object>> get(String pathAndQuery) {
        return http.exchange(java.net.URI.create(pathAndQuery), HttpMethod.GET, null, JSON);
    }

    private Map<String, Object> searchBody(String query) {
        ResponseEntity<Map<String, Object>> r = get("/api/v1/search?" + query);
        assertThat(r.getStatusCode()).as("search %s: %s", query, r.getBody()).isEqualTo(HttpStatus.OK);
        return r.getBody();
    }

    /** Every id of every page of a search (query string without size/cursor). */
    @SuppressWarnings("unchecked")
    private Set<String> allIds(String query) {
        Set<String> ids = new java.util.LinkedHashSet<>();
        String cursor = null;
        int pages = 0;
        do {
            Map<String, Object> page = searchBody(
                    query + "&size=50" + (cursor == null ? "" : "&cursor=" + enc(cursor)));
            ((List<Map<String, Object>>) page.get("results")).forEach(r -> ids.add((String) r.get("id")));
            cursor = (String) page.get("nextCursor");
        }
        while (cursor != null && ++pages < 50);
        return ids;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> firstHit(String q) {
        ResponseEntity<Map<String, Object>> r = get("/api/v1/search?q=" + enc(q));
        if (r.getStatusCode() != HttpStatus.OK) {
            return null;
        }
        List<Map<String, Object>> results = (List<Map<String, Object>>) r.getBody().get("results");
        return results.isEmpty() ? null : results.get(0);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> ids(Object tags, String field) {
        return ((List<Map<String, Object>>) tags).stream().map(t -> t.get(field)).toList();
    }

    /** The ids of the primary layer tags, in order. */
    @SuppressWarnings("unchecked")
    private static List<Object> primaryIds(Object layers) {
        return ((List<Map<String, Object>>) layers).stream()
            .filter(l -> Boolean.TRUE.equals(l.get("primary")))
            .map(l -> l.get("id"))
            .toList();
    }

}
