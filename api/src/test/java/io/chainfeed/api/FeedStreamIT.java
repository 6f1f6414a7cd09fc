package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.launchdarkly.eventsource.ConnectStrategy;
import com.launchdarkly.eventsource.ErrorStrategy;
import com.launchdarkly.eventsource.EventSource;
import com.launchdarkly.eventsource.MessageEvent;
import com.launchdarkly.eventsource.background.BackgroundEventHandler;
import com.launchdarkly.eventsource.background.BackgroundEventSource;
import io.chainfeed.api.feed.SseStreams;
import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadLog;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.avro.Read;
import io.chainfeed.devstack.LoopbackPorts;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.TopicSpec;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.TopicProbe;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The SSE feed stream end to end: signals go through the real signal ingest, the real
 * chain-state topology tags them into {@code chainfeed.reads.v1} (three partitions here,
 * so event ids name several), and a real SSE client (LaunchDarkly's okhttp-eventsource,
 * which reconnects with {@code Last-Event-ID} by itself) follows
 * {@code GET /api/v1/feeds/stream} on an API instance the test starts, stops and starts
 * again. What the client gets is checked against the log itself: a consumer reads the
 * records from the client's first position to the end and applies the same selector.
 */
@PipelineTest
class FeedStreamIT {

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("feed-stream-it", TestPipeline.Streams.TAGGING,
            TestPipeline.Streams.CHAIN_STATE);

    private static final String MEMORY = "layer:memory AND kind:signal";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final HttpClient HTTP = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();

    private static ConfigurableApplicationContext api;

    private static int apiPort;

    @Autowired
    TestRestTemplate http;

    @AfterAll
    static void stopApi() {
        if (api != null) {
            api.close();
        }
    }

    /**
     * A received SSE message: its event name, the read id in its data, its version, and
     * its event id.
     */
    record Received(String event, String readId, long version, String lastEventId) {
        String key() {
            return event + " " + readId + " v" + version;
        }
    }

    /**
     * Asserts that {@code got} holds exactly the records of {@code want}, each once
     * (order across partitions is free), and every read's versions in the order they were
     * written.
     */
    private static void assertExactly(List<Received> got, List<Received> want) {
        assertThat(got.stream().map(Received::key).sorted().toList())
            .isEqualTo(want.stream().map(Received::key).sorted().toList());
        Map<String, Long> lastVersion = new HashMap<>();
        for (Received r : got) {
            Long before = lastVersion.put(r.readId(), r.version());
            assertThat(before == null || before < r.version()).as("versions of %s in order", r.readId()).isTrue();
        }
    }

    /** Records the messages of one SSE client. */
    static final class Client implements BackgroundEventHandler {

        final List<Received> received = Collections.synchronizedList(new ArrayList<>());

        volatile int opens;

        @Override
        public void onOpen() {
            opens++;
        }

        @Override
        public void onClosed() {
        }

        @Override
        public void onMessage(String event, MessageEvent message) throws Exception {
            if ("ready".equals(event)) {
                received.add(new Received(event, null, -1, message.getLastEventId()));
                return;
            }
            Map<?, ?> data = JSON.readValue(message.getData(), Map.class);
            long version = data.get("version") instanceof Number n ? n.longValue() : -1;
            received.add(new Received(event, (String) data.get("id"), version, message.getLastEventId()));
        }

        @Override
        public void onComment(String comment) {
        }

        @Override
        public void onError(Throwable t) {
        }

        List<Received> reads() {
            synchronized (received) {
                return received.stream().filter(r -> !"ready".equals(r.event())).toList();
            }
        }

        String lastEventId() {
            synchronized (received) {
                return received.isEmpty() ? null : received.get(received.size() - 1).lastEventId();
            }
        }

        boolean has(String readId) {
            return reads().stream().anyMatch(r -> readId.equals(r.readId()));
        }

    }

    private static BackgroundEventSource connect(String topic, String lastEventId, Client client) {
        EventSource.Builder es = new EventSource.Builder(
                ConnectStrategy.http(streamUri(topic)).readTimeout(30, TimeUnit.SECONDS))
            .errorStrategy(ErrorStrategy.alwaysContinue())
            .retryDelay(200, TimeUnit.MILLISECONDS);
        if (lastEventId != null) {
            es.lastEventId(lastEventId);
        }
        BackgroundEventSource source = new BackgroundEventSource.Builder(client, es).build();
        source.start();
        return source;
    }

    private static URI streamUri(String topic) {
        return URI.create("http://127.0.0.1:" + apiPort + "/api/v1/feeds/stream?topic="
                + URLEncoder.encode(topic, StandardCharsets.UTF_8));
    }

    private ConfigurableApplicationContext startApi() {
        return new SpringApplicationBuilder(ApiApplication.class).run("--server.port=" + apiPort,
                "--spring.kafka.bootstrap-servers=" + pipeline.bootstrap(),
                "--spring.elasticsearch.uris=" + pipeline.esUri(), "--chainfeed.api.feed.retry=300ms",
                "--chainfeed.api.feed.heartbeat=1s", "--spring.jmx.enabled=false");
    }

    private void signal(String id, boolean memory) {
        String json = memory ? """
                {"id": "%s", "headline": "HBM allocation is fully booked (%s)",
                 "body": "Memory makers report that HBM supply stays sold out.",
                 "layers": ["HBM"], "direction": "tightening", "magnitude": 1,
                 "observedAt": "2026-03-02T09:00:00Z",
                 "source": {"name": "Example wire", "url": "https://example.com/news/%s"}}
                """.formatted(id, id, id) : """
                {"id": "%s", "headline": "Ethernet switch lead times ease (%s)",
                 "body": "Switch vendors report shorter lead times for data-center switches.",
                 "layers": ["network-fabric"], "direction": "easing", "magnitude": 1,
                 "observedAt": "2026-03-02T09:00:00Z",
                 "source": {"name": "Example wire", "url": "https://example.com/news/%s"}}
                """.formatted(id, id, id);
        pipeline.publishSignals(json);
    }

    @Test
    void aTopicStreamsLiveAndResumesExactlyAfterADisconnectAndAnApiRestart() throws Exception {
        String bootstrap = pipeline.bootstrap();
        TopicSetup.ensure(bootstrap, List.of(new TopicSpec(Topics.READS, 3, Map.of("cleanup.policy", "compact"))),
                (short) 1);
        pipeline.start();
        pipeline.loadCorpus();
        apiPort = LoopbackPorts.free();
        api = startApi();

        badRequestsAreProblemsBeforeTheStreamStarts();
        theStreamStartsWithRetryAndKeepsProxiesFromBuffering();

        Client watcher = new Client();
        Client reader = new Client();
        try (BackgroundEventSource all = connect("all", null, watcher)) {
            BackgroundEventSource live = connect(MEMORY, null, reader);
            await().atMost(Duration.ofSeconds(20))
                .until(() -> reader.lastEventId() != null && watcher.lastEventId() != null);
            LogPosition first = LogPosition.parse(reader.lastEventId());

            // Live: reads of the topic arrive, others do not.
            signal("sse-fab-1", false);
            signal("sse-mem-1", true);
            signal("sse-fab-2", false);
            signal("sse-mem-2", true);
            await().atMost(Duration.ofSeconds(60))
                .until(() -> reader.has("signal:sse-mem-1") && reader.has("signal:sse-mem-2")
                        && watcher.has("signal:sse-fab-1") && watcher.has("signal:sse-fab-2"));

            // Disconnect, publish more, reconnect with the last id: exactly the missed
            // reads come.
            live.close();
            String lastSeen = reader.lastEventId();
            int before = reader.reads().size();
            signal("sse-mem-3", true);
            signal("sse-fab-3", false);
            signal("sse-mem-4", true);
            await().atMost(Duration.ofSeconds(60))
                .until(() -> watcher.has("signal:sse-mem-4") && watcher.has("signal:sse-fab-3"));
            Client resumed = new Client();
            try (BackgroundEventSource again = connect(MEMORY, lastSeen, resumed)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> resumed.has("signal:sse-mem-4"));
                assertThat(ids(resumed.reads())).contains("signal:sse-mem-3", "signal:sse-mem-4")
                    .doesNotContain("signal:sse-mem-1", "signal:sse-mem-2");
                assertExactly(resumed.reads(), expected(bootstrap, LogPosition.parse(lastSeen), MEMORY,
                        LogPosition.parse(resumed.lastEventId())));

                // Restart the API: the client reconnects by itself with Last-Event-ID and
                // misses nothing.
                api.close();
                signal("sse-mem-5", true);
                signal("sse-fab-4", false);
                signal("sse-mem-6", true);
                api = startApi();
                await().atMost(Duration.ofSeconds(90)).until(() -> resumed.has("signal:sse-mem-6"));
                signal("sse-mem-7", true);
                await().atMost(Duration.ofSeconds(60)).until(() -> resumed.has("signal:sse-mem-7"));
                assertThat(resumed.opens).isGreaterThanOrEqualTo(2);

                List<Received> all1 = new ArrayList<>(reader.reads().subList(0, before));
                all1.addAll(resumed.reads());
                List<Received> want = expected(bootstrap, first, MEMORY, LogPosition.parse(resumed.lastEventId()));
                assertExactly(all1, want);
                assertThat(ids(all1)).contains("signal:sse-mem-1", "signal:sse-mem-2", "signal:sse-mem-3",
                        "signal:sse-mem-4", "signal:sse-mem-5", "signal:sse-mem-6", "signal:sse-mem-7");
                assertThat(ids(all1)).noneMatch(id -> id.startsWith("signal:sse-fab-"));
                // The signals of the other layer did reach the log and the other reader.
                assertThat(ids(watcher.reads())).contains("signal:sse-fab-1", "signal:sse-fab-2", "signal:sse-fab-3");

                moreResumingReadersThanReplayWorkersAreAllServed(bootstrap, first);
            }
        }
        disconnectedClientsAreForgotten();
    }

    /**
     * Five readers resume at once from the same early id and stay connected, more than
     * the two replay workers: each gets exactly what it missed and then goes live (a
     * replay that has read everything must hand over even though the log's transaction
     * markers sit between its last record and the tail).
     */
    private void moreResumingReadersThanReplayWorkersAreAllServed(String bootstrap, LogPosition from) throws Exception {
        List<Client> clients = new ArrayList<>();
        List<BackgroundEventSource> sources = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                Client c = new Client();
                clients.add(c);
                sources.add(connect(MEMORY, from.toString(), c));
            }
            await().atMost(Duration.ofSeconds(60))
                .until(() -> clients.stream().allMatch(c -> c.has("signal:sse-mem-7")));
            signal("sse-mem-8", true);
            await().atMost(Duration.ofSeconds(60))
                .until(() -> clients.stream().allMatch(c -> c.has("signal:sse-mem-8")));
            for (Client c : clients) {
                assertExactly(c.reads(), expected(bootstrap, from, MEMORY, LogPosition.parse(c.lastEventId())));
            }
        }
        finally {
            sources.forEach(BackgroundEventSource::close);
        }
    }

    private static List<String> ids(List<Received> reads) {
        return reads.stream().map(Received::readId).toList();
    }

    /**
     * The oracle: what a reader at {@code from} must get up to {@code to}, read straight
     * from the log and filtered with the same selector.
     */
    private static List<Received> expected(String bootstrap, LogPosition from, String topic, LogPosition to) {
        Selector selector = Selector.parse(topic);
        AvroSerde<Read> serde = AvroSerde.of(Read.class);
        List<TopicProbe.Rec<byte[]>> records;
        try (TopicProbe<byte[]> reads = TopicProbe.bytes(bootstrap, Topics.READS)) {
            records = reads.toEnd(Duration.ofSeconds(30))
                .stream()
                .filter(r -> r.offset() >= from.next(r.partition()) && r.offset() < to.next(r.partition()))
                .toList();
        }
        List<Received> out = new ArrayList<>();
        for (TopicProbe.Rec<byte[]> r : records) {
            if (r.value() == null) {
                out.add(new Received("deleted", r.key(), -1, null));
                continue;
            }
            Read read = serde.deserialize(Topics.READS, r.value());
            if (selector.matches(read)) {
                // The version people see: the read's sequence (ReadDocuments), the
                // internal one only for
                // reads written before sequences existed.
                long shown = read.getSequence() > 0 ? read.getSequence() : read.getVersion();
                out.add(new Received("read", read.getId(), shown, null));
            }
        }
        return out;
    }

    private void badRequestsAreProblemsBeforeTheStreamStarts() throws Exception {
        HttpResponse<String> badTopic = get(
                "/api/v1/feeds/stream?topic=" + URLEncoder.encode("layer:memory AND (", StandardCharsets.UTF_8),
                Map.of());
        assertThat(badTopic.statusCode()).isEqualTo(400);
        assertThat(badTopic.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(badTopic.body()).contains("invalid-selector").contains("position 19");

        HttpResponse<String> badId = get("/api/v1/feeds/stream?topic=all", Map.of("Last-Event-ID", "0:12,1:x"));
        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(badId.body()).contains("invalid-event-id").contains("position 8");

        HttpResponse<String> badParam = get("/api/v1/feeds/stream?topic=all&lastEventId=zz", Map.of());
        assertThat(badParam.statusCode()).isEqualTo(400);
        assertThat(badParam.body()).contains("invalid-event-id");

        await().atMost(Duration.ofSeconds(30)).until(() -> api.getBean(ReadLog.class).end().isPresent());
        HttpResponse<String> noSuchPartition = get("/api/v1/feeds/stream?topic=all",
                Map.of("Last-Event-ID", "0:1,7:0"));
        assertThat(noSuchPartition.statusCode()).isEqualTo(400);
        assertThat(noSuchPartition.body()).contains("invalid-event-id").contains("partition 7");
    }

    private HttpResponse<String> get(String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apiPort + path))
            .header("Accept", "text/event-stream")
            .timeout(Duration.ofSeconds(10));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Raw bytes: retry first, the ready event's id, a heartbeat comment, and the
     * anti-buffering headers.
     */
    private void theStreamStartsWithRetryAndKeepsProxiesFromBuffering() throws Exception {
        HttpRequest req = HttpRequest.newBuilder(streamUri("all")).header("Accept", "text/event-stream").build();
        HttpResponse<java.io.InputStream> r = HTTP.send(req, HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
            assertThat(r.headers().firstValue("Cache-Control").orElse("")).contains("no-cache");
            assertThat(r.headers().firstValue("X-Accel-Buffering")).hasValue("no");
            assertThat(in.readLine()).isEqualTo("retry: 300");
            assertThat(in.readLine()).isEmpty();
            String id = in.readLine();
            assertThat(id).startsWith("id: ");
            assertThat(LogPosition.parse(id.substring(4)).partitionLimit()).isEqualTo(3);
            assertThat(in.readLine()).isEqualTo("event: ready");
            assertThat(in.readLine()).isEqualTo("data: {}");
            assertThat(in.readLine()).isEmpty();
            // Nothing is published now: the next line is a heartbeat comment (every
            // second here).
            assertThat(in.readLine()).isEqualTo(": keep-alive");
        }
    }

    /**
     * Clients that go away are cleaned up: the open streams and subscriptions fall back
     * to where they were.
     */
    private void disconnectedClientsAreForgotten() throws Exception {
        SseStreams streams = api.getBean(SseStreams.class);
        ReadLog readLog = api.getBean(ReadLog.class);
        // the shared answers follow the log too (io.chainfeed.api.answers.SharedAnswers)
        int own = 1;
        await().atMost(Duration.ofSeconds(10))
            .until(() -> streams.connections() == 0 && readLog.liveSubscribers() == own);
        List<java.io.InputStream> open = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            HttpRequest req = HttpRequest.newBuilder(streamUri(i % 2 == 0 ? "all" : MEMORY)).build();
            open.add(HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(req, HttpResponse.BodyHandlers.ofInputStream())
                .body());
        }
        await().atMost(Duration.ofSeconds(10))
            .until(() -> streams.connections() == 40 && readLog.liveSubscribers() == 40 + own);
        for (java.io.InputStream in : open) {
            in.close();
        }
        // The next heartbeat (1 s here) finds them gone.
        await().atMost(Duration.ofSeconds(15))
            .until(() -> streams.connections() == 0 && readLog.liveSubscribers() == own);
    }

}
