package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.rometools.rome.feed.atom.Category;
import com.rometools.rome.feed.atom.Entry;
import com.rometools.rome.feed.atom.Feed;
import com.rometools.rome.feed.atom.Link;
import io.chainfeed.api.feed.FeedChecks;
import io.chainfeed.ingest.publish.TermPublisher;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jdom2.Element;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * Atom and JSON Feed over the real pipeline (Kafka broker, tagging topology, indexer,
 * Elasticsearch): a glossary page goes in through the real ingest, its entry appears in
 * both feeds, the page is edited and the same entry comes back updated with what changed.
 * Conditional GET, paging, discovery links on the web pages and bad input are checked on
 * the same pipeline; every Atom answer is validated against RFC 4287's grammar with Jing
 * and read back with Rome, every JSON Feed against the JSON Feed 1.1 schema.
 */
@PipelineTest
class FeedsIT {

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("feeds-it", TestPipeline.Streams.TAGGING);

    private static final String RDMA_ID = "tag:chainfeed.io,2026:read/term:rdma";

    @Autowired
    TestRestTemplate http;

    private ResponseEntity<byte[]> get(String url, HttpHeaders headers) {
        return http.exchange(URI.create(url), HttpMethod.GET, new HttpEntity<>(headers), byte[].class);
    }

    private ResponseEntity<byte[]> get(String url) {
        return get(url, new HttpHeaders());
    }

    private Feed atom(String topic) throws Exception {
        ResponseEntity<byte[]> r = get("/api/v1/feeds/atom?topic=" + topic);
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(r.getHeaders().getContentType().toString()).isEqualTo("application/atom+xml;charset=UTF-8");
        assertThat(FeedChecks.atomErrors(r.getBody())).as("RFC 4287 grammar").isEmpty();
        return FeedChecks.readAtom(r.getBody());
    }

    private JsonNode json(String url) throws Exception {
        ResponseEntity<byte[]> r = get(url);
        assertThat(r.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(r.getHeaders().getContentType().toString()).isEqualTo("application/feed+json;charset=UTF-8");
        assertThat(FeedChecks.jsonFeedErrors(r.getBody())).as("JSON Feed 1.1 schema").isEmpty();
        return FeedChecks.readJson(r.getBody());
    }

    private static Entry entry(Feed feed, String id) {
        return feed.getEntries().stream().filter(e -> e.getId().equals(id)).findFirst().orElse(null);
    }

    private static JsonNode item(JsonNode feed, String id) {
        for (JsonNode i : feed.path("items")) {
            if (i.path("id").asText().equals(id)) {
                return i;
            }
        }
        return null;
    }

    @Test
    void anEditedTermComesBackAsTheSameEntryWithWhatChangedInBothFeeds() throws Exception {
        pipeline.start();
        String original = TestPipeline.rdmaPage();
        String edited = original.replace(
                "and Accton Technology (2345.TW) manufactures switch hardware for large operators.",
                "and Accton Technology (2345.TW) and Celestica (CLS) build switch hardware for large operators;"
                        + " AT&T <tests> it ]]> too \uD83D\uDE80.");
        assertThat(edited).isNotEqualTo(original);
        try (TestPipeline.Ingest ingest = pipeline.ingest("feeds-it-ingest")) {
            ingest.publishReference();
            ingest.publishTerms("infiniband", "roce");
            ingest.service().ingestPage(original, false, "https://example.org/glossary/rdma", false);

            // The first version, tagged with the reference data (a re-tag may come first:
            // wait for it).
            Entry first = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> entry(atom("term%3Ardma"), RDMA_ID),
                        e -> e != null && e.getCategories().stream().anyMatch(c -> c.getTerm().equals("ANET")));
            // ... and then quiet: the same version for 2.5 s on end.
            AtomicLong seen = new AtomicLong(version(first));
            first = await().atMost(Duration.ofSeconds(60))
                .during(Duration.ofMillis(2500))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> entry(atom("term%3Ardma"), RDMA_ID), e -> seen.getAndSet(version(e)) == version(e));
            long v1 = version(first);

            // Conditional GET on the unchanged feed.
            ResponseEntity<byte[]> full = get("/api/v1/feeds/atom?topic=term%3Ardma");
            String etag = full.getHeaders().getETag();
            long lastModified = full.getHeaders().getLastModified();
            assertThat(etag).startsWith("\"");
            assertThat(lastModified).isEqualTo(first.getUpdated().getTime());
            assertThat(full.getHeaders().getCacheControl())
                .isEqualTo("max-age=0, public, s-maxage=30, stale-while-revalidate=60");
            HttpHeaders ifNoneMatch = new HttpHeaders();
            ifNoneMatch.setIfNoneMatch(etag);
            ResponseEntity<byte[]> notModified = get("/api/v1/feeds/atom?topic=term%3Ardma", ifNoneMatch);
            assertThat(notModified.getStatusCode()).isEqualTo(HttpStatus.NOT_MODIFIED);
            assertThat(notModified.getBody()).isNull();
            assertThat(notModified.getHeaders().getETag()).isEqualTo(etag);
            HttpHeaders ifModifiedSince = new HttpHeaders();
            ifModifiedSince.setIfModifiedSince(lastModified);
            assertThat(get("/api/v1/feeds/atom?topic=term%3Ardma", ifModifiedSince).getStatusCode())
                .isEqualTo(HttpStatus.NOT_MODIFIED);
            ifModifiedSince.setIfModifiedSince(lastModified - 1000);
            assertThat(get("/api/v1/feeds/atom?topic=term%3Ardma", ifModifiedSince).getStatusCode())
                .as("modified since a second before")
                .isEqualTo(HttpStatus.OK);
            HttpHeaders both = new HttpHeaders();
            both.setIfNoneMatch("\"something-else\"");
            both.setIfModifiedSince(lastModified);
            assertThat(get("/api/v1/feeds/atom?topic=term%3Ardma", both).getStatusCode())
                .as("If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2)")
                .isEqualTo(HttpStatus.OK);
            ResponseEntity<byte[]> jsonFull = get("/api/v1/feeds/json?topic=term%3Ardma");
            HttpHeaders jsonMatch = new HttpHeaders();
            jsonMatch.setIfNoneMatch(jsonFull.getHeaders().getETag());
            assertThat(get("/api/v1/feeds/json?topic=term%3Ardma", jsonMatch).getStatusCode())
                .isEqualTo(HttpStatus.NOT_MODIFIED);

            // The edit.
            var result = ingest.service()
                .ingestPage(edited, false, "https://example.org/glossary/rdma?rev=2&lang=en", false);
            assertThat(result.result().outcome()).isEqualTo(TermPublisher.Outcome.PUBLISHED);
            Entry updated = await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> entry(atom("term%3Ardma"), RDMA_ID),
                        e -> e != null && version(e) > v1 && e.getContents().get(0).getValue().contains("Celestica"));
            assertThat(updated.getId()).as("the same entry id across versions").isEqualTo(first.getId());
            assertThat(updated.getUpdated()).isAfter(first.getUpdated());
            String content = updated.getContents().get(0).getValue();
            assertThat(content).startsWith("What changed in this version (since version " + v1 + "):");
            assertThat(content).contains("- Section “Why it matters to investors” changed",
                    "- Company “Celestica (CLS)” added",
                    "- Source “RDMA — example.org” removed (https://example.org/glossary/rdma)",
                    "- Source “RDMA — example.org” added (https://example.org/glossary/rdma?rev=2&lang=en)",
                    "AT&T <tests> it ]]> too \uD83D\uDE80");
            List<String> changes = new ArrayList<>();
            for (Element e : updated.getForeignMarkup()) {
                if (e.getName().equals("change")) {
                    changes.add(e.getAttributeValue("field") + " " + e.getAttributeValue("change") + " "
                            + e.getAttributeValue("key"));
                }
            }
            assertThat(changes).contains("companies added celestica",
                    "sources added https://example.org/glossary/rdma?rev=2&lang=en");
            assertThat(updated.getOtherLinks()).extracting(Link::getRel, Link::getHref)
                .contains(org.assertj.core.groups.Tuple.tuple("related",
                        "https://example.org/glossary/rdma?rev=2&lang=en"));
            assertThat(updated.getCategories()).extracting(Category::getScheme)
                .contains("tag:chainfeed.io,2026:layer", "tag:chainfeed.io,2026:company", "tag:chainfeed.io,2026:term");
            assertThat(updated.getForeignMarkup()).anySatisfy(e -> {
                assertThat(e.getName()).isEqualTo("disclaimer");
                assertThat(e.getText()).contains("research, not advice");
            });
            String raw = new String(get("/api/v1/feeds/atom?topic=term%3Ardma").getBody(), StandardCharsets.UTF_8);
            assertThat(raw).contains("AT&amp;T &lt;tests&gt; it ]]&gt; too \uD83D\uDE80")
                .doesNotContain("&amp;amp;", "&amp;lt;");

            assertThat(get("/api/v1/feeds/atom?topic=term%3Ardma", ifNoneMatch).getStatusCode())
                .as("the old ETag no longer matches")
                .isEqualTo(HttpStatus.OK);

            JsonNode item = item(json("/api/v1/feeds/json?topic=term%3Ardma"), RDMA_ID);
            assertThat(item).isNotNull();
            assertThat(Instant.parse(item.path("date_modified").asText())).isEqualTo(updated.getUpdated().toInstant());
            JsonNode ext = item.path("_chainfeed");
            assertThat(ext.path("previousVersion").asLong()).isEqualTo(v1);
            assertThat(ext.path("changes")).extracting(c -> c.path("text").asText())
                .contains("Section “Why it matters to investors” changed", "Company “Celestica (CLS)” added");
            assertThat(ext.path("sources")).extracting(s -> s.path("url").asText())
                .containsExactly("https://example.org/glossary/rdma?rev=2&lang=en");
            assertThat(ext.path("disclaimer").asText()).contains("research, not advice");

            // The read view and the term page's API carry the same history.
            @SuppressWarnings("unchecked")
            Map<String, Object> read = http.getForObject("/api/v1/reads/term:rdma", Map.class);
            assertThat(((Number) read.get("previousVersion")).longValue()).isEqualTo(v1);
            assertThat((List<?>) read.get("changes")).isNotEmpty();
        }
    }

    private static long version(Entry e) {
        return e.getForeignMarkup()
            .stream()
            .filter(x -> x.getName().equals("version"))
            .mapToLong(x -> Long.parseLong(x.getText()))
            .findFirst()
            .orElseThrow();
    }

    @Test
    void pagesFollowNextLinksWithoutRepeatsOrGaps() throws Exception {
        awaitThreeTerms();
        Set<String> all = new LinkedHashSet<>();
        json("/api/v1/feeds/json?topic=all&size=100").path("items").forEach(i -> all.add(i.path("id").asText()));
        assertThat(all).hasSizeGreaterThanOrEqualTo(3);

        List<String> walked = new ArrayList<>();
        String url = "/api/v1/feeds/json?topic=all&size=1";
        String feedUrl = null;
        for (int pages = 0; url != null && pages < 20; pages++) {
            JsonNode page = json(url);
            feedUrl = feedUrl == null ? page.path("feed_url").asText() : feedUrl;
            assertThat(page.path("feed_url").asText()).as("feed_url names the feed, not the page").isEqualTo(feedUrl);
            page.path("items").forEach(i -> walked.add(i.path("id").asText()));
            url = page.has("next_url") ? page.path("next_url").asText() : null;
        }
        assertThat(walked).containsExactlyElementsOf(all);

        List<String> atomWalked = new ArrayList<>();
        String next = "/api/v1/feeds/atom?topic=all&size=2";
        while (next != null) {
            ResponseEntity<byte[]> r = get(next);
            assertThat(FeedChecks.atomErrors(r.getBody())).isEmpty();
            Feed feed = FeedChecks.readAtom(r.getBody());
            feed.getEntries().forEach(e -> atomWalked.add(e.getId()));
            assertThat(feed.getOtherLinks()).extracting(Link::getRel).contains("self", "first");
            next = feed.getOtherLinks()
                .stream()
                .filter(l -> l.getRel().equals("next"))
                .map(Link::getHref)
                .findFirst()
                .orElse(null);
        }
        assertThat(atomWalked).containsExactlyElementsOf(all);
    }

    private void awaitThreeTerms() throws Exception {
        pipeline.start();
        try (TestPipeline.Ingest ingest = pipeline.ingest("feeds-it-paging")) {
            ingest.publishReference();
            ingest.publishTerms("infiniband", "roce", "hbm");
        }
        await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(300))
            .until(() -> json("/api/v1/feeds/json?topic=all&size=100").path("items").size() >= 3);
    }

    @Test
    void webPagesCarryDiscoveryLinksThatLeadToTheFeeds() throws Exception {
        awaitThreeTerms();
        ResponseEntity<String> page = http.getForEntity("/terms/infiniband", String.class);
        assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(page.getHeaders().getFirst("Content-Security-Policy")).contains("script-src 'self'");
        var html = Jsoup.parse(page.getBody());
        var atomLink = html.head().selectFirst("link[rel=alternate][type=application/atom+xml]");
        var jsonLink = html.head().selectFirst("link[rel=alternate][type=application/feed+json]");
        assertThat(atomLink.attr("href")).isEqualTo("/api/v1/feeds/atom?topic=term%3Ainfiniband");
        assertThat(jsonLink.attr("href")).isEqualTo("/api/v1/feeds/json?topic=term%3Ainfiniband");
        assertThat(html.selectFirst("script[type=module]").attr("src")).isEqualTo("/js/term.js");
        Feed feed = FeedChecks.readAtom(get(atomLink.attr("href")).getBody());
        assertThat(feed.getEntries()).extracting(Entry::getId).contains("tag:chainfeed.io,2026:read/term:infiniband");
        assertThat(feed.getAlternateLinks().get(0).getHref()).endsWith("/terms/infiniband");
        assertThat(item(json(jsonLink.attr("href")), "tag:chainfeed.io,2026:read/term:infiniband")).isNotNull();

        for (String path : List.of("/", "/chain", "/layers/memory", "/companies/2345.TW")) {
            var doc = Jsoup.parse(http.getForObject(path, String.class));
            assertThat(doc.head()
                .select("link[rel=alternate][type=application/atom+xml], "
                        + "link[rel=alternate][type=application/feed+json]"))
                .as(path)
                .hasSize(2);
        }
        assertThat(Jsoup.parse(http.getForObject("/companies/2345.TW", String.class))
            .head()
            .selectFirst("link[type=application/atom+xml]")
            .attr("href")).isEqualTo("/api/v1/feeds/atom?topic=company%3A2345.TW");
    }

    @Test
    void badTopicsAndCursorsAreProblemDetails() {
        HttpHeaders atom = new HttpHeaders();
        atom.set(HttpHeaders.ACCEPT, "application/atom+xml, */*;q=0.1");
        for (String url : List.of("/api/v1/feeds/atom?topic=layer%3A", "/api/v1/feeds/json?topic=nonsense%3Ax",
                "/api/v1/feeds/atom?topic=all&cursor=!!!", "/api/v1/feeds/json?topic=all&size=0",
                "/api/v1/feeds/atom")) {
            ResponseEntity<String> r = http.exchange(URI.create(url), HttpMethod.GET, new HttpEntity<>(atom),
                    String.class);
            assertThat(r.getStatusCode()).as(url).isEqualTo(HttpStatus.BAD_REQUEST);
            assertThat(r.getHeaders().getContentType().toString()).as(url).startsWith("application/problem+json");
            assertThat(r.getBody()).as(url).contains("\"type\"", "\"detail\"");
        }
    }

}
