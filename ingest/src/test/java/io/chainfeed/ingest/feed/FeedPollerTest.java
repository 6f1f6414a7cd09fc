package io.chainfeed.ingest.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.fetch.FetchException;
import io.chainfeed.ingest.fetch.SafeFetcher;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FeedPollerTest {
    private static final String RSS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Chip wire</title><link>https://example.com</link>
              <description>news</description>
              <item><title>HBM allocation sold out through 2027</title>
                <link>https://example.com/hbm</link><guid>hbm-1</guid>
                <description>&lt;p&gt;SK hynix says HBM is &lt;b&gt;sold out&lt;/b&gt;.&lt;/p&gt;</description>
                <pubDate>Sun, 01 Mar 2026 09:30:00 +0900</pubDate>
                <category>layer:memory</category><category>direction:tightening</category><category>magnitude:4</category>
              </item>
              <item><title>No magnitude here</title><link>https://example.com/x</link><guid>x-1</guid>
                <pubDate>Sun, 01 Mar 2026 09:30:00 GMT</pubDate>
                <category>layer:memory</category><category>direction:easing</category>
              </item>
              <item><title>Undated</title><link>https://example.com/y</link><guid>y-1</guid>
                <category>layer:memory</category><category>direction:easing</category><category>magnitude:2</category>
              </item>
            </channel></rss>
            """;
    private static final String ATOM = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Packaging notes</title><id>urn:x</id>
              <updated>2026-03-05T00:00:00Z</updated>
              <entry><title>CoWoS capacity doubles</title><id>urn:cowos-1</id>
                <link href="https://example.com/cowos"/><updated>2026-03-05T00:00:00Z</updated>
                <summary>New lines.</summary></entry>
            </feed>
            """;
    private static final String DOCTYPE = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <rss version="2.0"><channel><title>&xxe;</title><link>https://e.com</link><description>d</description>
            </channel></rss>
            """;

    private HttpServer server;
    private final Map<String, String> documents = new ConcurrentHashMap<>();
    private MockProducer<String, byte[]> producer;
    private FeedPoller poller;

    @BeforeEach
    void setUp() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = documents.get(exchange.getRequestURI().getPath());
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/rss+xml");
            exchange.sendResponseHeaders(body == null ? 404 : 200, bytes.length == 0 ? -1 : bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        producer = new MockProducer<>(true, new StringSerializer(), new ByteArraySerializer());
        SignalIngest ingest = new SignalIngest(new SignalValidator(Corpus.loadBundled().layers()), producer,
                Clock.systemUTC());
        // loopback is allowed here only because the test server is local
        poller = new FeedPoller(new SafeFetcher(true), ingest, producer);
    }

    @AfterEach
    void tearDown() {
        server.stop(0);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Test
    void validItemsBecomeSignalsAndInvalidOnesAreDeadLetteredWithTheReason() {
        documents.put("/rss", RSS);
        FeedSource feed = new FeedSource(url("/rss"), null, List.of(), null, null);
        FeedPoller.PollResult r = poller.poll(feed);
        assertThat(r).isEqualTo(new FeedPoller.PollResult(1, 0, 2));

        List<ProducerRecord<String, byte[]>> signals = producer.history().stream()
                .filter(p -> p.topic().equals(Topics.SIGNALS)).toList();
        assertThat(signals).hasSize(1);
        ConstraintSignal s = AvroSerde.of(ConstraintSignal.class).decode(signals.get(0).value());
        assertThat(s.getHeadline()).isEqualTo("HBM allocation sold out through 2027");
        assertThat(s.getBody()).isEqualTo("SK hynix says HBM is sold out.");
        assertThat(s.getLayerHints()).containsExactly("memory");
        assertThat(s.getDirection()).isEqualTo(Direction.TIGHTENING);
        assertThat(s.getMagnitude()).isEqualTo(4);
        assertThat(s.getObservedAt()).isEqualTo(Instant.parse("2026-03-01T00:30:00Z"));
        assertThat(s.getSource().getName()).isEqualTo("Chip wire");
        assertThat(s.getSource().getUrl()).isEqualTo("https://example.com/hbm");
        assertThat(s.getId()).startsWith("feed-");

        List<ProducerRecord<String, byte[]>> dead = producer.history().stream()
                .filter(p -> p.topic().equals(Topics.SIGNALS_DLQ)).toList();
        assertThat(dead).extracting(d -> new String(d.headers().lastHeader(Topics.DLQ_REASON_HEADER).value(),
                StandardCharsets.UTF_8)).containsExactlyInAnyOrder("magnitude: is required (an integer 1 to 5)",
                "observedAt: is required");
        assertThat(dead).allSatisfy(d -> assertThat(new String(d.headers().lastHeader(Topics.DLQ_ORIGIN_HEADER).value(),
                StandardCharsets.UTF_8)).isEqualTo(url("/rss")));
        assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).contains("\"headline\"");

        // polling again publishes and dead-letters nothing new
        assertThat(poller.poll(feed)).isEqualTo(new FeedPoller.PollResult(0, 3, 0));
        assertThat(producer.history()).hasSize(3);
    }

    @Test
    void atomItemsTakeTheFeedsDefaults() {
        documents.put("/atom", ATOM);
        FeedSource feed = new FeedSource(url("/atom"), "Packaging notes", List.of("advanced-packaging"), "easing", 3);
        assertThat(poller.poll(feed).published()).isEqualTo(1);
        ConstraintSignal s = AvroSerde.of(ConstraintSignal.class).decode(producer.history().get(0).value());
        assertThat(s.getLayerHints()).containsExactly("advanced-packaging");
        assertThat(s.getDirection()).isEqualTo(Direction.EASING);
        assertThat(s.getMagnitude()).isEqualTo(3);
        assertThat(s.getObservedAt()).isEqualTo(Instant.parse("2026-03-05T00:00:00Z"));
        assertThat(s.getSource().getUrl()).isEqualTo("https://example.com/cowos");
    }

    @Test
    void aDoctypeIsRefused() {
        documents.put("/xxe", DOCTYPE);
        assertThatThrownBy(() -> poller.poll(new FeedSource(url("/xxe"), null, List.of("memory"), "easing", 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DOCTYPE");
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void loopbackIsRefusedUnlessAllowed() {
        documents.put("/rss", RSS);
        FeedPoller strict = new FeedPoller(new SafeFetcher(false),
                new SignalIngest(new SignalValidator(Corpus.loadBundled().layers()), producer, Clock.systemUTC()),
                producer);
        assertThatThrownBy(() -> strict.poll(new FeedSource(url("/rss"), null, List.of(), null, null)))
                .isInstanceOf(FetchException.class).hasMessageContaining("refused");
    }
}
