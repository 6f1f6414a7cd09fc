package io.chainfeed.ingest.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chainfeed.devstack.KafkaNode;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Ingest against a real Kafka broker process that the test freezes (SIGSTOP/SIGCONT) and
 * poisons.
 *
 * <ul>
 * <li>Broker frozen 20 s while editors keep posting signals: every POST answers within 6
 * s (deadline 5 s); afterwards every signal answered 2xx is in {@value Topics#SIGNALS}
 * ({@code read_committed}) exactly once, and none answered 503 is.</li>
 * <li>Poison (random bytes) and empty records on every topic the ingest ledger reads: the
 * next page POST is published, and each poison record is in its dead-letter topic with
 * origin and reason.</li>
 * <li>A page whose record is over the topic's {@code max.message.bytes} (set on the
 * topic, read from the broker): 413 naming the limit, nothing published.</li>
 * </ul>
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        // the SHA-256 of "it-editor-key"
        "chainfeed.ingest.editor-key-hashes=2f91bc73466d7ce61751e22895c84505ecdca44f2e3ed7e60ef2da79f9149dc5",
        "chainfeed.kafka.partitions=1", "chainfeed.ingest.deadline=5s", "chainfeed.ingest.producers=2" })
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class IngestFaultIT {

    private static final Logger LOG = LoggerFactory.getLogger(IngestFaultIT.class);

    /** The topic's own limit, far below the broker default, so a page can exceed it. */
    private static final int TERMS_MAX_MESSAGE_BYTES = 200_000;

    private static KafkaNode kafka;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @DynamicPropertySource
    static void kafka(DynamicPropertyRegistry registry) throws Exception {
        Path lib = Path.of(System.getProperty("chainfeed.kafka.lib"));
        kafka = KafkaNode.builder(lib, Path.of("target", "it-run", "ingest-fault-kafka").toAbsolutePath())
            .port(0)
            .controllerPort(0)
            .build()
            .start();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin
                .createTopics(List.of(new NewTopic(Topics.TERMS, 1, (short) 1).configs(Map.of("cleanup.policy",
                        "compact", "max.message.bytes", Integer.toString(TERMS_MAX_MESSAGE_BYTES)))))
                .all()
                .get(30, TimeUnit.SECONDS);
        }
        registry.add("spring.kafka.bootstrap-servers", kafka::bootstrapServers);
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.processHandle().ifPresent(p -> signal("CONT", p.pid()));
            kafka.close();
        }
    }

    private record Answer(String id, int status, long millis) {
    }

    private Answer postSignal(String id) {
        String body = """
                {"id": "%s", "headline": "HBM allocation sold out", "layers": ["HBM"], "direction": "tightening",
                 "magnitude": 4, "observedAt": "2026-03-01T00:30:00Z",
                 "source": {"name": "Example", "url": "https://example.com/%s"}}""".formatted(id, id);
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ingest/v1/signals"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer it-editor-key")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
        long start = System.nanoTime();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(id, r.statusCode(), (System.nanoTime() - start) / 1_000_000);
        }
        catch (IOException | InterruptedException e) {
            return new Answer(id, -1, (System.nanoTime() - start) / 1_000_000);
        }
    }

    private HttpResponse<String> postPage(String page) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ingest/v1/pages"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "text/plain")
            .POST(HttpRequest.BodyPublishers.ofString(page))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void signal(String name, long pid) {
        try {
            Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aFrozenBrokerGetsBoundedTruthfulAnswers() throws Exception {
        assertThat(postSignal("warm-up").status()).isEqualTo(202);
        long pid = kafka.processHandle().orElseThrow().pid();
        List<Answer> answers = new CopyOnWriteArrayList<>();
        AtomicBoolean posting = new AtomicBoolean(true);
        AtomicInteger next = new AtomicInteger();
        ExecutorService posters = Executors.newFixedThreadPool(3);
        for (int t = 0; t < 3; t++) {
            posters.execute(() -> {
                while (posting.get()) {
                    answers.add(postSignal("freeze-" + next.incrementAndGet()));
                    try {
                        Thread.sleep(100);
                    }
                    catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }
        await().atMost(Duration.ofSeconds(30))
            .until(() -> answers.stream().filter(a -> a.status() == 202).count() >= 5);
        long frozenAt = System.nanoTime();
        signal("STOP", pid);
        int before = answers.size();
        try {
            // The fault itself: the broker stays frozen for 20 s while the posters go on.
            Thread.sleep(20_000);
        }
        finally {
            signal("CONT", pid);
        }
        LOG.info("broker {} frozen for {} ms; {} answers during the freeze", pid,
                (System.nanoTime() - frozenAt) / 1_000_000, answers.size() - before);
        int resumedAt = answers.size();
        await().atMost(Duration.ofSeconds(60))
            .until(() -> answers.subList(resumedAt, answers.size())
                .stream()
                .filter(a -> a.status() == 202)
                .count() >= 3);
        posting.set(false);
        posters.shutdown();
        assertThat(posters.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        Map<Integer, Long> byStatus = new HashMap<>();
        answers.forEach(a -> byStatus.merge(a.status(), 1L, Long::sum));
        long slowest = answers.stream().mapToLong(Answer::millis).max().orElse(0);
        LOG.info("{} POSTs: by status {}, slowest {} ms", answers.size(), byStatus, slowest);
        assertThat(answers).allSatisfy(a -> {
            assertThat(a.millis()).as("answer time of %s", a.id()).isLessThanOrEqualTo(6_000);
            assertThat(a.status()).as("status of %s", a.id()).isIn(202, 503, 504);
        });
        assertThat(byStatus.getOrDefault(503, 0L)).as("the freeze was felt").isPositive();

        List<String> committed = answers.stream().filter(a -> a.status() == 202).map(Answer::id).toList();
        List<String> refused = answers.stream().filter(a -> a.status() == 503).map(Answer::id).toList();
        Map<String, Integer> seen = readCommittedSignals();
        assertThat(committed).allSatisfy(id -> assertThat(seen.get(id)).as("copies of 2xx %s", id).isEqualTo(1));
        assertThat(refused).allSatisfy(id -> assertThat(seen).as("503 %s", id).doesNotContainKey(id));
        answers.stream()
            .filter(a -> a.status() == 504)
            .forEach(a -> LOG.info("504 {}: {} copies visible", a.id(), seen.getOrDefault(a.id(), 0)));
    }

    /**
     * Reads the signals topic read_committed to its end, once no transaction is left open
     * on it.
     */
    private static Map<String, Integer> readCommittedSignals() {
        TopicPartition tp = new TopicPartition(Topics.SIGNALS, 0);
        Map<String, Integer> seen = new HashMap<>();
        try (KafkaConsumer<String, byte[]> committed = consumer("read_committed");
                KafkaConsumer<String, byte[]> uncommitted = consumer("read_uncommitted")) {
            // Open transactions (those of the replaced producers) are aborted once their
            // ids are fenced.
            await().atMost(Duration.ofSeconds(90))
                .until(() -> committed.endOffsets(List.of(tp))
                    .get(tp)
                    .equals(uncommitted.endOffsets(List.of(tp)).get(tp)));
            long end = committed.endOffsets(List.of(tp)).get(tp);
            committed.assign(List.of(tp));
            committed.seekToBeginning(List.of(tp));
            while (committed.position(tp) < end) {
                for (ConsumerRecord<String, byte[]> r : committed.poll(Duration.ofMillis(500))) {
                    seen.merge(r.key(), 1, Integer::sum);
                }
            }
        }
        return seen;
    }

    private static KafkaConsumer<String, byte[]> consumer(String isolation) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new StringDeserializer(), new ByteArrayDeserializer());
    }

    @Test
    void poisonOnTheLedgerTopicsBreaksNoRequest() throws Exception {
        Map<String, RecordMetadata> poison = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (String topic : List.of(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES)) {
                poison.put(
                        topic + " random", raw
                            .send(new ProducerRecord<>(topic, "poison".getBytes(),
                                    new byte[] { (byte) 0xC3, 0x01, 0x7F, 0x00, 0x2A }))
                            .get(10, TimeUnit.SECONDS));
                poison.put(topic + " empty", raw.send(new ProducerRecord<>(topic, "empty".getBytes(), new byte[0]))
                    .get(10, TimeUnit.SECONDS));
            }
        }
        HttpResponse<String> page = postPage(rdma());
        assertThat(page.statusCode()).as(page.body()).isIn(200, 202);

        Map<String, Map<String, String>> dead = new HashMap<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (String topic : List.of(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES)) {
                dead.putAll(deadLetters(Topics.dlqOf(topic)));
            }
            return poison.values().stream().allMatch(md -> dead.containsKey(origin(md)));
        });
        for (RecordMetadata md : poison.values()) {
            Map<String, String> headers = dead.get(origin(md));
            assertThat(headers).containsEntry(DeadLetters.READER_HEADER, "ingest-ledger")
                .containsEntry(DeadLetters.CATEGORY_HEADER, DeadLetters.Reason.UNDECODABLE.tag())
                .containsKey(Topics.DLQ_REASON_HEADER);
        }
    }

    @Test
    void aRecordOverTheTopicLimitIsA413NamingIt() throws Exception {
        // ~280 KB, under the 1 MiB body limit
        String filler = String.join(" ", Collections.nCopies(40_000, "fabric"));
        String big = rdma().replace("What it means\n\n", "What it means\n\n" + filler + "\n\n");
        HttpResponse<String> r = postPage(big);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
        assertThat(r.body()).contains("\"limit\":" + TERMS_MAX_MESSAGE_BYTES)
            .contains("max.message.bytes")
            .contains(Topics.TERMS);
    }

    private static String origin(RecordMetadata md) {
        return md.topic() + "/" + md.partition() + "@" + md.offset();
    }

    private static Map<String, Map<String, String>> deadLetters(String dlq) {
        Map<String, Map<String, String>> byOrigin = new HashMap<>();
        try (KafkaConsumer<String, byte[]> c = consumer("read_committed")) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(dlq).forEach(p -> parts.add(new TopicPartition(dlq, p.partition())));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(500))) {
                    Map<String, String> h = new HashMap<>();
                    for (Header header : r.headers()) {
                        h.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
                    }
                    byOrigin.put(h.get(Topics.DLQ_ORIGIN_HEADER), h);
                }
            }
        }
        return byOrigin;
    }

    private static String rdma() throws IOException {
        try (InputStream in = IngestFaultIT.class.getResourceAsStream("/it/rdma.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

}
