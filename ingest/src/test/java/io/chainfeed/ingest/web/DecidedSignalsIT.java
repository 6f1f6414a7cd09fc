package io.chainfeed.ingest.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.newsfeed.FeedServer;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.TopicProbe;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Signals decided from their text, against a real Kafka broker: the 20 headlines of
 * {@code docs/examples/decide-20.json}, posted with headline, body, source and date only,
 * are answered accepted or skipped as labelled; the skipped ones are on
 * {@value Topics#SIGNALS_SKIPPED} with their reason; the low-confidence one is held, then
 * confirmed by a review (a new version, no longer held); a correction is a new version
 * saying the editor decided it; and a news feed configured with a URL only turns its
 * items into decided signals and skips the rest, counted in {@code /actuator/feeds}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        // the SHA-256 of "it-editor-key": only hashes are ever configured
        properties = "chainfeed.ingest.editor-key-hashes=2f91bc73466d7ce61751e22895c84505ecdca44f2e3ed7e60ef2da79f9149dc5")
@EmbeddedKafka(kraft = true, partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class DecidedSignalsIT {

    private static final String KEY = "it-editor-key";

    @RegisterExtension
    static final FeedServer SERVER = new FeedServer();

    /** The labels of decide-20.json: accepted (and held) or the skip reason, by index. */
    private static final List<String> LABELS = List.of("accepted", "accepted", "accepted", "accepted", "accepted",
            "accepted", "accepted", "accepted", "accepted", "accepted", "held", "accepted", "results or earnings date",
            "appointment", "product launch", "share-price move", "lawsuit", "donation", "names no part of the AI chain",
            "no supply-constraint wording");

    static {
        SERVER.put("/semis.rss", resource("/feeds/rss2-semis-url-only.xml"));
    }

    @DynamicPropertySource
    static void feeds(DynamicPropertyRegistry registry) {
        SERVER.registerFeeds(registry, "/semis.rss");
    }

    @Autowired
    TestRestTemplate http;

    @Autowired
    EmbeddedKafkaBroker broker;

    @Test
    @SuppressWarnings("unchecked")
    void twentyHeadlinesAreAnsweredAsLabelledAndTheHeldOneCountsAfterReview() throws Exception {
        ResponseEntity<Map<String, Object>> r = IngestRequests.post(http, "/ingest/v1/signals",
                resource("/it/decide-20.json"), MediaType.APPLICATION_JSON, KEY);
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        List<Map<String, Object>> items = (List<Map<String, Object>>) r.getBody().get("items");
        assertThat(items).hasSize(20);
        for (int i = 0; i < 20; i++) {
            Map<String, Object> item = items.get(i);
            String label = LABELS.get(i);
            if (label.equals("accepted") || label.equals("held")) {
                assertThat(item).as("item %d", i)
                    .containsEntry("outcome", "accepted")
                    .containsEntry("held", label.equals("held"));
            }
            else {
                assertThat(item).as("item %d", i).containsEntry("outcome", "skipped").containsEntry("reason", label);
            }
        }
        List<Map<String, Object>> accepted = (List<Map<String, Object>>) r.getBody().get("accepted");
        assertThat(accepted.get(0)).satisfies(a -> {
            assertThat(a).containsEntry("direction", "tightening")
                .containsEntry("magnitude", 5)
                .containsEntry("until", "2028-01-01T00:00:00Z");
            assertThat((List<String>) a.get("layers")).containsExactly("memory");
            // decided by the learned reader in front of the rules, the default
            assertThat(a).containsEntry("reader", "news-reader");
            assertThat((String) a.get("readerVersion")).matches("news-reader-[0-9a-f]{12}");
            Map<String, Object> signal = (Map<String, Object>) a.get("signal");
            assertThat(signal).containsEntry("decidedBy", "text").containsEntry("held", false);
            Map<String, Object> evidence = (Map<String, Object>) signal.get("evidence");
            assertThat((List<Map<String, Object>>) evidence.get("direction")).first()
                .satisfies(e -> assertThat(e).containsEntry("text", "sold out")
                    .containsEntry("field", "headline")
                    .containsEntry("offset", 41)
                    .containsEntry("length", 8));
            assertThat((List<Map<String, Object>>) evidence.get("until")).first()
                .satisfies(e -> assertThat(e).containsEntry("text", "for 2027"));
        });

        // the skipped ones are on the skipped topic with their reason (the feed's skipped
        // items share it)
        java.util.Set<String> skippedIds = new java.util.HashSet<>();
        items.subList(12, 20).forEach(i -> skippedIds.add((String) i.get("id")));
        List<TopicProbe.Rec<byte[]>> skipped;
        try (TopicProbe<byte[]> probe = TopicProbe.bytes(broker.getBrokersAsString(), Topics.SIGNALS_SKIPPED)) {
            skipped = probe
                .until(all -> all.stream().filter(x -> skippedIds.contains(x.key())).count() >= 8,
                        Duration.ofSeconds(30))
                .stream()
                .filter(x -> skippedIds.contains(x.key()))
                .toList();
        }
        assertThat(skipped).extracting(x -> x.header(Topics.SKIP_REASON_HEADER))
            .containsExactlyElementsOf(LABELS.subList(12, 20));
        Map<String, Object> first = new ObjectMapper().readValue(skipped.get(0).value(), Map.class);
        assertThat(first).containsEntry("reason", "results or earnings date")
            .containsEntry("headline", "Micron to report fiscal first-quarter results on December 18");

        // the held one: published held, confirmed by review as a new version that is no
        // longer held
        String heldId = (String) items.get(10).get("id");
        ResponseEntity<Map<String, Object>> review = IngestRequests.post(http,
                "/ingest/v1/signals/" + heldId + "/review", "{}", MediaType.APPLICATION_JSON, KEY);
        assertThat(review.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        Map<String, Object> reviewed = (Map<String, Object>) review.getBody().get("signal");
        assertThat(reviewed).containsEntry("held", false).containsEntry("decidedBy", "editor");
        assertThat((Map<String, Object>) reviewed.get("review")).containsEntry("outcome", "confirmed");

        // a correction: the editor's magnitude, the rest as decided
        String correctedId = (String) items.get(1).get("id");
        ResponseEntity<Map<String, Object>> correction = IngestRequests.post(http,
                "/ingest/v1/signals/" + correctedId + "/review", "{\"magnitude\": 2}", MediaType.APPLICATION_JSON, KEY);
        assertThat(correction.getStatusCode()).isEqualTo(HttpStatus.ACCEPTED);
        assertThat(correction.getBody()).containsEntry("magnitude", 2);
        Map<String, Object> decided = (Map<String, Object>) ((Map<String, Object>) correction.getBody().get("signal"))
            .get("decided");
        assertThat(decided).containsEntry("magnitude", "editor").containsEntry("direction", "text");

        assertThat(IngestRequests
            .post(http, "/ingest/v1/signals/no-such-signal/review", "{}", MediaType.APPLICATION_JSON, KEY)
            .getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(IngestRequests
            .post(http, "/ingest/v1/signals/" + heldId + "/review", "{}", MediaType.APPLICATION_JSON, null)
            .getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);

        List<ConstraintSignal> versions;
        Map<String, ConstraintSignal> latest = new java.util.HashMap<>();
        try (TopicProbe<ConstraintSignal> probe = TopicProbe.avro(broker.getBrokersAsString(), Topics.SIGNALS,
                ConstraintSignal.class)) {
            versions = probe.until(all -> {
                all.forEach(x -> latest.put(x.key(), x.value()));
                return latest.containsKey(heldId) && latest.get(heldId).getDecision().getReview() != null
                        && latest.containsKey(correctedId) && latest.get(correctedId).getMagnitude() == 2;
            }, Duration.ofSeconds(30)).stream().map(TopicProbe.Rec::value).toList();
        }
        assertThat(versions).filteredOn(s -> s.getId().equals(heldId))
            .extracting(s -> s.getDecision().getHeld())
            .containsExactly(true, false);
        assertThat(latest.get(heldId).getVersion()).isGreaterThan(
                versions.stream().filter(s -> s.getId().equals(heldId)).findFirst().orElseThrow().getVersion());
        assertThat(latest.get(correctedId).getDirection()).isEqualTo(Direction.TIGHTENING);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFeedWithAUrlOnlyGivesDecidedSignalsAndSkipsTheRest() {
        Map<String, ConstraintSignal> fromFeed = new java.util.HashMap<>();
        try (TopicProbe<ConstraintSignal> probe = TopicProbe.avro(broker.getBrokersAsString(), Topics.SIGNALS,
                ConstraintSignal.class)) {
            probe.until(all -> {
                all.stream()
                    .filter(x -> x.value().getSource().getUrl().startsWith("https://semis.example.com/"))
                    .forEach(x -> fromFeed.put(x.key(), x.value()));
                return fromFeed.size() >= 2;
            }, Duration.ofSeconds(60));
        }
        assertThat(fromFeed.values()).extracting(s -> s.getSource().getUrl())
            .containsExactlyInAnyOrder("https://semis.example.com/hbm-sold-out",
                    "https://semis.example.com/abf-capacity");
        assertThat(fromFeed.values()).allSatisfy(s -> assertThat(s.getDecision().getDecidedBy()).isEqualTo("text"));
        assertThat(fromFeed.values()).filteredOn(s -> s.getHeadline().startsWith("HBM"))
            .singleElement()
            .satisfies(s -> {
                assertThat(s.getDirection()).isEqualTo(Direction.TIGHTENING);
                assertThat(s.getLayerHints()).containsExactly("memory");
            });
        assertThat(fromFeed.values()).filteredOn(s -> s.getHeadline().startsWith("Substrate"))
            .singleElement()
            .satisfies(s -> assertThat(s.getDirection()).isEqualTo(Direction.EASING));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<Map<String, Object>> status = http.exchange("/actuator/feeds", HttpMethod.GET, null,
                    new ParameterizedTypeReference<List<Map<String, Object>>>() {
                    })
                .getBody();
            assertThat(status).singleElement()
                .satisfies(s -> assertThat(s).containsEntry("itemsPublished", 2)
                    .containsEntry("itemsSkipped", 2)
                    .containsEntry("itemsDeadLettered", 0));
        });
        try (TopicProbe<byte[]> probe = TopicProbe.bytes(broker.getBrokersAsString(), Topics.SIGNALS_SKIPPED)) {
            assertThat(probe.atLeast(10, Duration.ofSeconds(30))).extracting(x -> x.header(Topics.SKIP_REASON_HEADER))
                .contains("appointment", "results or earnings date");
        }
    }

    private static String resource(String name) {
        try (InputStream in = DecidedSignalsIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
