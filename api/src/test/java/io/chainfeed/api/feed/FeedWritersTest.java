package io.chainfeed.api.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rometools.rome.feed.atom.Category;
import com.rometools.rome.feed.atom.Entry;
import com.rometools.rome.feed.atom.Feed;
import com.rometools.rome.feed.atom.Link;
import io.chainfeed.api.StoredDocuments;
import io.chainfeed.api.selector.Selector;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdom2.Element;
import org.junit.jupiter.api.Test;

/**
 * The Atom and JSON Feed writers on reads with hostile text: validated against RFC 4287's
 * grammar (Jing) and a JSON Schema of JSON Feed 1.1, read back with Rome and Jackson,
 * escaping checked on the bytes.
 */
class FeedWritersTest {

    private static final String BASE = "https://feeds.example.org";

    /**
     * Markup, an entity, a CDATA end, C0 controls, a non-character, a lone surrogate, an
     * emoji, quotes.
     */
    private static final String HOSTILE = "AT&T <Switch> ]]> \u0001bell\u000B \uFFFE\uD800 rocket \uD83D\uDE80 \"q\" 'a' &amp;";

    private static final String CLEAN = "AT&T <Switch> ]]> bell  rocket \uD83D\uDE80 \"q\" 'a' &amp;";

    private final FeedLinks links = new FeedLinks(FeedLinks.DEFAULT_AUTHORITY, BASE);

    private static Map<String, Object> doc(String id, String kind, String slug, String title, String updatedAt,
            Long previousVersion, List<Map<String, Object>> changes) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("id", id);
        d.put("kind", kind);
        d.put("slug", slug);
        d.put("title", title);
        d.put("summary", "Summary of " + title);
        d.put("sections",
                List.of(Map.of("key", "why", "heading", "Why <it> matters", "body", "Body & more\nline two")));
        d.put("layers", List.of(Map.of("id", "network-fabric", "name", "Network fabric")));
        d.put("companies", List.of(Map.of("id", "att", "name", "AT&T", "symbol", "T"),
                Map.of("id", "accton", "name", "Accton Technology", "symbol", "2345.TW")));
        d.put("terms", List.of(Map.of("slug", "infiniband", "title", "InfiniBand")));
        d.put("sources",
                List.of(Map.of("name", "IEEE <802.1> & DCB", "url", "https://example.org/dcb?a=1&b=2"),
                        Map.of("name", "Not a web link", "url", "javascript:alert(1)"),
                        Map.of("name", "Not a URI", "url", "https://example.org/<bad>")));
        d.put("disclaimer", "Research, not advice.");
        d.put("version", 20L);
        d.put("updatedAt", updatedAt);
        d.put("previousVersion", previousVersion);
        d.put("changes", changes);
        return d;
    }

    private FeedDocument document() {
        List<Map<String, Object>> changes = List.of(
                Map.of("field", "sections", "change", "changed", "key", "why", "detail", "Why <it> matters"),
                Map.of("field", "companies", "change", "added", "key", "att", "detail", "AT&T (T)"));
        List<FeedEntry> entries = new ArrayList<>();
        entries.add(FeedEntry.of(
                StoredDocuments
                    .doc(doc("term:rdma", "term", "rdma", HOSTILE, "2026-11-01T09:30:00.123Z", 10L, changes)),
                links, BASE));
        entries.add(FeedEntry.of(StoredDocuments.doc(doc("signal:hbm-sold-out", "signal", "hbm-sold-out",
                "HBM sold out", "2026-10-01T00:00:00Z", null, List.of())), links, BASE));
        Selector topic = Selector.parse("layer:network-fabric OR term:rdma");
        return new FeedDocument(links.feedId(topic), "chainfeed: " + topic.canonical(),
                "Reads. " + FeedDocument.DISCLAIMER, topic.canonical(), entries.get(0).updated(),
                links.feedUrl(BASE, FeedLinks.ATOM_PATH, topic, 2,
                        new FeedCursor(Instant.parse("2026-12-01T00:00:00Z"), "term:x")),
                links.feedUrl(BASE, FeedLinks.ATOM_PATH, topic, 2, null),
                links.feedUrl(BASE, FeedLinks.ATOM_PATH, topic, 2,
                        new FeedCursor(Instant.parse("2026-10-01T00:00:00Z"), "signal:hbm-sold-out")),
                BASE + FeedLinks.pagePath(topic), entries);
    }

    /** A feed of one entry on the only page of the topic. */
    private FeedDocument onePage(Selector topic, FeedEntry entry) {
        return new FeedDocument(links.feedId(topic), "t", "s. " + FeedDocument.DISCLAIMER, topic.canonical(),
                entry.updated(), links.feedUrl(BASE, FeedLinks.ATOM_PATH, topic, 2, null),
                links.feedUrl(BASE, FeedLinks.ATOM_PATH, topic, 2, null), null, BASE + FeedLinks.pagePath(topic),
                List.of(entry));
    }

    @Test
    void entriesAreDatedByPublicationAndASignalKeepsItsObservationInstant() throws Exception {
        Map<String, Object> d = doc("signal:late", "signal", "late", "HBM report", "2026-11-20T00:00:00Z", 1L,
                List.of());
        d.put("version", 2L);
        d.put("publishedAt", "2026-11-30T12:00:05.250Z");
        d.put("observedAt", "2026-11-20T00:00:00Z");
        FeedEntry e = FeedEntry.of(StoredDocuments.doc(d), links, BASE);
        assertThat(e.updated()).as("when chainfeed published the version")
            .isEqualTo(Instant.parse("2026-11-30T12:00:05Z"));
        assertThat(e.observedAt()).isEqualTo(Instant.parse("2026-11-20T00:00:00Z"));
        assertThat(e.contentText()).contains("Observed 2026-11-20T00:00:00Z");
        Selector topic = Selector.parse("all");
        FeedDocument doc = onePage(topic, e);

        byte[] xml = AtomFeedWriter.write(doc);
        assertThat(FeedChecks.atomErrors(xml)).isEmpty();
        Entry entry = FeedChecks.readAtom(xml).getEntries().get(0);
        assertThat(entry.getUpdated().toInstant()).isEqualTo(Instant.parse("2026-11-30T12:00:05Z"));
        assertThat(entry.getPublished().toInstant()).as("a signal's observation instant")
            .isEqualTo(Instant.parse("2026-11-20T00:00:00Z"));
        assertThat(entry.getForeignMarkup()).anySatisfy(x -> {
            assertThat(x.getName()).isEqualTo("observedAt");
            assertThat(x.getText()).isEqualTo("2026-11-20T00:00:00Z");
        });
        assertThat(entry.getForeignMarkup()).anySatisfy(x -> {
            assertThat(x.getName()).isEqualTo("version");
            assertThat(x.getText()).isEqualTo("2");
            assertThat(x.getAttributeValue("previous")).isEqualTo("1");
        });

        byte[] json = JsonFeedWriter.write(doc, BASE + "/v3/api-docs",
                new com.fasterxml.jackson.databind.ObjectMapper());
        assertThat(FeedChecks.jsonFeedErrors(json)).isEmpty();
        var item = FeedChecks.readJson(json).path("items").get(0);
        assertThat(item.path("date_modified").asText()).isEqualTo("2026-11-30T12:00:05Z");
        assertThat(item.path("date_published").asText()).isEqualTo("2026-11-20T00:00:00Z");
        assertThat(item.path("_chainfeed").path("observedAt").asText()).isEqualTo("2026-11-20T00:00:00Z");
        assertThat(item.path("_chainfeed").path("version").asLong()).isEqualTo(2L);

        d.put("signal",
                Map.of("direction", "tightening", "magnitude", 4, "until", "2028-01-01T00:00:00Z", "decidedBy", "text",
                        "confidence", 0.9, "held", false, "decided", Map.of("direction", "text"), "evidence",
                        Map.of("direction", List.of(Map.of("field", "headline", "offset", 4, "length", 8, "text",
                                "sold out", "rule", "tightening cue")))));
        FeedEntry decided = FeedEntry.of(StoredDocuments.doc(d), links, BASE);
        FeedDocument withSignal = onePage(topic, decided);
        byte[] signalXml = AtomFeedWriter.write(withSignal);
        assertThat(FeedChecks.atomErrors(signalXml)).isEmpty();
        assertThat(FeedChecks.readAtom(signalXml).getEntries().get(0).getForeignMarkup()).anySatisfy(x -> {
            assertThat(x.getName()).isEqualTo("signal");
            assertThat(x.getAttributeValue("direction")).isEqualTo("tightening");
            assertThat(x.getAttributeValue("decidedBy")).isEqualTo("text");
            assertThat(x.getChildren()).singleElement().satisfies(ev -> {
                assertThat(ev.getText()).isEqualTo("sold out");
                assertThat(ev.getAttributeValue("value")).isEqualTo("direction");
                assertThat(ev.getAttributeValue("offset")).isEqualTo("4");
            });
        });
        byte[] signalJson = JsonFeedWriter.write(withSignal, BASE + "/v3/api-docs",
                new com.fasterxml.jackson.databind.ObjectMapper());
        assertThat(FeedChecks.jsonFeedErrors(signalJson)).isEmpty();
        assertThat(FeedChecks.readJson(signalJson)
            .path("items")
            .get(0)
            .path("_chainfeed")
            .path("signal")
            .path("evidence")
            .path("direction")
            .get(0)
            .path("text")
            .asText()).isEqualTo("sold out");
        d.remove("signal");

        d.remove("publishedAt");
        assertThat(FeedEntry.of(StoredDocuments.doc(d), links, BASE).updated()).as("indexed before publishedAt existed")
            .isEqualTo(Instant.parse("2026-11-20T00:00:00Z"));
    }

    @Test
    void atomIsValidAgainstRfc4287AndReadsBackWithRome() throws Exception {
        byte[] xml = AtomFeedWriter.write(document());
        assertThat(FeedChecks.atomErrors(xml)).isEmpty();

        Feed feed = FeedChecks.readAtom(xml);
        assertThat(feed.getId()).isEqualTo("tag:chainfeed.io,2026:feed/layer:network-fabric%20OR%20term:rdma");
        assertThat(feed.getAuthors()).extracting(a -> a.getName()).containsExactly("chainfeed");
        assertThat(feed.getAlternateLinks()).extracting(Link::getHref).containsExactly(BASE + "/");
        assertThat(feed.getOtherLinks()).extracting(Link::getRel).containsExactly("self", "first", "next");
        assertThat(feed.getOtherLinks().get(1).getHref())
            .isEqualTo(BASE + "/api/v1/feeds/atom?topic=layer%3Anetwork-fabric+OR+term%3Ardma&size=2");
        assertThat(feed.getOtherLinks().get(2).getHref()).contains("&size=2&cursor=");

        Entry term = feed.getEntries().get(0);
        assertThat(term.getId()).isEqualTo("tag:chainfeed.io,2026:read/term:rdma");
        assertThat(term.getTitle()).as("escaped once, read back as written, forbidden characters gone")
            .isEqualTo(CLEAN);
        assertThat(term.getUpdated().toInstant()).isEqualTo(Instant.parse("2026-11-01T09:30:00Z"));
        assertThat(term.getAlternateLinks()).extracting(Link::getHref).containsExactly(BASE + "/terms/rdma");
        assertThat(term.getOtherLinks()).as("a related link per web source, none for other schemes")
            .extracting(Link::getRel, Link::getHref, Link::getTitle)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("related", "https://example.org/dcb?a=1&b=2",
                    "IEEE <802.1> & DCB"));
        assertThat(term.getCategories()).extracting(Category::getScheme, Category::getTerm, Category::getLabel)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("tag:chainfeed.io,2026:kind", "term", "term"),
                    org.assertj.core.groups.Tuple.tuple("tag:chainfeed.io,2026:layer", "network-fabric",
                            "Network fabric"),
                    org.assertj.core.groups.Tuple.tuple("tag:chainfeed.io,2026:company", "T", "AT&T"),
                    org.assertj.core.groups.Tuple.tuple("tag:chainfeed.io,2026:company", "2345.TW",
                            "Accton Technology"),
                    org.assertj.core.groups.Tuple.tuple("tag:chainfeed.io,2026:term", "rdma", CLEAN),
                    org.assertj.core.groups.Tuple.tuple("tag:chainfeed.io,2026:term", "infiniband", "InfiniBand"));
        String content = term.getContents().get(0).getValue();
        assertThat(content).startsWith("What changed in this version (since version 10):\n"
                + "- Section “Why <it> matters” changed\n- Company “AT&T (T)” added\n");
        assertThat(content).contains("Why <it> matters\nBody & more\nline two",
                "- IEEE <802.1> & DCB: https://example.org/dcb?a=1&b=2", "Research, not advice.");
        Map<String, List<Element>> ext = new LinkedHashMap<>();
        for (Element e : term.getForeignMarkup()) {
            assertThat(e.getNamespaceURI()).isEqualTo(AtomFeedWriter.NAMESPACE);
            ext.computeIfAbsent(e.getName(), k -> new ArrayList<>()).add(e);
        }
        assertThat(ext.get("version").get(0).getText()).isEqualTo("20");
        assertThat(ext.get("version").get(0).getAttributeValue("previous")).isEqualTo("10");
        assertThat(ext.get("change"))
            .extracting(e -> e.getAttributeValue("field") + "/" + e.getAttributeValue("change") + "/"
                    + e.getAttributeValue("key") + ": " + e.getText())
            .containsExactly("sections/changed/why: Section “Why <it> matters” changed",
                    "companies/added/att: Company “AT&T (T)” added");
        assertThat(ext.get("source")).extracting(e -> e.getAttributeValue("href"))
            .containsExactly("https://example.org/dcb?a=1&b=2", "javascript:alert(1)", "https://example.org/<bad>");
        assertThat(ext.get("disclaimer").get(0).getText()).isEqualTo("Research, not advice.");

        Entry signal = feed.getEntries().get(1);
        assertThat(signal.getId()).isEqualTo("tag:chainfeed.io,2026:read/signal:hbm-sold-out");
        assertThat(signal.getAlternateLinks()).extracting(Link::getHref)
            .as("a signal links to its source")
            .containsExactly("https://example.org/dcb?a=1&b=2");
        assertThat(signal.getContents().get(0).getValue()).doesNotContain("What changed");
    }

    @Test
    void atomEscapesEachSpecialCharacterExactlyOnceAndKeepsNoForbiddenCharacter() throws Exception {
        String xml = new String(AtomFeedWriter.write(document()), StandardCharsets.UTF_8);
        assertThat(xml).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        assertThat(xml).contains(
                "<title type=\"text\">AT&amp;T &lt;Switch&gt; ]]&gt; bell  rocket \uD83D\uDE80 \"q\" 'a' &amp;amp;</title>");
        assertThat(xml).contains("href=\"https://example.org/dcb?a=1&amp;b=2\"");
        assertThat(xml).contains("href=\"https://example.org/&lt;bad&gt;\"")
            .as("only as a cf:source, never a link")
            .doesNotContain("<link rel=\"related\" href=\"https://example.org/&lt;bad&gt;\"");
        assertThat(xml).as("the literal text '&amp;' is escaped once, to '&amp;amp;', and nothing twice")
            .doesNotContain("&amp;amp;amp;", "&amp;lt;", "&amp;gt;", "&amp;quot;");
        assertThat(xml).doesNotContain("<![CDATA[");
        assertThat(xml.codePoints().filter(c -> c < 0x20 && c != '\n' && c != '\r' && c != '\t').count()).isZero();
        assertThat(xml).doesNotContain("\uFFFE", "&#x1;", "&#1;", "&#xB;");
        assertThat(xml).contains("<updated>2026-11-01T09:30:00Z</updated>", "<updated>2026-10-01T00:00:00Z</updated>");
        assertThat(xml).as("the same entry keeps its id in another version")
            .contains("<id>tag:chainfeed.io,2026:read/term:rdma</id>");
    }

    @Test
    void theAtomChecksRejectAnInvalidFeed() throws Exception {
        String broken = new String(AtomFeedWriter.write(document()), StandardCharsets.UTF_8)
            .replaceFirst("<id>tag:chainfeed.io,2026:read/term:rdma</id>", "")
            .replaceFirst("<updated>2026-10-01T00:00:00Z</updated>", "<updated>yesterday</updated>");
        List<String> errors = FeedChecks.atomErrors(broken.getBytes(StandardCharsets.UTF_8));
        assertThat(errors).isNotEmpty();
        assertThat(String.join("\n", errors)).contains("missing required element \"id\"", "\"updated\" invalid");
    }

    @Test
    void jsonFeedIsValidAgainstTheSpecsRequiredFieldsAndReadsBack() throws Exception {
        byte[] bytes = JsonFeedWriter.write(toJson(document()), BASE + "/v3/api-docs", new ObjectMapper());
        assertThat(FeedChecks.jsonFeedErrors(bytes)).isEmpty();
        JsonNode feed = FeedChecks.readJson(bytes);
        assertThat(feed.path("version").asText()).isEqualTo("https://jsonfeed.org/version/1.1");
        assertThat(feed.path("feed_url").asText())
            .isEqualTo(BASE + "/api/v1/feeds/json?topic=layer%3Anetwork-fabric+OR+term%3Ardma&size=2");
        assertThat(feed.path("next_url").asText()).startsWith(BASE + "/api/v1/feeds/json?").contains("&cursor=");
        assertThat(feed.path("home_page_url").asText()).isEqualTo(BASE + "/");
        assertThat(feed.path("_chainfeed").path("disclaimer").asText()).isEqualTo(FeedDocument.DISCLAIMER);

        JsonNode item = feed.path("items").get(0);
        assertThat(item.path("id").asText()).isEqualTo("tag:chainfeed.io,2026:read/term:rdma");
        assertThat(item.path("title").asText()).isEqualTo(CLEAN);
        assertThat(item.path("date_modified").asText()).isEqualTo("2026-11-01T09:30:00Z");
        assertThat(item.has("date_published")).as("a term read has no observation instant").isFalse();
        assertThat(item.path("content_text").asText()).startsWith("What changed in this version (since version 10):");
        assertThat(item.path("tags")).extracting(JsonNode::asText)
            .containsExactly("Network fabric", "AT&T", "Accton Technology", CLEAN, "InfiniBand");
        JsonNode ext = item.path("_chainfeed");
        assertThat(ext.path("about").asText()).isEqualTo(BASE + "/v3/api-docs");
        assertThat(ext.path("previousVersion").asLong()).isEqualTo(10L);
        assertThat(ext.path("disclaimer").asText()).isEqualTo("Research, not advice.");
        assertThat(ext.path("sources").get(0).path("name").asText()).isEqualTo("IEEE <802.1> & DCB");
        assertThat(ext.path("categories").get(2).path("scheme").asText()).isEqualTo("tag:chainfeed.io,2026:company");
        assertThat(ext.path("changes")).extracting(c -> c.path("text").asText())
            .containsExactly("Section “Why <it> matters” changed", "Company “AT&T (T)” added");
        JsonNode signal = feed.path("items").get(1);
        assertThat(signal.path("_chainfeed").path("previousVersion").isNull()).isTrue();
        assertThat(signal.path("_chainfeed").path("changes")).isEmpty();
    }

    @Test
    void theJsonFeedSchemaRejectsWhatTheSpecRequires() throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode good = json.readTree(JsonFeedWriter.write(toJson(document()), BASE + "/v3/api-docs", json));
        var noId = good.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) noId.path("items").get(0)).remove("id");
        assertThat(FeedChecks.jsonFeedErrors(json.writeValueAsBytes(noId))).isNotEmpty();
        var badDate = good.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) badDate.path("items").get(0)).put("date_modified",
                "yesterday");
        assertThat(FeedChecks.jsonFeedErrors(json.writeValueAsBytes(badDate))).isNotEmpty();
        var noContent = good.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) noContent.path("items").get(0)).remove("content_text");
        assertThat(FeedChecks.jsonFeedErrors(json.writeValueAsBytes(noContent))).isNotEmpty();
    }

    private FeedDocument toJson(FeedDocument d) {
        Selector topic = Selector.parse(d.topic());
        return new FeedDocument(d.id(), d.title(), d.subtitle(), d.topic(), d.updated(),
                links.feedUrl(BASE, FeedLinks.JSON_PATH, topic, 2, null),
                links.feedUrl(BASE, FeedLinks.JSON_PATH, topic, 2, null),
                links.feedUrl(BASE, FeedLinks.JSON_PATH, topic, 2, new FeedCursor(Instant.EPOCH, "term:x")), d.page(),
                d.entries());
    }

}
