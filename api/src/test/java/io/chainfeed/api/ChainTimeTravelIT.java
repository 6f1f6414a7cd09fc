package io.chainfeed.api;

import static io.chainfeed.api.PipelineJson.JSON;
import static io.chainfeed.api.PipelineJson.layer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.chainfeed.chain.ChainDecay;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.tagging.DeadLetterDeserializationHandler;
import io.chainfeed.testsupport.PrometheusScrape;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * Time travel end to end, on a real Kafka broker and a real Elasticsearch: the real
 * streams service (both topologies, the indexer and its interactive-query endpoint) and
 * the api under test, which asks it for the chain as of an instant. While streams is not
 * up, an {@code asOf} query is a 503 problem; then a tightening signal of magnitude 5
 * observed now on memory is in the live chain and missing from the chain two days
 * earlier, and the layer's history follows the model's definition step by step.
 */
@PipelineTest
class ChainTimeTravelIT {

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("chain-time-travel-it").withStreamsService("10s");

    @Autowired
    TestRestTemplate http;

    @Test
    @SuppressWarnings("unchecked")
    void theChainAsOfTwoDaysAgoLacksASignalObservedNowAndTheHistoryFollowsTheModel() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant twoDaysAgo = now.minus(Duration.ofDays(2));

        ResponseEntity<Map<String, Object>> down = http.exchange(URI.create("/api/v1/chain?asOf=" + twoDaysAgo),
                HttpMethod.GET, null, JSON);
        assertThat(down.getStatusCode()).as("streams not started yet").isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(down.getBody()).containsEntry("type", "https://chainfeed.io/problems/chain-unavailable");
        assertThat(down.getHeaders().getFirst("Retry-After")).isEqualTo("5");

        pipeline.publishReference();
        pipeline.startStreamsService();
        streamsSeriesAreThereBeforeAnySignalAndPassPromtool();
        pipeline.publishSignals("""
                [{"id": "tt-earlier", "headline": "HBM lead times stretch", "layers": ["memory"],
                  "direction": "tightening", "magnitude": 1, "observedAt": "%s",
                  "source": {"name": "Example wire", "url": "https://example.com/news/tt-earlier"}},
                 {"id": "tt-now", "headline": "HBM sold out for next year", "layers": ["memory"],
                  "direction": "tightening", "magnitude": 5, "observedAt": "%s",
                  "source": {"name": "Example wire", "url": "https://example.com/news/tt-now"}}]
                """.formatted(now.minus(Duration.ofDays(5)), now));

        // the live chain is as of the newest signal: 5 + 1 × 2^(−5 d / half-life), under
        // the soft cap's knee (6)
        double earlierNow = Math.pow(2, -5.0 / ChainDecay.HALF_LIFE_DAYS);
        Map<String, Object> live = await().atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/chain"), c -> c != null && now.toString().equals(c.get("asOf")));
        assertThat(pressure(layer(live, "memory"))).isCloseTo(5 + earlierNow, within(0.0001));

        Map<String, Object> past = get("/api/v1/chain?asOf=" + twoDaysAgo);
        assertThat(past).containsEntry("asOf", twoDaysAgo.toString());
        Map<String, Object> memoryPast = layer(past, "memory");
        double earlierThen = Math.pow(2, -3.0 / ChainDecay.HALF_LIFE_DAYS);
        assertThat(pressure(memoryPast)).isCloseTo(earlierThen, within(0.0001));
        assertThat((List<Map<String, Object>>) memoryPast.get("causes")).extracting(c -> c.get("signalId"))
            .containsExactly("tt-earlier");
        assertThat(memoryPast.get("causesUrl")).isNull();
        // as of now, the new signal weighs its full magnitude: the difference is exactly
        // its weight
        Map<String, Object> atNow = get("/api/v1/chain?asOf=" + now);
        assertThat(pressure(layer(atNow, "memory")) - 5).isCloseTo(earlierNow, within(0.0001));
        assertThat(layer(atNow, "memory")).containsEntry("status", "tight");
        // inheritance as of the instant: packaging, with no signals of its own, inherits
        // half of its tightest supplier's pressure (issue 37), tight memory now and
        // balanced memory two days ago alike
        assertThat(pressure(layer(atNow, "advanced-packaging"))).isCloseTo((5 + earlierNow) / 2, within(0.0001));
        assertThat(layer(past, "memory")).containsEntry("status", "balanced");
        assertThat(pressure(layer(past, "advanced-packaging"))).isCloseTo(earlierThen / 2, within(0.0001));

        Map<String, Object> memoryLayer = get("/api/v1/layers/memory?asOf=" + twoDaysAgo);
        assertThat(pressure(memoryLayer)).isCloseTo(earlierThen, within(0.0001));
        Map<String, Object> nvidia = get("/api/v1/companies/NVDA?asOf=" + now.minus(Duration.ofDays(6)));
        assertThat((List<?>) nvidia.get("exposure")).isEmpty();
        assertThat(http.exchange(URI.create("/api/v1/chain?asOf=2026-02-30T00:00:00Z"), HttpMethod.GET, null, JSON)
            .getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        // a caller's bad date is the caller's error: 100 in a row, each a 400 naming the
        // range, and time travel stays on for everyone (the breaker opened after a few
        // before, issue 42)
        for (int i = 0; i < 100; i++) {
            ResponseEntity<Map<String, Object>> bad = http
                .exchange(URI.create("/api/v1/chain?asOf=1969-12-31T00:00:00Z"), HttpMethod.GET, null, JSON);
            assertThat(bad.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
            assertThat((String) bad.getBody().get("detail")).contains("1970-01-01T00:00:00Z");
        }
        assertThat(
                http.exchange(URI.create("/api/v1/layers/memory/history"), HttpMethod.GET, null, JSON).getStatusCode())
            .isEqualTo(HttpStatus.OK);
        assertThat(http.exchange(URI.create("/api/v1/chain?asOf=1970-01-01T00:00:00Z"), HttpMethod.GET, null, JSON)
            .getStatusCode()).as("time zero, before any signal: the empty chain").isEqualTo(HttpStatus.OK);
        assertThat(http
            .exchange(URI.create("/api/v1/search?q=memory&from=%2B10000-01-01T00:00:00Z"), HttpMethod.GET, null, JSON)
            .getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);

        // the history: one point a day for 7 days ending now, each the definition at that
        // instant
        Map<String, Object> history = get(
                "/api/v1/layers/memory/history?from=" + now.minus(Duration.ofDays(6)) + "&to=" + now + "&step=P1D");
        List<Map<String, Object>> points = (List<Map<String, Object>>) history.get("points");
        assertThat(points).hasSize(7);
        for (int i = 0; i < 7; i++) {
            Instant at = now.minus(Duration.ofDays(6 - i));
            // the earlier signal is observed at now − 5 d = point 1
            double daysSinceEarlier = i - 1;
            double expected = (daysSinceEarlier < 0 ? 0 : Math.pow(2, -daysSinceEarlier / ChainDecay.HALF_LIFE_DAYS))
                    + (i == 6 ? 5 : 0);
            assertThat(points.get(i)).containsEntry("at", at.toString());
            assertThat(pressure(points.get(i))).as("point %s", i).isCloseTo(expected, within(0.0001));
        }
        assertThat(http.exchange(URI.create("/api/v1/layers/nope/history"), HttpMethod.GET, null, JSON).getStatusCode())
            .isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(http.exchange(URI.create("/api/v1/layers/memory/history?step=PT30S"), HttpMethod.GET, null, JSON)
            .getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
    }

    private Map<String, Object> get(String path) {
        return PipelineJson.bodyIfOk(http, path);
    }

    private static double pressure(Map<String, Object> layer) {
        return ((Number) layer.get("pressure")).doubleValue();
    }

    /**
     * Right after the streams service started, before any signal: its {@code chainfeed_*}
     * series are there, the dead-letter counters of both applications and the indexer at
     * zero for every topic they read and every reason, and promtool reports nothing on
     * them (skipped without promtool unless {@code CI=true}). The api under test runs in
     * this JVM too, but each service registers on its own injected registry: none of the
     * api's {@code chainfeed_*} series show here.
     */
    private static void streamsSeriesAreThereBeforeAnySignalAndPassPromtool() {
        PrometheusScrape metrics = PrometheusScrape.of("streams",
                "http://127.0.0.1:" + pipeline.streamsServicePort() + "/actuator/prometheus");
        String tagging = "chain-time-travel-it";
        Map<String, List<String>> readers = Map.of("streams-indexer", List.of(Topics.READS),
                DeadLetterDeserializationHandler.readerOf(tagging),
                List.of(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES, Topics.REFERENCE_TERMS),
                DeadLetterDeserializationHandler.readerOf(tagging + "-chain"),
                List.of(Topics.SIGNALS, Topics.LAYERS, Topics.COMPANIES, Topics.REFERENCE_TERMS));
        readers.forEach((reader, topics) -> {
            for (String topic : topics) {
                for (DeadLetters.Reason reason : DeadLetters.Reason.values()) {
                    metrics.assertZero("chainfeed_dead_letters_total", "reader=\"" + reader + "\"",
                            "reason=\"" + reason.tag() + "\"", "topic=\"" + topic + "\"");
                }
            }
        });
        assertThat(metrics.text()).containsPattern(
                "chainfeed_dead_letters_total\\{[^}]*reader=\"streams-chain-time-travel-it-chain\"[^}]*topic=\"chain-time-travel-it-chain-[^\"]*-repartition\"[^}]*\\} 0\\.0");
        for (String kind : List.of("term", "signal")) {
            metrics.assertZero("chainfeed_records_tagged_total", "kind=\"" + kind + "\"");
        }
        assertThat(metrics.value("chainfeed_records_indexed_total")).isPresent();
        metrics.assertChainfeedSeriesPassPromtool();
    }

}
