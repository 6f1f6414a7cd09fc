package io.chainfeed.ingest.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.TopicProbe;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * {@code POST /ingest/v1/pages} against a real Kafka broker (KRaft, in-process): a page
 * is parsed and published once, a re-post publishes nothing, a dry run publishes nothing,
 * and a broken page is refused with a problem detail naming what is missing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "chainfeed.ingest.load-corpus=true")
@EmbeddedKafka(kraft = true, partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class PageEndpointIT {

    @Autowired
    TestRestTemplate http;

    @Autowired
    EmbeddedKafkaBroker broker;

    private ResponseEntity<Map<String, Object>> post(String body, MediaType type, String query) {
        return IngestRequests.post(http, "/ingest/v1/pages" + query, body, type, null);
    }

    private static String page() throws Exception {
        try (InputStream in = PageEndpointIT.class.getResourceAsStream("/it/rdma.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void publishesAParsedPageExactlyOnce() throws Exception {
        String page = page();
        ResponseEntity<Map<String, Object>> dry = post(page, MediaType.TEXT_PLAIN, "?dryRun=true");
        assertThat(dry.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(dry.getBody()).containsEntry("published", false);

        ResponseEntity<Map<String, Object>> first = post(page, MediaType.TEXT_PLAIN, "");
        assertThat(first.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        Map<String, Object> term = (Map<String, Object>) first.getBody().get("term");
        assertThat(term).containsEntry("slug", "rdma").containsEntry("layer", "network-fabric");
        assertThat((List<Map<String, Object>>) term.get("companies")).extracting(c -> c.get("symbol"))
            .containsExactly("ANET", "ORCL", "HPE", "2345.TW");

        ResponseEntity<Map<String, Object>> again = post(page, MediaType.TEXT_PLAIN, "");
        assertThat(again.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(again.getBody()).containsEntry("published", false)
            .containsEntry("version", first.getBody().get("version"));

        // Both posts were answered, so both publishes are committed: read the topic to
        // its end.
        List<TermUpdate> pageRecords;
        try (TopicProbe<TermUpdate> terms = TopicProbe.avro(broker.getBrokersAsString(), Topics.TERMS,
                TermUpdate.class)) {
            pageRecords = terms.toEnd(Duration.ofSeconds(30))
                .stream()
                .filter(r -> r.key().equals("rdma") && r.value().getOrigin().equals("page"))
                .map(TopicProbe.Rec::value)
                .toList();
        }
        assertThat(pageRecords).hasSize(1);
        assertThat(pageRecords.get(0).getVersion()).isEqualTo(((Number) first.getBody().get("version")).longValue());
    }

    @Test
    void refusesABrokenPageWithAProblemDetail() {
        ResponseEntity<Map<String, Object>> r = post("Skip to content\nAI supply chain term\n\nJust a title\n",
                MediaType.TEXT_PLAIN, "");
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.UNPROCESSABLE_ENTITY);
        assertThat(r.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat((List<?>) r.getBody().get("missing")).isNotEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void refusesToPublishAReadNobodyCanCheck() throws Exception {
        String unknown = page().replace("\nRDMA\n", "\nRDMA fabric tuning\n");
        ResponseEntity<Map<String, Object>> refused = post(unknown, MediaType.TEXT_PLAIN, "");
        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.UNPROCESSABLE_ENTITY);
        assertThat((List<Object>) refused.getBody().get("missing")).containsExactly("source");

        assertThat(post(unknown, MediaType.TEXT_PLAIN, "?dryRun=true").getStatusCode())
            .as("a dry run answers as the real publish would")
            .isEqualTo(HttpStatus.UNPROCESSABLE_ENTITY);
        ResponseEntity<Map<String, Object>> badUrl = post(unknown, MediaType.TEXT_PLAIN,
                "?sourceUrl=ftp://example.org/x");
        assertThat(badUrl.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(badUrl.getHeaders().getContentType().toString()).contains("application/problem+json");
        ResponseEntity<Map<String, Object>> accepted = post(unknown, MediaType.TEXT_PLAIN,
                "?sourceUrl=https://example.org/glossary/rdma-fabric-tuning");
        assertThat(accepted.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        assertThat(accepted.getBody()).containsEntry("readId", "term:rdma-fabric-tuning");
    }

    @Test
    void missingParametersNameTheProblemType() {
        ResponseEntity<Map<String, Object>> r = post("x", MediaType.TEXT_PLAIN, "?dryRun=maybe");
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(r.getBody().get("type")).isEqualTo("https://chainfeed.io/problems/invalid-request");
    }

    @Test
    void refusesUnsupportedMediaTypes() {
        ResponseEntity<Map<String, Object>> r = post("{}", MediaType.APPLICATION_JSON, "");
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
        assertThat(r.getHeaders().getContentType().toString()).contains("application/problem+json");
    }

}
