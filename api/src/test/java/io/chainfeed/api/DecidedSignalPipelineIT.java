package io.chainfeed.api;

import static io.chainfeed.api.PipelineJson.JSON;
import static io.chainfeed.api.PipelineJson.layer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * Signals decided from their text, end to end on a real Kafka broker and a real
 * Elasticsearch: posted with headline, body, source and date only to the real ingest
 * service, a confident one is counted by the real chain-state topology and its read
 * (indexed, served by the API) carries the {@code signal} object with the words that
 * decided it; a low-confidence one is held: readable, marked held, not counted, until a
 * review confirms it and the chain counts it.
 */
@PipelineTest
class DecidedSignalPipelineIT {

    private static final String EDITOR_KEY = "decided-it-editor-key";

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("decided-pipeline-it", TestPipeline.Streams.CHAIN_STATE);

    @Autowired
    TestRestTemplate http;

    @Test
    @SuppressWarnings("unchecked")
    void aDecidedSignalCountsAHeldOneCountsOnlyAfterReview() {
        String ingestUrl = pipeline.startWithIngestService(EDITOR_KEY);
        await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/chain"), c -> c != null && ((List<?>) c.get("layers")).size() == 14);

        ResponseEntity<Map<String, Object>> posted = post(ingestUrl + "/ingest/v1/signals",
                """
                        [{"id": "grid-short", "headline": "Utility pauses new data-center connections as power runs short",
                          "body": "The utility said it lacks the generating capacity for new large loads until 2028.",
                          "observedAt": "2026-11-02T13:00:00Z",
                          "source": {"name": "Example wire", "url": "https://news.example.com/decide/06"}},
                         {"id": "dram-mixed", "headline": "DRAM prices may rise next quarter even as new memory lines come online",
                          "body": "Analysts are split on whether new supply will catch up.",
                          "observedAt": "2026-11-02T18:00:00Z",
                          "source": {"name": "Example wire", "url": "https://news.example.com/decide/11"}},
                         {"id": "cfo", "headline": "Nvidia names a new chief financial officer",
                          "body": "The appointment takes effect in January.", "observedAt": "2026-11-03T09:00:00Z",
                          "source": {"name": "Example wire", "url": "https://news.example.com/decide/14"}}]
                        """);
        assertThat(posted.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        assertThat((List<Map<String, Object>>) posted.getBody().get("items")).extracting(i -> i.get("outcome"))
            .containsExactly("accepted", "accepted", "skipped");

        // the confident one counts, and its read says what decided it
        Map<String, Object> counted = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/chain"),
                    c -> c != null && ((Number) layer(c, "energy-power").get("signalCount")).intValue() == 1);
        assertThat(((Number) layer(counted, "energy-power").get("pressure")).doubleValue()).isPositive();
        Map<String, Object> read = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/reads/signal:grid-short"), r -> r != null);
        Map<String, Object> signal = (Map<String, Object>) read.get("signal");
        assertThat(signal).containsEntry("direction", "tightening")
            .containsEntry("decidedBy", "text")
            .containsEntry("held", false)
            .containsEntry("until", "2029-01-01T00:00:00Z");
        assertThat((List<Map<String, Object>>) ((Map<String, Object>) signal.get("evidence")).get("direction"))
            .anySatisfy(e -> assertThat(e).containsEntry("text", "runs short").containsEntry("field", "headline"));

        // the held one is readable and marked, but memory does not count it
        Map<String, Object> heldRead = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/reads/signal:dram-mixed"), r -> r != null);
        assertThat((Map<String, Object>) heldRead.get("signal")).containsEntry("held", true);
        assertThat(layer(get("/api/v1/chain"), "memory")).containsEntry("signalCount", 0);

        ResponseEntity<Map<String, Object>> review = post(ingestUrl + "/ingest/v1/signals/dram-mixed/review", "{}");
        assertThat(review.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/chain"),
                    c -> c != null && ((Number) layer(c, "memory").get("signalCount")).intValue() == 1);
        Map<String, Object> reviewed = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get("/api/v1/reads/signal:dram-mixed"),
                    r -> r != null && Boolean.FALSE.equals(((Map<String, Object>) r.get("signal")).get("held")));
        assertThat((Map<String, Object>) ((Map<String, Object>) reviewed.get("signal")).get("review"))
            .containsEntry("outcome", "confirmed");
        assertThat(get("/api/v1/reads/signal:cfo")).as("a skipped item is never a read").isNull();
    }

    private ResponseEntity<Map<String, Object>> post(String url, String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setBearerAuth(EDITOR_KEY);
        return http.getRestTemplate().exchange(url, HttpMethod.POST, new HttpEntity<>(body, headers), JSON);
    }

    private Map<String, Object> get(String path) {
        return PipelineJson.bodyIfOk(http, path);
    }

}
