package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.chainfeed.api.search.RelevanceJudgments;
import io.chainfeed.platform.ReadsIndex;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * Measured relevance on what a fresh embedded default holds: the bundled corpus and the
 * bundled history's signals go through the real pipeline (tagging, chain state, indexer)
 * into a real Elasticsearch, then every query of the judged set
 * ({@code search/relevance/judged.txt}), of the held-out set ({@code held-out.txt}) and
 * of the held-out paraphrase set ({@code held-out-paraphrase.txt}) goes through
 * {@code GET /api/v1/search}. The answer's ranked ids are its {@code top} entity, if any,
 * then its results. Fails when a query of the judged set (paraphrases aside) or of the
 * held-out set is empty, when the judged set's nDCG@10 or best answer first, paraphrases
 * aside, falls under issue 29's floors ({@value #TARGET_NDCG}, {@value #MIN_BEST_FIRST}),
 * or when the held-out set's falls under the level measured less a margin. The paraphrase
 * queries ({@link RelevanceJudgments#PARAPHRASE}: no content word shared with their best
 * answers, written for ranking by meaning) are measured and reported apart, with no floor
 * yet. {@link RelevanceJudgments} says how each figure is computed. The figures and the
 * per-query lines go to standard output and to {@code target/search-relevance.txt}. After
 * the measurement, fifty reposts of one story show as one result.
 */
@PipelineTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SearchRelevanceIT {

    /**
     * Issue 29's floor for the mean nDCG@10 of the judged set: measured 0.857 and 0.858
     * (run-to-run spread about 0.003), see docs/search.md.
     */
    static final double TARGET_NDCG = 0.85;

    /**
     * Issue 29's floor for the share of judged queries whose first answer is a best one
     * (reached).
     */
    static final double MIN_BEST_FIRST = 0.80;

    /**
     * What the held-out set must keep (measured 0.813 nDCG@10, 70% best answer first),
     * with the same margin.
     */
    static final double MIN_HELD_OUT_NDCG = 0.79;

    /**
     * How much the hybrid ranking must add to the lexical nDCG@10 of the paraphrase sets
     * and of the whole judged set (measured offline: +0.24, +0.16 and +0.06).
     */
    static final double MIN_PARAPHRASE_GAIN = 0.05;

    /** Held-out share of best answers first to keep (measured 70%: 14 of 20). */
    static final double MIN_HELD_OUT_BEST_FIRST = 0.65;

    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("search-relevance-it", TestPipeline.Streams.TAGGING,
            TestPipeline.Streams.CHAIN_STATE, TestPipeline.Streams.EMBEDDINGS);

    @Autowired
    TestRestTemplate http;

    @Autowired
    ElasticsearchClient es;

    /** Signals in the index once the bundled history is loaded; 0 before. */
    private static int historySignals;

    /**
     * Loads the corpus and the bundled history once and waits until the index is quiet.
     */
    private void loadDefault() throws Exception {
        if (historySignals > 0) {
            return;
        }
        pipeline.start();
        pipeline.loadCorpus();
        int signals = pipeline.loadHistory().size();
        await().atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> count("signal") == signals);
        // The chain's state reads follow the signals: wait until nothing more arrives.
        AtomicLong last = new AtomicLong(-1);
        await().atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(500))
            .during(Duration.ofSeconds(5))
            .until(() -> last.getAndSet(count(null)) == last.get());
        // Every read's vector follows off the lexical path.
        long reads = count(null);
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> embedded() == reads);
        historySignals = signals;
    }

    @Test
    @Order(1)
    void judgedAndHeldOutQueriesMeetTheFloors() throws Exception {
        loadDefault();

        RelevanceJudgments judgedSet = RelevanceJudgments.load("/search/relevance/judged.txt");
        Map<String, RelevanceJudgments> sets = new java.util.LinkedHashMap<>();
        sets.put("judged", judgedSet.withoutTag(RelevanceJudgments.PARAPHRASE));
        sets.put("held-out", RelevanceJudgments.load("/search/relevance/held-out.txt"));
        sets.put("judged paraphrases", judgedSet.withTag(RelevanceJudgments.PARAPHRASE));
        sets.put("held-out paraphrases", RelevanceJudgments.load("/search/relevance/held-out-paraphrase.txt"));
        sets.put("judged, all", judgedSet);
        Map<String, RelevanceJudgments.Report> lexical = new java.util.LinkedHashMap<>();
        Map<String, RelevanceJudgments.Report> hybrid = new java.util.LinkedHashMap<>();
        sets.forEach((name, set) -> {
            lexical.put(name, set.measure(q -> ranked(q, "lexical")));
            hybrid.put(name, set.measure(q -> ranked(q, "hybrid")));
        });
        StringBuilder report = new StringBuilder();
        sets.keySet()
            .forEach(name -> report.append(name)
                .append(": lexical ")
                .append(lexical.get(name).summary())
                .append(" | hybrid ")
                .append(hybrid.get(name).summary())
                .append('\n'));
        sets.keySet()
            .forEach(name -> report.append('\n')
                .append(name)
                .append(", hybrid, worst first:\n")
                .append(hybrid.get(name).details()));
        System.out.println(report);
        Files.writeString(Path.of("target", "search-relevance.txt"), report);
        // Every answer's ranked ids, one query a line, to score again against another
        // version of the sets.
        StringBuilder ranked = new StringBuilder();
        for (String ranking : List.of("lexical", "hybrid")) {
            for (RelevanceJudgments.Report r : (ranking.equals("lexical") ? lexical : hybrid).values()) {
                r.queries()
                    .forEach(q -> ranked.append(ranking)
                        .append('\t')
                        .append(q.query().text())
                        .append('\t')
                        .append(String.join(" ", q.ranked()))
                        .append('\n'));
            }
        }
        Files.writeString(Path.of("target", "search-relevance-ranked.tsv"), ranked.toString());
        RelevanceJudgments.Report judged = lexical.get("judged");
        RelevanceJudgments.Report heldOut = lexical.get("held-out");

        for (RelevanceJudgments.Report r : List.of(judged, heldOut)) {
            assertThat(r.queries().stream().filter(RelevanceJudgments.Scored::empty).map(s -> s.query().text()))
                .as("queries with no answer")
                .isEmpty();
        }
        assertThat(judged.ndcg()).as("judged nDCG@10: %s", judged.summary()).isGreaterThanOrEqualTo(TARGET_NDCG);
        assertThat(judged.bestFirst()).as("judged best answer first: %s", judged.summary())
            .isGreaterThanOrEqualTo(MIN_BEST_FIRST);
        assertThat(heldOut.ndcg()).as("held-out nDCG@10: %s", heldOut.summary())
            .isGreaterThanOrEqualTo(MIN_HELD_OUT_NDCG);
        assertThat(heldOut.bestFirst()).as("held-out best answer first: %s", heldOut.summary())
            .isGreaterThanOrEqualTo(MIN_HELD_OUT_BEST_FIRST);
        // Issue 40: the hybrid ranking keeps the lexical floors on the ordinary queries
        // and
        // finds more of the paraphrases (levels measured less a margin; docs/search.md).
        RelevanceJudgments.Report hybridJudged = hybrid.get("judged");
        RelevanceJudgments.Report hybridHeldOut = hybrid.get("held-out");
        assertThat(hybridJudged.ndcg()).as("hybrid judged nDCG@10: %s", hybridJudged.summary())
            .isGreaterThanOrEqualTo(TARGET_NDCG - 0.01);
        assertThat(hybridJudged.bestFirst()).as("hybrid judged best first: %s", hybridJudged.summary())
            .isGreaterThanOrEqualTo(MIN_BEST_FIRST);
        assertThat(hybridHeldOut.ndcg()).as("hybrid held-out nDCG@10: %s", hybridHeldOut.summary())
            .isGreaterThanOrEqualTo(MIN_HELD_OUT_NDCG);
        assertThat(hybridHeldOut.bestFirst()).as("hybrid held-out best first: %s", hybridHeldOut.summary())
            .isGreaterThanOrEqualTo(MIN_HELD_OUT_BEST_FIRST);
        for (String name : List.of("judged paraphrases", "held-out paraphrases", "judged, all")) {
            assertThat(hybrid.get(name).ndcg())
                .as("%s: hybrid %s over lexical %s", name, hybrid.get(name).summary(), lexical.get(name).summary())
                .isGreaterThanOrEqualTo(lexical.get(name).ndcg() + MIN_PARAPHRASE_GAIN);
        }
        // Exact names keep their entity first, whichever the ranking.
        for (String ranking : List.of("lexical", "hybrid")) {
            assertThat(ranked("ANET", ranking).get(0)).as(ranking).isEqualTo("company:arista-networks");
            assertThat(ranked("CoWoS", ranking)).as(ranking).startsWith("term:cowos", "term:cowos");
        }
    }

    /**
     * Issue 29's example on the bundled default: "CoWoS shortage" names the CoWoS term
     * (top result and first read), and the answer's sections hold the CoWoS term, the
     * advanced-packaging layer's status now and the newest tightening CoWoS signals,
     * newest first.
     */
    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void cowosShortageAnswersWithTheTermAndTheNewestCowosSignalsBesideIt() throws Exception {
        loadDefault();
        Map<String, Object> body = search("CoWoS shortage", 10, null);
        assertThat((Map<String, Object>) body.get("top")).containsEntry("id", "term:cowos")
            .containsEntry("kind", "term");
        List<Map<String, Object>> results = (List<Map<String, Object>>) body.get("results");
        assertThat(results.get(0).get("id")).isEqualTo("term:cowos");
        Map<String, Map<String, Object>> sections = new java.util.LinkedHashMap<>();
        for (Map<String, Object> section : (List<Map<String, Object>>) body.get("sections")) {
            sections.put((String) section.get("kind"), section);
        }
        assertThat(sections).containsKeys("term", "signal");
        assertThat(((List<Map<String, Object>>) sections.get("term").get("items")).get(0)).containsEntry("id",
                "term:cowos");
        // The bundled history's tightening signals that talk about CoWoS, from the
        // history file itself.
        java.util.Set<String> cowosSignals = new java.util.HashSet<>();
        for (var signal : io.chainfeed.chain.history.History
            .loadBundled(io.chainfeed.chain.reference.ChainReference.loadBundled())
            .signals()) {
            String text = (signal.getHeadline() + " " + signal.getBody()).toLowerCase(java.util.Locale.ROOT);
            if (text.contains("cowos") && "TIGHTENING".equals(signal.getDirection().name())) {
                cowosSignals.add("signal:" + signal.getId());
            }
        }
        List<Map<String, Object>> signals = (List<Map<String, Object>>) sections.get("signal").get("items");
        assertThat(signals).isNotEmpty().allSatisfy(s -> {
            assertThat(cowosSignals).contains((String) s.get("id"));
            assertThat(s.get("direction")).isEqualTo("tightening");
        });
        List<String> observed = signals.stream().map(s -> (String) s.get("observedAt")).toList();
        assertThat(observed).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        if (sections.containsKey("layer")) {
            assertThat(((List<Map<String, Object>>) sections.get("layer").get("items")).get(0))
                .containsEntry("id", "advanced-packaging")
                .containsKey("status");
        }
    }

    /**
     * Fifty reposts of one story (the chain model's repost rule: the same headline from
     * the same source, each with its own id and URL) are one result, listing the other
     * sources; paging past it never shows it again.
     */
    @Test
    @Order(3)
    @SuppressWarnings("unchecked")
    void fiftyRepostsOfAStoryAreOneResultWithTheOtherSources() throws Exception {
        loadDefault();
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < 50; i++) {
            batch.append(i == 0 ? "" : ",").append("""
                    {"id": "crucible-repost-%d", "headline": "Quartz crucible supply for wafer pullers is sold out",
                     "layers": ["semiconductor-materials"], "direction": "tightening", "magnitude": 2,
                     "observedAt": "2026-07-10T00:%02d:00Z",
                     "source": {"name": "Example wire", "url": "https://example.com/news/crucibles?copy=%d"}}
                    """.formatted(i, i, i));
        }
        pipeline.publishSignals(batch.append("]").toString());
        await().atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> count("signal") == historySignals + 50);
        // The chain may announce a state change for them: wait until the index is quiet,
        // so that the pages
        // below see one index (a read whose score changes between the first and the
        // second page may cross
        // that boundary, see docs/search.md).
        AtomicLong last = new AtomicLong(-1);
        await().atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(500))
            .during(Duration.ofSeconds(5))
            .until(() -> last.getAndSet(count(null)) == last.get());

        Map<String, Object> body = search("quartz crucible", 10, null);
        assertThat(body.get("total")).as("every matching read counts").isEqualTo(50);
        List<Map<String, Object>> results = (List<Map<String, Object>>) body.get("results");
        assertThat(results).hasSize(1);
        Map<String, Object> story = results.get(0);
        assertThat(story.get("id")).asString().startsWith("signal:crucible-repost-");
        assertThat(story.get("repostCount")).isEqualTo(49);
        List<Map<String, Object>> also = (List<Map<String, Object>>) story.get("alsoFrom");
        assertThat(also).isNotEmpty().allSatisfy(a -> {
            assertThat(a.get("id")).isNotEqualTo(story.get("id"));
            assertThat(a.get("name")).isEqualTo("Example wire");
            assertThat((String) a.get("url")).startsWith("https://example.com/news/crucibles?copy=");
        });
        assertThat(also.stream().map(a -> a.get("url")).distinct()).hasSize(also.size());

        // Paging a wider query 4 at a time: the story appears once, and no result
        // repeats.
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            Map<String, Object> page = search("crucible OR wafer", 4, cursor);
            for (Map<String, Object> r : (List<Map<String, Object>>) page.get("results")) {
                seen.add((String) r.get("id"));
            }
            cursor = (String) page.get("nextCursor");
        }
        while (cursor != null);
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(seen.stream().filter(id -> id.startsWith("signal:crucible-repost-"))).hasSize(1);
    }

    private Map<String, Object> search(String q, int size, String cursor) {
        ResponseEntity<Map<String, Object>> r = http.exchange(
                URI.create("/api/v1/search?size=" + size + "&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)
                        + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8))),
                HttpMethod.GET, null, JSON);
        assertThat(r.getStatusCode()).as("search '%s': %s", q, r.getBody()).isEqualTo(HttpStatus.OK);
        return r.getBody();
    }

    /**
     * Issue 40 item 3: a read's closest reads in meaning, from its own vector. RDMA's
     * nearest terms include one of the two ways RDMA travels (RoCE or InfiniBand); the
     * read itself is never among them and they come most similar first.
     */
    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void aReadsClosestReadsInMeaningComeFromItsVector() throws Exception {
        loadDefault();
        Map<String, Object> body = http.getForObject("/api/v1/reads/term:rdma/related?size=5", Map.class);
        List<Map<String, Object>> related = (List<Map<String, Object>>) body.get("related");
        List<String> ids = related.stream().map(r -> (String) r.get("id")).toList();
        assertThat(ids).hasSizeBetween(1, 5).doesNotContain("term:rdma");
        assertThat(ids).containsAnyOf("term:roce", "term:infiniband");
        List<Double> similarities = related.stream().map(r -> ((Number) r.get("similarity")).doubleValue()).toList();
        assertThat(similarities).isSortedAccordingTo(java.util.Comparator.reverseOrder())
            .allSatisfy(x -> assertThat(x).isBetween(0.3, 1.0));
        assertThat(http.getForEntity("/api/v1/reads/term:no-such-term/related", String.class).getStatusCode().value())
            .isEqualTo(404);
    }

    /** Reads of a kind in the index (all reads for null). */
    private long count(String kind) throws java.io.IOException {
        es.indices().refresh(r -> r.index(ReadsIndex.ALIAS));
        return es.count(c -> {
            c.index(ReadsIndex.ALIAS);
            if (kind != null) {
                c.query(q -> q.term(t -> t.field("kind").value(kind)));
            }
            return c;
        }).count();
    }

    /** Reads in the index with their vector. */
    private long embedded() throws java.io.IOException {
        es.indices().refresh(r -> r.index(ReadsIndex.ALIAS));
        return es.count(c -> c.index(ReadsIndex.ALIAS).query(q -> q.exists(e -> e.field("embeddedVersion")))).count();
    }

    /**
     * The ids a search answers, best first: its top entity, then its results.
     * @param ranking {@code lexical} or {@code hybrid}
     */
    @SuppressWarnings("unchecked")
    private List<String> ranked(String q, String ranking) {
        ResponseEntity<Map<String, Object>> r = http.exchange(URI
            .create("/api/v1/search?size=10&ranking=" + ranking + "&q=" + URLEncoder.encode(q, StandardCharsets.UTF_8)),
                HttpMethod.GET, null, JSON);
        assertThat(r.getStatusCode()).as("search '%s': %s", q, r.getBody()).isEqualTo(HttpStatus.OK);
        List<String> ids = new ArrayList<>();
        if (r.getBody().get("top") instanceof Map<?, ?> top) {
            ids.add((String) top.get("id"));
        }
        for (Map<String, Object> hit : (List<Map<String, Object>>) r.getBody().get("results")) {
            ids.add((String) hit.get("id"));
        }
        return ids;
    }

}
