package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.rometools.rome.feed.atom.Entry;
import com.rometools.rome.feed.atom.Feed;
import io.chainfeed.api.feed.FeedChecks;
import io.chainfeed.avro.Read;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.TopicProbe;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdom2.Element;
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
 * Feeds by publication and versions people can read, end to end on a real Kafka broker
 * and a real Elasticsearch, with the real ingest service, both topologies (tagging, chain
 * state) under exactly-once and the indexer: a signal observed ten days ago and posted
 * now is the first entry of the {@code all} JSON Feed and Atom feed, its observation
 * instant a field of its own; versions read 1, 2; and posting a glossary page writes a
 * new version to {@value Topics#READS} only for the signal read whose tags it changes.
 */
@PipelineTest
class PublicationOrderIT {

    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    private static final String EDITOR_KEY = "publication-it-editor-key";

    private static final AvroSerde<Read> READS = AvroSerde.of(Read.class);

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("publication-it", TestPipeline.Streams.TAGGING,
            TestPipeline.Streams.CHAIN_STATE);

    @Autowired
    TestRestTemplate http;

    @Test
    void newReadsLeadTheFeedsVersionsCountFromOneAndAGlossaryPageRepublishesOnlyChangedSignalReads() throws Exception {
        String ingestUrl = pipeline.startWithIngestService(EDITOR_KEY);
        Instant today = Instant.now().truncatedTo(ChronoUnit.DAYS);
        post(ingestUrl + "/ingest/v1/signals", MediaType.APPLICATION_JSON, signal("fresh-substrates",
                "Substrate lead times stretch again", "Suppliers quote longer lead times for substrates.", today));
        post(ingestUrl + "/ingest/v1/signals", MediaType.APPLICATION_JSON, signal("rdma-nics-allocated",
                "RDMA network cards on allocation", "Vendors ration RDMA network cards for new clusters.", today));
        await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> read("signal:fresh-substrates") != null && read("signal:rdma-nics-allocated") != null);

        // Observed ten days ago, posted now: first in both feeds, because feeds follow
        // publication.
        Instant tenDaysAgo = today.minus(Duration.ofDays(10));
        Instant posted = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        post(ingestUrl + "/ingest/v1/signals", MediaType.APPLICATION_JSON, signal("late-hbm-report",
                "HBM allocation was sold out in the autumn", "A late report on HBM allocation.", tenDaysAgo));
        JsonNode feed = await().atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> jsonFeed("all"), f -> f.path("items").size() > 0 && "signal:late-hbm-report"
                .equals(f.path("items").get(0).path("_chainfeed").path("readId").asText()));
        JsonNode item = feed.path("items").get(0);
        assertThat(Instant.parse(item.path("date_modified").asText())).as("when chainfeed published it")
            .isAfterOrEqualTo(posted);
        assertThat(item.path("_chainfeed").path("observedAt").asText()).isEqualTo(tenDaysAgo.toString());
        assertThat(item.path("_chainfeed").path("version").asLong()).isEqualTo(1L);
        assertThat(item.path("_chainfeed").path("previousVersion").isMissingNode()).as("no previous version: left out")
            .isTrue();

        Feed atom = atomFeed("all");
        Entry first = atom.getEntries().get(0);
        assertThat(first.getId()).endsWith("signal:late-hbm-report");
        assertThat(first.getUpdated().toInstant()).isAfterOrEqualTo(posted);
        assertThat(extension(first, "observedAt")).isEqualTo(tenDaysAgo.toString());
        assertThat(extension(first, "version")).isEqualTo("1");

        Map<String, Object> lateRead = read("signal:late-hbm-report");
        assertThat(lateRead).containsEntry("version", 1)
            .doesNotContainKey("previousVersion")
            .containsEntry("observedAt", tenDaysAgo.toString());

        // A glossary page only one signal mentions (RDMA): only that signal read gets a
        // new version.
        Map<String, List<Read>> before = signalReadsOnTheTopic();
        assertThat(before.keySet()).containsExactlyInAnyOrder("signal:fresh-substrates", "signal:rdma-nics-allocated",
                "signal:late-hbm-report");
        assertThat(before.values()).allSatisfy(versions -> assertThat(versions).hasSize(1));
        ResponseEntity<Map<String, Object>> page = post(ingestUrl + "/ingest/v1/pages", MediaType.TEXT_PLAIN,
                TestPipeline.rdmaPage());
        assertThat(page.getStatusCode().is2xxSuccessful()).isTrue();

        Map<String, List<Read>> after = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(this::signalReadsOnTheTopic, m -> m.get("signal:rdma-nics-allocated").size() == 2);
        Read retagged = after.get("signal:rdma-nics-allocated").get(1);
        assertThat(retagged.getSequence()).isEqualTo(2L);
        assertThat(retagged.getTerms()).extracting(t -> t.getSlug()).contains("rdma");
        // The re-tag of every kept signal ran in one punctuation and one transaction: the
        // other reads would
        // be on the topic by now had any been written.
        assertThat(after.get("signal:fresh-substrates")).hasSize(1);
        assertThat(after.get("signal:late-hbm-report")).hasSize(1);

        Map<String, Object> v2 = await().atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> read("signal:rdma-nics-allocated"),
                    r -> r != null && Integer.valueOf(2).equals(r.get("version")));
        assertThat(v2).containsEntry("previousVersion", 1);
        // The feed searches the index, which shows a document once it is refreshed (about
        // a second after a
        // realtime GET does): wait for that state.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            List<String> ids = new ArrayList<>();
            jsonFeed("all").path("items").forEach(i -> ids.add(i.path("_chainfeed").path("readId").asText()));
            assertThat(ids.subList(0, 2)).as("the changed read and the page's term lead the feed")
                .containsExactlyInAnyOrder("signal:rdma-nics-allocated", "term:rdma");
        });
    }

    /**
     * Every signal read record on the reads topic so far, per read id, in log order
     * (read_committed).
     */
    private Map<String, List<Read>> signalReadsOnTheTopic() {
        Map<String, List<Read>> out = new HashMap<>();
        for (TopicProbe.Rec<byte[]> r : pipeline.committedRecords(Topics.READS)) {
            if (r.key() != null && r.key().startsWith("signal:") && r.value() != null) {
                out.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(READS.deserialize(Topics.READS, r.value()));
            }
        }
        return out;
    }

    /**
     * A signal of magnitude 1: together they leave memory balanced, so no state read
     * joins the feeds under test.
     */
    private static String signal(String id, String headline, String body, Instant observedAt) {
        return """
                {"id": "%s", "headline": "%s", "body": "%s", "layers": ["memory"], "direction": "tightening",
                 "magnitude": 1, "observedAt": "%s",
                 "source": {"name": "Example wire", "url": "https://example.com/news/%s"}}
                """.formatted(id, headline, body, observedAt, id);
    }

    private ResponseEntity<Map<String, Object>> post(String url, MediaType type, String body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(type);
        headers.setBearerAuth(EDITOR_KEY);
        ResponseEntity<Map<String, Object>> r = http.getRestTemplate()
            .exchange(url, HttpMethod.POST, new HttpEntity<>(body, headers), JSON);
        assertThat(r.getStatusCode().is2xxSuccessful()).as("POST %s: %s", url, r.getBody()).isTrue();
        return r;
    }

    private Map<String, Object> read(String id) {
        ResponseEntity<Map<String, Object>> r = http.exchange("/api/v1/reads/" + id, HttpMethod.GET, null, JSON);
        return r.getStatusCode() == HttpStatus.OK ? r.getBody() : null;
    }

    private JsonNode jsonFeed(String topic) throws Exception {
        ResponseEntity<byte[]> r = http.getForEntity("/api/v1/feeds/json?topic=" + topic, byte[].class);
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(FeedChecks.jsonFeedErrors(r.getBody())).as("JSON Feed 1.1 schema").isEmpty();
        return FeedChecks.readJson(r.getBody());
    }

    private Feed atomFeed(String topic) throws Exception {
        ResponseEntity<byte[]> r = http.getForEntity("/api/v1/feeds/atom?topic=" + topic, byte[].class);
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(FeedChecks.atomErrors(r.getBody())).as("RFC 4287 grammar").isEmpty();
        return FeedChecks.readAtom(r.getBody());
    }

    private static String extension(Entry e, String name) {
        return e.getForeignMarkup()
            .stream()
            .filter(x -> x.getName().equals(name))
            .map(Element::getText)
            .findFirst()
            .orElse(null);
    }

}
