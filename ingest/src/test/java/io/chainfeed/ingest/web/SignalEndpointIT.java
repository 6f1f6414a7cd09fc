package io.chainfeed.ingest.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.PrometheusScrape;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * {@code POST /ingest/v1/signals} against a real Kafka broker: the editor key is
 * required, valid signals of a batch are published while invalid ones are reported by
 * index, line, field and reason, and a batch with nothing valid is a 422 problem detail.
 * First, before any signal: the service's {@code chainfeed_*} series are there and pass
 * Prometheus's linter.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        // the SHA-256 of "it-editor-key": only hashes are ever configured
        properties = "chainfeed.ingest.editor-key-hashes=2f91bc73466d7ce61751e22895c84505ecdca44f2e3ed7e60ef2da79f9149dc5")
@EmbeddedKafka(kraft = true, partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
@AutoConfigureObservability
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SignalEndpointIT {

    private static final String VALID = """
            {"id": "hbm-1", "headline": "HBM allocation sold out", "layers": ["HBM"], "direction": "tightening",
             "magnitude": 4, "observedAt": "Sun, 01 Mar 2026 09:30:00 +0900",
             "source": {"name": "Example", "url": "https://example.com/hbm-1"}}""";

    @Autowired
    TestRestTemplate http;

    @Autowired
    EmbeddedKafkaBroker broker;

    private ResponseEntity<Map<String, Object>> post(String body, String type, String key) {
        return IngestRequests.post(http, "/ingest/v1/signals", body, MediaType.parseMediaType(type), key);
    }

    /**
     * Right after start, before any signal: ingest's {@code chainfeed_*} series are
     * there, the ledger's dead-letter counters at zero for each topic it reads and every
     * reason, and promtool reports nothing on them (skipped without promtool unless
     * {@code CI=true}).
     */
    @Test
    @Order(1)
    void theChainfeedSeriesAreThereAtStartAndPassPromtool() {
        PrometheusScrape metrics = new PrometheusScrape("ingest",
                http.getForObject("/actuator/prometheus", String.class));
        for (String topic : TermPublisher.LEDGER_TOPICS) {
            for (DeadLetters.Reason reason : DeadLetters.Reason.values()) {
                metrics.assertZero("chainfeed_dead_letters_total", "reader=\"ingest-ledger\"",
                        "reason=\"" + reason.tag() + "\"", "topic=\"" + topic + "\"");
            }
        }
        for (String kind : List.of("signal", "term", "reference")) {
            assertThat(metrics.value("chainfeed_records_published_total", "kind=\"" + kind + "\"")).isPresent();
        }
        metrics.assertZero("chainfeed_records_accepted_total", "kind=\"signal\"");
        metrics.assertZero("chainfeed_ingest_transactions_total", "outcome=\"aborted\"");
        assertThat(metrics.value("chainfeed_signals_skipped_total")).isPresent();
        assertThat(metrics.value("chainfeed_ingest_producers_ready")).isPresent();
        metrics.assertChainfeedSeriesPassPromtool();
    }

    @Test
    void anEditorKeyIsRequired() {
        ResponseEntity<Map<String, Object>> none = post(VALID, "application/json", null);
        assertThat(none.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(none.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat(none.getHeaders().getFirst("WWW-Authenticate")).startsWith("Bearer");
        assertThat(post(VALID, "application/json", "wrong-key").getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
    }

    @Test
    @SuppressWarnings("unchecked")
    void validSignalsArePublishedAndInvalidOnesReported() {
        ResponseEntity<Map<String, Object>> one = post(VALID, "application/json", "it-editor-key");
        assertThat(one.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        List<Map<String, Object>> accepted = (List<Map<String, Object>>) one.getBody().get("accepted");
        assertThat(accepted).singleElement().satisfies(a -> {
            assertThat(a).containsEntry("id", "hbm-1")
                .containsEntry("readId", "signal:hbm-1")
                .containsEntry("observedAt", "2026-03-01T00:30:00Z");
            assertThat((List<String>) a.get("layers")).containsExactly("memory");
        });

        String ndjson = VALID.replace("\n", " ").replace("hbm-1", "hbm-2") + "\n"
                + "{\"headline\": \"No date\", \"layers\": [\"memory\"], \"direction\": \"easing\", \"magnitude\": 2,"
                + " \"observedAt\": \"someday\", \"source\": {\"name\": \"E\", \"url\": \"https://e.com/x\"}}\n";
        ResponseEntity<Map<String, Object>> batch = post(ndjson, "application/x-ndjson", "it-editor-key");
        assertThat(batch.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        assertThat((List<Map<String, Object>>) batch.getBody().get("accepted")).extracting(a -> a.get("id"))
            .containsExactly("hbm-2");
        assertThat((List<Map<String, Object>>) batch.getBody().get("rejected")).singleElement().satisfies(r -> {
            assertThat(r).containsEntry("index", 1).containsEntry("line", 2).containsEntry("field", "observedAt");
            assertThat((String) r.get("reason")).contains("'someday'");
        });

        ResponseEntity<Map<String, Object>> bad = post("[{\"headline\": \"x\", \"magnitude\": 7}]", "application/json",
                "it-editor-key");
        assertThat(bad.getStatusCode()).isEqualTo(HttpStatus.UNPROCESSABLE_ENTITY);
        assertThat(bad.getHeaders().getContentType().toString()).contains("application/problem+json");
        assertThat((List<Map<String, Object>>) bad.getBody().get("errors")).extracting(e -> e.get("field"))
            // layers and direction left out are decided from the text
            .contains("magnitude", "observedAt", "source");

        List<ConstraintSignal> published = readSignals(2);
        assertThat(published).extracting(ConstraintSignal::getId).containsExactly("hbm-1", "hbm-2");
        assertThat(published.get(0).getDirection()).isEqualTo(Direction.TIGHTENING);
        assertThat(published.get(0).getObservedAt()).isEqualTo(Instant.parse("2026-03-01T00:30:00Z"));
        assertThat(published.get(1).getVersion()).isGreaterThan(published.get(0).getVersion());
    }

    private List<ConstraintSignal> readSignals(int expected) {
        AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);
        List<ConstraintSignal> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.getBrokersAsString(), ConsumerConfig.GROUP_ID_CONFIG, "signal-endpoint-it",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            c.subscribe(List.of(Topics.SIGNALS));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.add(serde.deserialize(r.topic(), r.value()));
                }
            }
        }
        return out;
    }

}
