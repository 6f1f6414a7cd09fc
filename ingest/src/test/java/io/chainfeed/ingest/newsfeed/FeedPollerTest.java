package io.chainfeed.ingest.newsfeed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.ObservedAtBasis;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.fetch.FetchException;
import io.chainfeed.ingest.fetch.HttpStatusException;
import io.chainfeed.ingest.fetch.SafeFetcher;
import io.chainfeed.ingest.publish.IngestMeters;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The poller against feed documents served from loopback by {@link FeedServer} (fixtures
 * under {@code src/test/resources/feeds}), one test per feed shape, with the bundled
 * corpus's layers for validation and a mock producer standing in for Kafka (the
 * publishing path has its own ITs).
 */
class FeedPollerTest {

    private static final AvroSerde<ConstraintSignal> SERDE = AvroSerde.of(ConstraintSignal.class);

    private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

    /**
     * The bundled corpus's layers, loaded once for the class: every test validates
     * against the same.
     */
    private static final List<ChainLayer> LAYERS = Corpus.loadBundled().layers();

    private FeedServer server;

    private MockProducer<String, byte[]> producer;

    private SimpleMeterRegistry meters;

    private MutableClock clock;

    private FeedPoller poller;

    @BeforeEach
    void setUp() {
        server = new FeedServer();
        producer = new MockProducer<>(true, new StringSerializer(), new ByteArraySerializer());
        meters = new SimpleMeterRegistry();
        clock = new MutableClock(START);
        SignalIngest ingest = new SignalIngest(new SignalValidator(LAYERS), producer, clock, new IngestMeters(meters));
        // loopback is allowed here only because the test server is local
        poller = new FeedPoller(new SafeFetcher(true), ingest, producer, clock, meters);
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    // ---- links
    // ----------------------------------------------------------------------------------

    @Test
    void atomLinksAreResolvedWithXmlBaseAtEveryLevelPreferringAlternate() {
        server.put("/blog/feed", fixture("atom-xml-base.xml"));
        FeedPoller.PollResult r = poller.poll(feed("/blog/feed"));
        assertThat(r.published()).isEqualTo(2);
        assertThat(signals()).extracting(s -> s.getSource().getUrl())
            .containsExactly(
                    // feed base .../blog/index.atom, entry base 2026-11-05/,
                    // rel=alternate href hbm-entry
                    "http://www.example.com/blog/2026-11-05/hbm-entry",
                    // only the feed's base: ../news/substrates from .../blog/index.atom
                    "http://www.example.com/news/substrates");
        assertThat(signals().get(0).getSource().getName()).isEqualTo("Memory supply desk");
    }

    @Test
    void withoutXmlBaseARelativeLinkIsReadAgainstTheFeedUrl() {
        server.put("/desk/atom.xml", fixture("atom-no-base.xml"));
        poller.poll(feed("/desk/atom.xml"));
        assertThat(signals()).extracting(s -> s.getSource().getUrl())
            .containsExactly(server.url("/desk/posts/optics-lead-times"));
    }

    @Test
    void aPermalinkGuidStandsInForAMissingLinkButAnIdGuidDoesNot() {
        server.put("/wafers", fixture("rss2-guid-permalink.xml"));
        FeedPoller.PollResult r = poller.poll(feed("/wafers"));
        assertThat(r.published()).isEqualTo(1);
        ConstraintSignal s = signals().get(0);
        assertThat(s.getSource().getUrl()).isEqualTo("https://news.example.org/2026/11/wafer-prices");
        // a named zone keeps parsing right: EST is UTC-5
        assertThat(s.getObservedAt()).isEqualTo(Instant.parse("2026-11-23T13:00:00Z"));
        assertThat(s.getObservedAtBasis()).isEqualTo(ObservedAtBasis.ITEM_PUBLISHED);
        assertThat(deadLetterReasons()).containsExactly("source.url: is required");
    }

    // ---- dates
    // ----------------------------------------------------------------------------------

    @Test
    void anUndatedItemInAnUndatedFeedKeepsTheInstantItWasFirstSeen() {
        server.put("/undated", fixture("rss2-undated.xml"));
        FeedSource feed = feed("/undated");
        assertThat(poller.poll(feed).published()).isEqualTo(1);
        ConstraintSignal s = signals().get(0);
        assertThat(s.getObservedAt()).isEqualTo(START);
        assertThat(s.getObservedAtBasis()).isEqualTo(ObservedAtBasis.FIRST_SEEN);

        // an hour later, the feed changed elsewhere (no 304): the item keeps its
        // first-seen instant
        clock.advance(Duration.ofHours(1));
        server.put("/undated", fixture("rss2-undated.xml").replace("never dates anything", "still undated"));
        FeedPoller.PollResult again = poller.poll(feed);
        assertThat(again).isEqualTo(new FeedPoller.PollResult(FeedPoller.Fetch.FETCHED, 0, 1, 0));
        assertThat(signals()).hasSize(1);
    }

    @Test
    void datesFallBackFromTheItemToDublinCoreToTheFeed() {
        server.put("/channel-dated", fixture("rss2-channel-dates.xml"));
        poller.poll(feed("/channel-dated"));
        assertThat(signals())
            .extracting(ConstraintSignal::getHeadline, ConstraintSignal::getObservedAt,
                    ConstraintSignal::getObservedAtBasis)
            .containsExactly(
                    tuple("Power transformers sold out", Instant.parse("2026-11-24T06:00:00Z"),
                            ObservedAtBasis.FEED_LAST_BUILD_DATE),
                    tuple("Dublin Core dated item", Instant.parse("2026-11-20T06:30:00Z"),
                            ObservedAtBasis.ITEM_DC_DATE),
                    tuple("Garbled date item", Instant.parse("2026-11-24T06:00:00Z"),
                            ObservedAtBasis.FEED_LAST_BUILD_DATE));
    }

    @Test
    void anAtomEntryWithOnlyUpdatedUsesIt() {
        server.put("/blog/feed", fixture("atom-xml-base.xml"));
        poller.poll(feed("/blog/feed"));
        ConstraintSignal substrates = signals().get(1);
        assertThat(substrates.getObservedAt()).isEqualTo(Instant.parse("2026-11-04T12:00:00Z"));
        assertThat(substrates.getObservedAtBasis()).isEqualTo(ObservedAtBasis.ITEM_UPDATED);
    }

    // ---- text
    // -----------------------------------------------------------------------------------

    @Test
    void htmlInRssTitlesAndBodiesBecomesPlainText() {
        assertThat(headlinesAndBodies("/pkg", "rss2-html.xml")).containsExactly(
                tuple("CoWoS capacity doubles at TSMC", "Monthly CoWoS output is set to double by late 2026."),
                // escaped once for XML, once for HTML: decoded once each, never a third
                // time
                tuple("Hybrid bonding ramps & yields climb", "Yields are up \u2014 slowly."));
        assertThat(signals().get(0).getSource().getName()).isEqualTo("Packaging Daily");
    }

    @Test
    void atomTextConstructsAreReadByTheirType() {
        assertThat(headlinesAndBodies("/types", "atom-text-types.xml")).containsExactly(
                tuple("Glass cores arrive early", "Glass-core substrates ship in 2027."),
                tuple("Yield < 60% &amp; falling", "Plain text: <b> stays as written."));
    }

    // ---- formats
    // --------------------------------------------------------------------------------

    @Test
    void aLegacyRss091FeedWithADoctypeIsRead() {
        server.put("/legacy", fixture("rss091-doctype.xml"));
        FeedPoller.PollResult r = poller
            .poll(new FeedSource(server.url("/legacy"), null, List.of("memory"), "tightening", 2));
        assertThat(r.published()).isEqualTo(1);
        ConstraintSignal s = signals().get(0);
        assertThat(s.getHeadline()).isEqualTo("Caf\u00e9 talk: DRAM contract prices rise");
        assertThat(s.getSource().getUrl()).isEqualTo("http://legacy.example.com/dram-contracts");
        assertThat(s.getSource().getName()).isEqualTo("Legacy Fab Digest");
        assertThat(s.getObservedAtBasis()).isEqualTo(ObservedAtBasis.FIRST_SEEN);
    }

    /**
     * Serves {@code body} at {@code path}, polls it as a feed with these defaults, and
     * returns the first signal published.
     */
    private ConstraintSignal pollFirst(String path, String body, String name, List<String> layers, String direction,
            int magnitude) {
        server.put(path, body);
        poller.poll(new FeedSource(server.url(path), name, layers, direction, magnitude));
        return signals().get(0);
    }

    @Test
    void rss092IsRead() {
        ConstraintSignal s = pollFirst("/p92", fixture("rss092.xml"), null, List.of(), "easing", 1);
        assertThat(s.getHeadline()).isEqualTo("Neon gas supply steadies");
        assertThat(s.getSource().getUrl()).isEqualTo("http://p92.example.com/neon");
        assertThat(s.getLayerHints()).containsExactly("memory");
    }

    /** RSS 1.0 (RDF, dated by dc:date) and Atom 0.3 (dated by its published element). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/rdf | rss10-rdf.xml | RDF desk | Photoresist makers raise prices | EUV photoresist costs more next quarter."
                    + " | http://rdf.example.com/photoresist | 2026-11-18T09:00:00Z | ITEM_DC_DATE",
            "/a03 | atom03.xml | | Cleanroom builds slip | Two cleanroom projects slip a quarter."
                    + " | http://a03.example.com/cleanrooms | 2026-11-19T08:00:00Z | ITEM_PUBLISHED" })
    void rss10RdfAndAtom03AreRead(String path, String file, String name, String headline, String body, String url,
            Instant observedAt, ObservedAtBasis basis) {
        ConstraintSignal s = pollFirst(path, fixture(file), name, List.of("memory"), "tightening", 2);
        assertThat(s.getHeadline()).isEqualTo(headline);
        assertThat(s.getBody()).isEqualTo(body);
        assertThat(s.getSource().getUrl()).isEqualTo(url);
        assertThat(s.getObservedAt()).isEqualTo(observedAt);
        assertThat(s.getObservedAtBasis()).isEqualTo(basis);
    }

    @Test
    void rss20ItemsTakeTheFeedsDefaultsAndTheFeedTitle() {
        String uncategorised = fixture("rss2-html.xml").replaceAll("<category>[^<]*</category>", "");
        ConstraintSignal s = pollFirst("/pkg", uncategorised, null, List.of("advanced-packaging"), "easing", 3);
        assertThat(s.getLayerHints()).containsExactly("advanced-packaging");
        assertThat(s.getDirection()).isEqualTo(Direction.EASING);
        assertThat(s.getMagnitude()).isEqualTo(3);
        assertThat(s.getId()).startsWith("feed-");
    }

    // ---- encodings and compression
    // --------------------------------------------------------------

    /**
     * The same feed in each encoding, told by the XML prolog, the HTTP header, or a byte
     * order mark.
     */
    @ParameterizedTest
    @CsvSource({ "ISO-8859-1, prolog, Caf\u00e9 cr\u00e8me: DRAM up",
            "windows-1252, header, \u201cDRAM\u201d up \u2013 again",
            "EUC-KR, prolog, \ub514\ub7a8 \uac00\uaca9 \uc0c1\uc2b9",
            "Shift_JIS, header, DRAM\u4fa1\u683c\u304c\u4e0a\u6607",
            "UTF-8, bom, \u00e9t\u00e9 \u2014 HBM \u2192 sold out",
            "UTF-16, bom, \u00e9t\u00e9 \u2014 HBM \u2192 sold out",
            "Shift_JIS, header-wins-over-prolog, DRAM\u4fa1\u683c" })
    void encodingsComeFromTheHeaderThePrologOrTheBom(String charset, String how, String title) {
        String xmlEncoding = how.equals("header-wins-over-prolog") ? "ISO-8859-1" : charset;
        String prolog = how.equals("prolog") || how.equals("header-wins-over-prolog")
                ? "<?xml version=\"1.0\" encoding=\"" + xmlEncoding + "\"?>\n" : "<?xml version=\"1.0\"?>\n";
        String xml = prolog + "<rss version=\"2.0\"><channel><title>Enc</title><link>http://enc.example.com/</link>"
                + "<description>d</description><item><title>" + title + "</title>"
                + "<link>http://enc.example.com/x</link><pubDate>Mon, 30 Nov 2026 08:00:00 GMT</pubDate>"
                + "</item></channel></rss>";
        Charset cs = Charset.forName(charset);
        byte[] bytes = xml.getBytes(cs);
        if (how.equals("bom")) {
            bytes = cs.name().equals("UTF-8") ? concat(new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF }, bytes)
                    : bytes; // Java's UTF-16 encoder writes a big-endian BOM itself
        }
        String type = how.startsWith("header") ? "text/xml; charset=" + charset : "application/rss+xml";
        server.put("/enc", bytes, type, FeedServer.Encoding.IDENTITY, true);
        poller.poll(new FeedSource(server.url("/enc"), null, List.of("memory"), "easing", 1));
        assertThat(signals()).extracting(ConstraintSignal::getHeadline).containsExactly(title);
    }

    @ParameterizedTest
    @EnumSource(value = FeedServer.Encoding.class, names = { "GZIP", "DEFLATE" })
    void compressedAnswersAreDecompressed(FeedServer.Encoding encoding) {
        server.put("/z", fixture("rss2-html.xml").getBytes(StandardCharsets.UTF_8), "application/rss+xml", encoding,
                true);
        poller.poll(feed("/z"));
        assertThat(server.requests("/z").get(0).acceptEncoding()).contains("gzip").contains("deflate");
        assertThat(signals()).extracting(ConstraintSignal::getHeadline).contains("CoWoS capacity doubles at TSMC");
    }

    // ---- DOCTYPEs
    // -------------------------------------------------------------------------------

    @Test
    void aDoctypeNeverLoadsExternalEntitiesOrTheDtdAndBoundsExpansion() {
        server.put("/evil.dtd", "<!ENTITY remote \"FROM-THE-DTD\">");
        server.put("/xxe", """
                <?xml version="1.0"?>
                <!DOCTYPE rss SYSTEM "%s" [
                  <!ENTITY secret SYSTEM "file:///etc/passwd">
                  <!ENTITY fetched SYSTEM "%s">
                ]>
                <rss version="2.0"><channel><title>Doctype wire</title><link>https://d.example.com/</link>
                <description>d</description>
                <item><title>Item &secret;&fetched; here</title><link>https://d.example.com/a</link>
                <pubDate>Mon, 30 Nov 2026 08:00:00 GMT</pubDate></item>
                </channel></rss>
                """.formatted(server.url("/evil.dtd"), server.url("/evil.dtd")));
        poller.poll(new FeedSource(server.url("/xxe"), null, List.of("memory"), "easing", 1));
        assertThat(signals()).extracting(ConstraintSignal::getHeadline).containsExactly("Item here");
        assertThat(server.requests("/evil.dtd")).isEmpty();

        // entity expansion within the document: the billion-laughs shape is refused or
        // not expanded
        StringBuilder lol = new StringBuilder("<!ENTITY l0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            lol.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">");
        }
        server.put("/laughs",
                "<?xml version=\"1.0\"?><!DOCTYPE rss [" + lol + "]><rss version=\"2.0\"><channel>"
                        + "<title>Laughs</title><link>https://l.example.com/</link><description>d</description><item>"
                        + "<title>x&l9;</title><link>https://l.example.com/a</link></item></channel></rss>");
        FeedSource laughs = new FeedSource(server.url("/laughs"), null, List.of("memory"), "easing", 1);
        // the JDK parser's expansion limit stops it; the feed fails as a whole, nothing
        // is published
        assertThatThrownBy(() -> poller.poll(laughs)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not a readable RSS/Atom document")
            .hasMessageContaining("entity expansions");
        assertThat(signals()).hasSize(1);
    }

    // ---- polite polling
    // -------------------------------------------------------------------------

    @Test
    void theSecondPollOfAnUnchangedFeedIsAConditionalGetAnswered304() {
        server.put("/blog/feed", fixture("atom-xml-base.xml"));
        FeedSource feed = feed("/blog/feed");
        assertThat(poller.poll(feed).fetch()).isEqualTo(FeedPoller.Fetch.FETCHED);
        assertThat(poller.poll(feed)).isEqualTo(new FeedPoller.PollResult(FeedPoller.Fetch.NOT_MODIFIED, 0, 0, 0));

        List<FeedServer.Request> requests = server.requests("/blog/feed");
        assertThat(requests).extracting(FeedServer.Request::status).containsExactly(200, 304);
        assertThat(requests.get(0).ifNoneMatch()).isNull();
        assertThat(requests.get(1).ifNoneMatch()).isNotBlank();
        assertThat(requests.get(1).ifModifiedSince()).isEqualTo("Thu, 5 Nov 2026 10:00:00 GMT");
        assertThat(signals()).hasSize(2);

        FeedStatus status = poller.status(feed);
        assertThat(status.fetches()).isEqualTo(2);
        assertThat(status.notModified()).isEqualTo(1);
        assertThat(status.itemsPublished()).isEqualTo(2);
        assertThat(status.lastOutcome()).isEqualTo("not-modified");
        assertThat(status.etag()).isEqualTo(requests.get(1).ifNoneMatch());
        assertThat(count("fetches", feed, "not-modified")).isEqualTo(1.0);
        assertThat(count("items", feed, "published")).isEqualTo(2.0);
    }

    @Test
    void retryAfterOn503AndBackoffOn429HoldTheFeedBack() {
        FeedSource feed = busyFeed(503, "600");
        assertThatThrownBy(() -> poller.poll(feed)).isInstanceOfSatisfying(HttpStatusException.class,
                e -> assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(600)));
        assertThat(poller.status(feed).notBefore()).isEqualTo(START.plusSeconds(600).toString());

        clock.advance(Duration.ofSeconds(599));
        assertThat(poller.poll(feed).fetch()).isEqualTo(FeedPoller.Fetch.DEFERRED);
        assertThat(server.requests("/busy")).hasSize(1);

        // 429 without Retry-After: the backoff doubles from the first wait (1 min, then 2
        // min)
        clock.advance(Duration.ofSeconds(1));
        server.script("/busy", 429, Map.of());
        assertThatThrownBy(() -> poller.poll(feed)).isInstanceOf(HttpStatusException.class);
        Instant second = clock.instant();
        assertThat(poller.status(feed).notBefore()).isEqualTo(second.plus(Duration.ofMinutes(2)).toString());
        assertThat(poller.status(feed).consecutiveFailures()).isEqualTo(2);
        assertThat(poller.status(feed).lastOutcome()).isEqualTo("throttled");

        clock.advance(Duration.ofMinutes(2));
        assertThat(poller.poll(feed).published()).isEqualTo(1);
        assertThat(server.requests("/busy")).extracting(FeedServer.Request::status).containsExactly(503, 429, 200);
        FeedStatus ok = poller.status(feed);
        assertThat(ok.consecutiveFailures()).isZero();
        assertThat(ok.notBefore()).isNull();
        assertThat(ok.lastError()).contains("429");
        assertThat(count("fetches", feed, "throttled")).isEqualTo(2.0);
        assertThat(count("fetches", feed, "deferred")).isEqualTo(1.0);
    }

    /**
     * A feed at {@code /busy} whose next poll is refused with this status and
     * {@code Retry-After}; the poll after that is answered.
     */
    private FeedSource busyFeed(int status, String retryAfter) {
        server.put("/busy", fixture("rss2-undated.xml"));
        server.script("/busy", status, Map.of("Retry-After", retryAfter));
        return feed("/busy");
    }

    @Test
    void aRetryAfterHttpDateIsHonoured() {
        Instant at = Instant.now().plus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        FeedSource feed = busyFeed(429,
                java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC).format(at));
        assertThatThrownBy(() -> poller.poll(feed)).isInstanceOfSatisfying(HttpStatusException.class,
                e -> assertThat(e.retryAfter()).isBetween(Duration.ofMinutes(55), Duration.ofHours(1)));
    }

    @Test
    void aPermanentRedirectIsRememberedAndATemporaryOneIsNot() {
        server.put("/new", fixture("rss2-undated.xml"));
        server.put("/elsewhere", fixture("rss2-undated.xml"));
        server.script("/old", 301, Map.of("Location", "/new"));
        FeedSource feed = feed("/old");
        assertThat(poller.poll(feed).published()).isEqualTo(1);
        assertThat(poller.status(feed).fetchUrl()).isEqualTo(server.url("/new"));
        poller.poll(feed);
        assertThat(server.requests("/old")).hasSize(1);
        assertThat(server.requests("/new")).extracting(FeedServer.Request::status).containsExactly(200, 304);

        server.script("/temp", 302, Map.of("Location", "/elsewhere"));
        server.script("/temp", 302, Map.of("Location", "/elsewhere"));
        FeedSource temp = feed("/temp");
        poller.poll(temp);
        poller.poll(temp);
        assertThat(server.requests("/temp")).hasSize(2);
        assertThat(poller.status(temp).fetchUrl()).isEqualTo(server.url("/temp"));
    }

    @Test
    void aServerWithoutValidatorsGetsPlainGets() {
        server.put("/plain", fixture("rss2-undated.xml").getBytes(StandardCharsets.UTF_8), "application/rss+xml",
                FeedServer.Encoding.IDENTITY, false);
        FeedSource feed = feed("/plain");
        poller.poll(feed);
        assertThat(poller.poll(feed)).isEqualTo(new FeedPoller.PollResult(FeedPoller.Fetch.FETCHED, 0, 1, 0));
        assertThat(server.requests("/plain")).allSatisfy(r -> {
            assertThat(r.ifNoneMatch()).isNull();
            assertThat(r.ifModifiedSince()).isNull();
        });
    }

    @Test
    void anUnreadableDocumentIsAFailureWithBackoffAndKeepsNoValidators() {
        server.put("/broken", "<rss version=\"2.0\"><channel><title>cut off");
        FeedSource feed = feed("/broken");
        assertThatThrownBy(() -> poller.poll(feed)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("not a readable RSS/Atom document");
        FeedStatus s = poller.status(feed);
        assertThat(s.lastOutcome()).isEqualTo("failed");
        assertThat(s.etag()).isNull();
        assertThat(s.notBefore()).isEqualTo(START.plus(FeedState.FIRST_BACKOFF).toString());
    }

    // ---- bad items
    // ------------------------------------------------------------------------------

    @Test
    void aBadItemNeverStopsTheRestOfItsFeed() {
        server.put("/mixed", fixture("rss2-bad-items.xml"));
        FeedSource feed = feed("/mixed");
        FeedPoller.PollResult r = poller.poll(feed);
        assertThat(r).isEqualTo(new FeedPoller.PollResult(FeedPoller.Fetch.FETCHED, 2, 0, 3));
        assertThat(signals()).extracting(ConstraintSignal::getHeadline)
            .containsExactly("First good item", "Last good item");
        assertThat(deadLetterReasons()).containsExactly(
                "source.url: 'http://mixed example com/[two]' is not a URL: Illegal character in authority",
                "magnitude: 9 is out of range; it must be 1 to 5",
                "layers: 'unobtainium' is not a known layer; known: " + String.join(", ", knownLayers())
                        + "; direction: is required (tightening or easing); source.url: "
                        + "'mailto:desk@mixed.example.com' is not an absolute http(s) URL");
        assertThat(producer.history()).filteredOn(p -> p.topic().equals(Topics.SIGNALS_DLQ))
            .allSatisfy(d -> assertThat(
                    new String(d.headers().lastHeader(Topics.DLQ_ORIGIN_HEADER).value(), StandardCharsets.UTF_8))
                .isEqualTo(feed.url()));
        assertThat(poller.status(feed).itemsDeadLettered()).isEqualTo(3);

        // the next poll of the changed feed neither re-publishes nor re-dead-letters
        // anything
        server.put("/mixed", fixture("rss2-bad-items.xml").replace("Some items are broken.", "Still broken."));
        assertThat(poller.poll(feed)).isEqualTo(new FeedPoller.PollResult(FeedPoller.Fetch.FETCHED, 0, 5, 0));
    }

    @Test
    void loopbackIsRefusedUnlessAllowed() {
        server.put("/rss", fixture("rss2-undated.xml"));
        FeedPoller strict = new FeedPoller(new SafeFetcher(false),
                new SignalIngest(new SignalValidator(LAYERS), producer, clock, new IngestMeters(meters)), producer,
                clock, meters);
        assertThatThrownBy(() -> strict.poll(feed("/rss"))).isInstanceOf(FetchException.class)
            .hasMessageContaining("refused");
    }

    // ---- helpers
    // --------------------------------------------------------------------------------

    private FeedSource feed(String path) {
        return new FeedSource(server.url(path), null, List.of(), null, null);
    }

    /**
     * Serves the fixture {@code name} at {@code path}, polls it once and gives each
     * signal's headline and body.
     */
    private List<Tuple> headlinesAndBodies(String path, String name) {
        server.put(path, fixture(name));
        poller.poll(feed(path));
        return signals().stream().map(s -> tuple(s.getHeadline(), s.getBody())).toList();
    }

    /** The count of meter {@code chainfeed.feed.<meter>} for one feed and outcome. */
    private double count(String meter, FeedSource feed, String outcome) {
        return meters.counter("chainfeed.feed." + meter, "feed", feed.url(), "outcome", outcome).count();
    }

    private List<ConstraintSignal> signals() {
        return producer.history()
            .stream()
            .filter(p -> p.topic().equals(Topics.SIGNALS))
            .map(p -> SERDE.decode(p.value()))
            .toList();
    }

    private List<String> deadLetterReasons() {
        return producer.history()
            .stream()
            .filter(p -> p.topic().equals(Topics.SIGNALS_DLQ))
            .map(ProducerRecord::headers)
            .map(h -> new String(h.lastHeader(Topics.DLQ_REASON_HEADER).value(), StandardCharsets.UTF_8))
            .toList();
    }

    private static List<String> knownLayers() {
        return LAYERS.stream().map(ChainLayer::getId).toList();
    }

    private static String fixture(String name) {
        try (InputStream in = FeedPollerTest.class.getResourceAsStream("/feeds/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

}
