package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The live chain model end to end, on a real Kafka broker and a real Elasticsearch: the
 * real ingest service takes {@code POST /ingest/v1/signals} under an editor key, the real
 * chain-state topology and indexer run, and {@code GET /api/v1/chain} shows the memory
 * layer tight with its owners and the signal as the cause, the layers downstream
 * squeezed; a later easing signal relaxes it.
 */
@PipelineTest
class ChainPipelineIT {

    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    private static final String EDITOR_KEY = "chain-it-editor-key";

    /**
     * The day of the first signal, two days ago (UTC): a change of the chain is announced
     * with a state read only while the chain is within
     * {@code ChainStateTopology.ANNOUNCED_WITHIN} (seven days) of the wall clock.
     */
    private static final LocalDate DAY1 = LocalDate.now(ZoneOffset.UTC).minusDays(2);

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("chain-pipeline-it", TestPipeline.Streams.CHAIN_STATE);

    @Autowired
    TestRestTemplate http;

    @Test
    @SuppressWarnings("unchecked")
    void aTighteningHbmSignalTightensMemoryAndSqueezesDownstreamUntilAnEasingSignalRelaxesIt() throws Exception {
        String ingestUrl = pipeline.startWithIngestService(EDITOR_KEY);

        // With reference data and no signal yet, every layer is there and balanced.
        Map<String, Object> empty = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(this::chain, c -> layers(c).size() == 14);
        assertThat(layers(empty))
            .allSatisfy(l -> assertThat(l).containsEntry("status", "balanced").doesNotContainKey("asOf"));
        assertThat(empty).doesNotContainKey("asOf");

        ResponseEntity<Map<String, Object>> unauthorised = postSignal(ingestUrl, "{}", null);
        assertThat(unauthorised.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);

        ResponseEntity<Map<String, Object>> posted = postSignal(ingestUrl, """
                {"id": "hbm-sold-out", "headline": "SK hynix says its HBM supply is sold out for next year",
                 "body": "Samsung Electronics and Micron report the same: HBM allocation is fully booked.",
                 "layers": ["HBM"], "direction": "tightening", "magnitude": 4,
                 "observedAt": "%sT09:00:00+09:00",
                 "source": {"name": "Example wire", "url": "https://example.com/news/hbm-sold-out"}}
                """.formatted(DAY1), EDITOR_KEY);
        assertThat(posted.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);

        Map<String, Object> tight = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(this::chain, c -> "tight".equals(layer(c, "memory").get("status")));
        Map<String, Object> memory = layer(tight, "memory");
        assertThat(tight).containsEntry("asOf", DAY1 + "T00:00:00Z");
        assertThat(symbols(memory.get("owners"))).contains("000660.KS", "005930.KS", "MU");
        assertThat(names(memory.get("owners"))).contains("SK hynix", "Samsung Electronics", "Micron Technology");
        assertThat((List<Map<String, Object>>) memory.get("causes")).singleElement().satisfies(c -> {
            assertThat(c).containsEntry("signalId", "hbm-sold-out")
                .containsEntry("readId", "signal:hbm-sold-out")
                .containsEntry("direction", "tightening")
                .containsEntry("hops", 0);
            assertThat(((Number) c.get("contribution")).doubleValue()).isEqualTo(4.0);
        });
        assertThat(memory.get("asOf")).isEqualTo(DAY1 + "T00:00:00Z");
        for (String downstream : List.of("advanced-packaging", "accelerators", "servers-systems", "cloud-compute",
                "models-software", "applications")) {
            Map<String, Object> d = layer(tight, downstream);
            assertThat(d).as(downstream).containsEntry("squeezed", true);
            assertThat((List<Map<String, Object>>) d.get("squeezedBy")).extracting(s -> s.get("layer"))
                .as(downstream)
                .containsExactly("memory");
            assertThat((List<Map<String, Object>>) d.get("causes")).extracting(c -> c.get("signalId"))
                .as(downstream)
                .containsExactly("hbm-sold-out");
        }
        assertThat(layer(tight, "foundry")).containsEntry("squeezed", false);
        assertThat(memory.get("squeezedCompanyCount")).isNotEqualTo(0);

        // The change of state is a read: indexed, and on the JSON Feed of kind:state AND
        // layer:memory.
        Map<String, Object> stateFeed = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/feeds/json?topic=kind:state AND layer:memory"),
                    f -> f != null && !((List<?>) f.get("items")).isEmpty());
        assertThat((List<Map<String, Object>>) stateFeed.get("items")).singleElement().satisfies(item -> {
            assertThat(item.get("id")).asString().endsWith("read/state:memory:1");
            assertThat(item).containsEntry("title", "Memory and storage turned tight");
            assertThat(item.get("url")).asString().endsWith("/layers/memory");
            assertThat(item.get("content_text")).asString()
                .contains("SK hynix says its HBM supply is sold out")
                .contains("Example wire");
        });
        Map<String, Object> stateRead = get("/api/v1/reads/state:memory:1");
        assertThat(stateRead).containsEntry("kind", "state").containsEntry("slug", "memory");
        assertThat(get("/api/v1/feeds/json?topic=kind:state AND layer:foundry").get("items")).asList().isEmpty();

        ResponseEntity<Map<String, Object>> one = http.exchange("/api/v1/layers/memory", HttpMethod.GET, null, JSON);
        assertThat(one.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(one.getBody()).containsEntry("status", "tight");
        assertThat(symbols(one.getBody().get("squeezedCompanies"))).contains("NVDA").doesNotContain("MU");
        // the full cause list, paged: the signal on memory, and one hop on from it on
        // packaging
        Map<String, Object> page = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/layers/advanced-packaging/causes?size=1"),
                    p -> p != null && !((List<?>) p.get("causes")).isEmpty());
        assertThat((List<Map<String, Object>>) page.get("causes")).singleElement().satisfies(c -> {
            assertThat(c).containsEntry("signalId", "hbm-sold-out")
                .containsEntry("originLayer", "memory")
                .containsEntry("hops", 1);
            assertThat(((Number) c.get("contribution")).doubleValue()).isEqualTo(2.0);
        });
        assertThat(page.get("nextCursor")).isNull();
        assertThat(
                http.exchange("/api/v1/layers/memory/causes?cursor=%25%25", HttpMethod.GET, null, JSON).getStatusCode())
            .isEqualTo(HttpStatus.BAD_REQUEST);
        ResponseEntity<Map<String, Object>> missing = http.exchange("/api/v1/layers/nope", HttpMethod.GET, null, JSON);
        assertThat(missing.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(missing.getHeaders().getContentType().toString()).contains("application/problem+json");

        // A company: the layers it owns, its exposure to tight layers, and its latest
        // reads (the signal read).
        Map<String, Object> nvidia = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/companies/NVDA"), c -> c != null);
        assertThat((List<Map<String, Object>>) nvidia.get("exposure")).anySatisfy(e -> {
            assertThat(e).containsEntry("tightLayer", "memory").containsEntry("viaLayer", "accelerators");
            assertThat((List<String>) e.get("causes")).containsExactly("hbm-sold-out");
        });
        Map<String, Object> hynix = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/companies/000660.KS"),
                    c -> c != null && ((List<Map<String, Object>>) c.get("latestReads")).stream()
                        .anyMatch(r -> "signal:hbm-sold-out".equals(r.get("id"))));
        assertThat((List<Map<String, Object>>) hynix.get("layers")).extracting(l -> l.get("id")).contains("memory");
        assertThat(http.exchange("/api/v1/companies/NOPE", HttpMethod.GET, null, JSON).getStatusCode())
            .isEqualTo(HttpStatus.NOT_FOUND);
        Map<String, Object> read = get("/api/v1/reads/signal:hbm-sold-out");
        assertThat(read).containsEntry("kind", "signal");

        // A later easing signal relaxes memory and lifts the squeeze downstream.
        ResponseEntity<Map<String, Object>> easing = postSignal(ingestUrl, """
                {"id": "hbm-capacity-added", "headline": "New HBM lines come online early",
                 "layers": "memory", "direction": "easing", "magnitude": 4, "observedAt": "%s",
                 "source": {"name": "Example wire", "url": "https://example.com/news/hbm-lines"}}
                """.formatted(DAY1.plusDays(1)), EDITOR_KEY);
        assertThat(easing.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        Map<String, Object> relaxed = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(this::chain, c -> (DAY1.plusDays(1) + "T00:00:00Z").equals(layer(c, "memory").get("asOf")));
        Map<String, Object> memoryAfter = layer(relaxed, "memory");
        assertThat(memoryAfter.get("status")).isEqualTo("balanced");
        assertThat(((Number) memoryAfter.get("pressure")).doubleValue()).isLessThan(1.0);
        assertThat(memoryAfter.get("squeezedCompanyCount")).isEqualTo(0);
        assertThat((List<Map<String, Object>>) memoryAfter.get("causes")).extracting(c -> c.get("signalId"))
            .containsExactlyInAnyOrder("hbm-sold-out", "hbm-capacity-added");
        assertThat(layer(relaxed, "accelerators")).containsEntry("squeezed", false);
        Map<String, Object> relaxedFeed = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/feeds/json?topic=kind:state AND layer:memory"),
                    f -> f != null && ((List<?>) f.get("items")).size() == 2);
        assertThat((List<Map<String, Object>>) relaxedFeed.get("items")).extracting(i -> i.get("title"))
            .containsExactly("Memory and storage turned balanced", "Memory and storage turned tight");

        // Fifty signals with their own ids, the same headline and source: the layer moves
        // as far as for the first.
        postSignal(ingestUrl, repost(0), EDITOR_KEY);
        Map<String, Object> once = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(this::chain, c -> ((Number) layer(c, "foundry").get("signalCount")).intValue() == 1);
        double first = ((Number) layer(once, "foundry").get("pressure")).doubleValue();
        StringBuilder batch = new StringBuilder("[");
        for (int i = 1; i < 50; i++) {
            batch.append(i == 1 ? "" : ",").append(repost(i));
        }
        assertThat(postSignal(ingestUrl, batch.append("]").toString(), EDITOR_KEY).getStatusCode())
            .isEqualTo(HttpStatus.ACCEPTED);
        Map<String, Object> reposted = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(this::chain, c -> ((List<Map<String, Object>>) layer(c, "foundry").get("causes")).stream()
                .anyMatch(x -> "wafer-repost-49".equals(x.get("signalId"))));
        assertThat(((Number) layer(reposted, "foundry").get("pressure")).doubleValue()).isEqualTo(first);
        assertThat(layer(reposted, "foundry")).containsEntry("signalCount", 1);
    }

    /**
     * One of fifty reposts of a story: its own id and URL, the same headline and source,
     * all observed the same day.
     */
    private static String repost(int i) {
        return """
                {"id": "wafer-repost-%d", "headline": "Foundry wafer starts are fully booked",
                 "layers": ["foundry"], "direction": "tightening", "magnitude": 2, "observedAt": "%sT00:%02d:00Z",
                 "source": {"name": "Example wire", "url": "https://example.com/news/wafers?copy=%d"}}
                """.formatted(i, DAY1.plusDays(1), i, i);
    }

    private ResponseEntity<Map<String, Object>> postSignal(String ingestUrl, String body, String key) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        if (key != null) {
            headers.setBearerAuth(key);
        }
        return http.getRestTemplate()
            .exchange(ingestUrl + "/ingest/v1/signals", HttpMethod.POST, new HttpEntity<>(body, headers), JSON);
    }

    private Map<String, Object> chain() {
        return get("/api/v1/chain");
    }

    private Map<String, Object> get(String path) {
        ResponseEntity<Map<String, Object>> r = http.exchange(path, HttpMethod.GET, null, JSON);
        return r.getStatusCode() == HttpStatus.OK ? r.getBody() : null;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> layers(Map<String, Object> chain) {
        return chain == null ? List.of() : (List<Map<String, Object>>) chain.get("layers");
    }

    private static Map<String, Object> layer(Map<String, Object> chain, String id) {
        return layers(chain).stream().filter(l -> id.equals(l.get("id"))).findFirst().orElse(Map.of());
    }

    @SuppressWarnings("unchecked")
    private static List<Object> symbols(Object companies) {
        return ((List<Map<String, Object>>) companies).stream().map(c -> c.get("symbol")).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> names(Object companies) {
        return ((List<Map<String, Object>>) companies).stream().map(c -> c.get("name")).toList();
    }

}
