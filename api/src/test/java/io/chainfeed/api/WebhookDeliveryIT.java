package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.SampleRecords;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.TopicProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;

/**
 * Webhooks end to end on a real Kafka broker: the API (started, stopped and started again
 * in this test) delivers reads published on {@code chainfeed.reads.v1} (three partitions)
 * to a real HTTP receiver on loopback (the JDK's server). The receiver checks every
 * signature with its own HMAC-SHA256 code (not the sender's library), fails the first
 * attempts (500, then 429 with {@code Retry-After}), answers {@code 410} on another
 * endpoint and {@code 500} for good on a third, and records each {@code webhook-id} it
 * accepted, so a second delivery after success is caught. Elasticsearch is not needed:
 * webhooks read only Kafka (its URI points at a closed port).
 */
@EmbeddedKafka(kraft = true, partitions = 1)
class WebhookDeliveryIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String ADMIN_KEY = "admin-" + java.util.UUID.randomUUID();

    private static final String MASTER_KEY;

    static {
        byte[] k = new byte[32];
        new SecureRandom().nextBytes(k);
        MASTER_KEY = Base64.getEncoder().encodeToString(k);
    }

    /** One request the receiver got, with what it answered. */
    record Hit(String path, String webhookId, long timestamp, String signature, String body, int answered,
            long atNanos) {
    }

    private static HttpServer receiver;

    private static final List<Hit> hits = Collections.synchronizedList(new ArrayList<>());

    private static final Map<String, IntSupplier> scripts = new ConcurrentHashMap<>();

    private static final Set<String> succeeded = ConcurrentHashMap.newKeySet();

    private static final List<String> violations = Collections.synchronizedList(new ArrayList<>());

    /** Secrets the receiver trusts per path, as the owner would configure them. */
    private static final Map<String, List<String>> secrets = new ConcurrentHashMap<>();

    private static String bootstrap;

    private static ConfigurableApplicationContext api;

    private static int apiPort;

    private static KafkaProducer<String, byte[]> producer;

    private static final AvroSerde<Read> READS = AvroSerde.of(Read.class);

    @BeforeAll
    static void start(EmbeddedKafkaBroker broker) throws Exception {
        bootstrap = broker.getBrokersAsString();
        TopicSetup.ensure(bootstrap, Topics.all(3), (short) 1);
        producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new StringSerializer(), new ByteArraySerializer());
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hooks/", WebhookDeliveryIT::receive);
        receiver.start();
        api = startApi();
    }

    @AfterAll
    static void stop() {
        if (api != null) {
            api.close();
        }
        if (receiver != null) {
            receiver.stop(0);
        }
        if (producer != null) {
            producer.close();
        }
    }

    private static ConfigurableApplicationContext startApi() {
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(ApiApplication.class).run("--server.port=0",
                "--spring.kafka.bootstrap-servers=" + bootstrap, "--spring.elasticsearch.uris=http://127.0.0.1:9",
                "--chainfeed.api.admin-key-hashes=" + HashedKeys.hash(ADMIN_KEY),
                "--chainfeed.webhooks.master-key=" + MASTER_KEY, "--chainfeed.webhooks.allow-loopback=true",
                "--chainfeed.webhooks.max-attempts=4", "--chainfeed.webhooks.initial-delay=200ms",
                "--chainfeed.webhooks.multiplier=2", "--chainfeed.webhooks.max-delay=1s",
                "--chainfeed.webhooks.max-retry-after=5s",
                // so that the subscription whose endpoint keeps answering 500 shows as
                // failing in this test
                "--chainfeed.webhooks.failing-after=1s",
                // small, so the burst below overflows it and the paused subscription is
                // replayed from Kafka
                "--chainfeed.webhooks.queue-capacity=16",
                "--logging.level.io.chainfeed.api.webhook.SubscriptionWorker=DEBUG", "--spring.jmx.enabled=false");
        apiPort = ((WebServerApplicationContext) ctx).getWebServer().getPort();
        return ctx;
    }

    /** The receiver: verifies, answers from the path's script, records. */
    private static void receive(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        String ts = exchange.getRequestHeaders().getFirst("webhook-timestamp");
        String sig = exchange.getRequestHeaders().getFirst("webhook-signature");
        long timestamp = ts == null ? -1 : Long.parseLong(ts);
        if (!verifies(secrets.getOrDefault(path, List.of()), id, timestamp, body, sig)) {
            violations.add("bad signature on " + path + " " + id);
        }
        if (Math.abs(Instant.now().getEpochSecond() - timestamp) > 300) {
            violations.add("timestamp out of tolerance: " + ts);
        }
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.startsWith("application/json")) {
            violations.add("content type " + exchange.getRequestHeaders().getFirst("Content-Type"));
        }
        if (succeeded.contains(id)) {
            violations.add("delivered again after success: " + id);
        }
        int status = scripts.getOrDefault(path, () -> 204).getAsInt();
        if (status == 429) {
            exchange.getResponseHeaders().add("Retry-After", "1");
        }
        if (status >= 200 && status < 300) {
            succeeded.add(id);
        }
        hits.add(new Hit(path, id, timestamp, sig, body, status, System.nanoTime()));
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    /**
     * Standard Webhooks verification written here from the specification, independent of
     * the sender's library: HMAC-SHA256 keyed with the base64 after {@code whsec_}, over
     * {@code id.timestamp.body}, base64, compared in constant time with each {@code v1,}
     * entry of the space-separated header.
     */
    static boolean verifies(List<String> trusted, String id, long timestamp, String body, String header) {
        if (id == null || header == null || trusted.isEmpty()) {
            return false;
        }
        try {
            for (String secret : trusted) {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())),
                        "HmacSHA256"));
                byte[] expected = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
                for (String entry : header.split(" ")) {
                    if (entry.startsWith("v1,")
                            && MessageDigest.isEqual(expected, Base64.getDecoder().decode(entry.substring(3)))) {
                        return true;
                    }
                }
            }
            return false;
        }
        catch (Exception e) {
            return false;
        }
    }

    private static String hookUrl(String name) {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks/" + name;
    }

    private static HttpResponse<String> call(String method, String path, String token, String json) throws Exception {
        return ApiCalls.call("http://127.0.0.1:" + apiPort, method, path, token, json);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(HttpResponse<String> r) throws Exception {
        return JSON.readValue(r.body(), Map.class);
    }

    private static String issueKey(String kind, String label) throws Exception {
        return issueKey(kind, label, 6000);
    }

    private static String issueKey(String kind, String label, int ratePerMinute) throws Exception {
        String body = "{\"kind\":\"" + kind + "\",\"label\":\"" + label + "\",\"ratePerMinute\":" + ratePerMinute
                + ("PARTNER".equals(kind) ? ",\"allowedOrigins\":[\"https://partner.example\"]" : "") + "}";
        HttpResponse<String> r = call("POST", "/api/v1/admin/keys", ADMIN_KEY, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return (String) json(r).get("token");
    }

    private static Map<String, Object> subscribe(String token, String topic, String hook) throws Exception {
        HttpResponse<String> r = call("POST", "/api/v1/subscriptions", token,
                JSON.writeValueAsString(Map.of("topic", topic, "url", hookUrl(hook), "description", "IT " + hook)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        Map<String, Object> sub = json(r);
        secrets.computeIfAbsent("/hooks/" + hook, k -> new java.util.concurrent.CopyOnWriteArrayList<>())
            .add((String) sub.get("secret"));
        return sub;
    }

    private static void publish(String id, long version, String layer) throws Exception {
        producer.send(new ProducerRecord<>(Topics.READS, id, READS.serialize(Topics.READS, read(id, version, layer))))
            .get(10, TimeUnit.SECONDS);
    }

    private static Read read(String id, long version, String layer) {
        return SampleRecords.read(id, ReadKind.TERM, "Webhook test read " + id, "A read for the webhook test.")
            .setDisclaimer("research, not advice")
            .setVersion(version)
            .setUpdatedAt(Instant.now())
            .setLayers(List
                .of(LayerTag.newBuilder().setId(layer).setName(layer).setConfidence(1.0).setPrimary(true).build()))
            .build();
    }

    private static List<Hit> hitsOn(String hook) {
        synchronized (hits) {
            return hits.stream().filter(h -> h.path().equals("/hooks/" + hook)).toList();
        }
    }

    @SuppressWarnings("unchecked")
    private static String readId(Hit h) {
        try {
            Map<String, Object> body = JSON.readValue(h.body(), Map.class);
            return (String) ((Map<String, Object>) body.get("data")).get("id");
        }
        catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void deliversSignedWebhooksWithRetriesAndResumesAfterARestart() throws Exception {
        String owner = issueKey("READER", "webhook owner");
        String stranger = issueKey("READER", "someone else");
        String partner = issueKey("PARTNER", "widget site");

        // Refusals: no key, a partner key, a bad selector, private targets, a non-http
        // URL.
        assertThat(call("GET", "/api/v1/subscriptions", null, null).statusCode()).isEqualTo(401);
        assertThat(call("GET", "/api/v1/subscriptions", partner, null).statusCode()).isEqualTo(403);
        HttpResponse<String> badTopic = call("POST", "/api/v1/subscriptions", owner,
                "{\"topic\":\"layer:memory AND (\",\"url\":\"" + hookUrl("a") + "\"}");
        assertThat(badTopic.statusCode()).isEqualTo(400);
        assertThat(badTopic.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
        assertThat((String) json(badTopic).get("type")).endsWith("/invalid-selector");
        for (String url : List.of("http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data/",
                "http://[fd00::1]/hook", "http://[::ffff:192.168.1.1]/", "http://2130706433/", "ftp://example.com/",
                "http://user:pw@127.0.0.1/")) {
            HttpResponse<String> r = call("POST", "/api/v1/subscriptions", owner,
                    JSON.writeValueAsString(Map.of("topic", "all", "url", url)));
            assertThat(r.statusCode()).as(url).isEqualTo(400);
            assertThat((String) json(r).get("type")).as(url).endsWith("/invalid-target-url");
        }

        Map<String, Object> a = subscribe(owner, "layer:memory", "a");
        String aId = (String) a.get("id");
        assertThat(a.get("secret")).asString().matches("whsec_[A-Za-z0-9+/]{43}=");
        assertThat(a.get("topic")).isEqualTo("layer:memory");
        Map<String, Object> gone = subscribe(owner, "layer:memory", "gone");
        Map<String, Object> failing = subscribe(owner, "layer:memory AND NOT term:wh-late", "fail");
        scripts.put("/hooks/gone", () -> 410);
        scripts.put("/hooks/fail", () -> 500);
        // a: 500, then 429 with Retry-After: 1, then 2xx
        java.util.concurrent.atomic.AtomicInteger aCalls = new java.util.concurrent.atomic.AtomicInteger();
        scripts.put("/hooks/a", () -> switch (aCalls.incrementAndGet()) {
            case 1 -> 500;
            case 2 -> 429;
            default -> 200;
        });

        // Owner isolation: another key sees nothing of them.
        assertThat(call("GET", "/api/v1/subscriptions/" + aId, stranger, null).statusCode()).isEqualTo(404);
        assertThat(call("DELETE", "/api/v1/subscriptions/" + aId, stranger, null).statusCode()).isEqualTo(404);
        assertThat(call("POST", "/api/v1/subscriptions/" + aId + "/secret", stranger, null).statusCode())
            .isEqualTo(404);
        assertThat(call("POST", "/api/v1/subscriptions/" + aId + "/recover", stranger, null).statusCode())
            .isEqualTo(404);
        assertThat((List<Object>) json(call("GET", "/api/v1/subscriptions", stranger, null)).get("subscriptions"))
            .isEmpty();
        List<Map<String, Object>> mine = (List<Map<String, Object>>) json(
                call("GET", "/api/v1/subscriptions", owner, null))
            .get("subscriptions");
        assertThat(mine).extracting(m -> m.get("id")).containsExactly(aId, gone.get("id"), failing.get("id"));
        assertThat(mine).allSatisfy(m -> assertThat(m).doesNotContainKey("secret"));

        // Reads published after the subscriptions were made.
        publish("term:wh-mem-1", 1, "memory");
        publish("term:wh-fabric-1", 1, "network-fabric");
        publish("term:wh-mem-2", 1, "memory");
        publish("term:wh-mem-3", 1, "memory");

        await().atMost(Duration.ofSeconds(60))
            .until(() -> hitsOn("a").stream().filter(h -> h.answered() == 200).count() == 3);
        List<Hit> aHits = hitsOn("a");
        assertThat(aHits).hasSize(5);
        assertThat(aHits.subList(0, 3)).extracting(Hit::answered).containsExactly(500, 429, 200);
        assertThat(aHits.subList(0, 3)).extracting(Hit::webhookId).containsOnly(aHits.get(0).webhookId());
        assertThat(aHits.get(2).atNanos() - aHits.get(1).atNanos()).as("Retry-After: 1 honoured")
            .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(990));
        assertThat(aHits.stream().map(WebhookDeliveryIT::readId).distinct().toList())
            .containsExactlyInAnyOrder("term:wh-mem-1", "term:wh-mem-2", "term:wh-mem-3");
        Map<String, Object> first = JSON.readValue(aHits.get(2).body(), Map.class);
        assertThat(first.get("type")).isEqualTo("read.published");
        assertThat(first.get("timestamp")).asString().matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat((Map<String, Object>) first.get("data")).containsEntry("version", 1)
            .containsEntry("disclaimer", "research, not advice");

        // 410 disables "gone" after one request; "fail" is dead-lettered after its 4
        // attempts and moves on.
        await().atMost(Duration.ofSeconds(30))
            .until(() -> "disabled"
                .equals(json(call("GET", "/api/v1/subscriptions/" + gone.get("id"), owner, null)).get("status")));
        Map<String, Object> goneView = json(call("GET", "/api/v1/subscriptions/" + gone.get("id"), owner, null));
        assertThat(goneView.get("statusReason")).isEqualTo("the endpoint answered 410 Gone");
        assertThat(hitsOn("gone")).hasSize(1);
        await().atMost(Duration.ofSeconds(60)).until(() -> hitsOn("fail").size() == 12);
        List<TopicProbe.Rec<byte[]>> dead = readAll(Topics.WEBHOOK_DELIVERIES_DLQ, 3);
        assertThat(dead).hasSize(3).allSatisfy(r -> {
            assertThat(r.key()).isEqualTo(failing.get("id"));
            assertThat(r.header(Topics.DLQ_REASON_HEADER))
                .isEqualTo("gave up after 4 attempts; last: the endpoint answered 500");
            assertThat(r.header(Topics.DLQ_ORIGIN_HEADER)).startsWith("chainfeed.reads.v1-");
            assertThat(r.header("webhook-id")).startsWith("msg_");
        });

        // Delivery state is visible to the owner.
        Map<String, Object> aView = json(call("GET", "/api/v1/subscriptions/" + aId, owner, null));
        Map<String, Object> delivery = (Map<String, Object>) aView.get("delivery");
        assertThat(delivery).containsEntry("delivered", 3)
            .containsEntry("consecutiveFailures", 0)
            .containsEntry("lastStatus", 200)
            .doesNotContainKey("pendingWebhookId");
        assertThat((Map<String, Object>) delivery.get("position")).containsOnlyKeys("0", "1", "2");
        Map<String, Object> failView = (Map<String, Object>) json(
                call("GET", "/api/v1/subscriptions/" + failing.get("id"), owner, null))
            .get("delivery");
        assertThat(failView).containsEntry("deadLettered", 3)
            .containsEntry("delivered", 0)
            .containsEntry("lastStatus", 500)
            .containsEntry("consecutiveFailures", 12);
        assertThat(failView.get("failingSince")).isNotNull();
        Map<String, Object> failSub = json(call("GET", "/api/v1/subscriptions/" + failing.get("id"), owner, null));
        assertThat(failSub.get("status")).as("no 2xx for longer than failing-after").isEqualTo("failing");
        assertThat(failSub.get("statusReason")).asString().startsWith("no 2xx since ").endsWith("last: HTTP 500");
        assertThat(aView.get("status")).isEqualTo("active");
        assertThat(delivery).doesNotContainKey("failingSince");

        // Recover: the owner's call is taken (202), a disabled subscription's refused
        // (409).
        HttpResponse<String> recover = call("POST", "/api/v1/subscriptions/" + failing.get("id") + "/recover", owner,
                null);
        assertThat(recover.statusCode()).as(recover.body()).isEqualTo(202);
        assertThat(json(recover).get("recoverRequestedAt")).isNotNull();
        assertThat(call("POST", "/api/v1/subscriptions/" + gone.get("id") + "/recover", owner, null).statusCode())
            .isEqualTo(409);

        // Rotate a's secret: the next webhooks carry two signatures, each verifiable on
        // its own.
        HttpResponse<String> rotated = call("POST", "/api/v1/subscriptions/" + aId + "/secret", owner, null);
        assertThat(rotated.statusCode()).isEqualTo(200);
        String oldSecret = (String) a.get("secret");
        String newSecret = (String) json(rotated).get("secret");
        assertThat(newSecret).startsWith("whsec_").isNotEqualTo(oldSecret);
        secrets.get("/hooks/a").add(newSecret);
        publish("term:wh-mem-4", 1, "memory");
        await().atMost(Duration.ofSeconds(30)).until(() -> hitsOn("a").size() == 6);
        Hit afterRotation = hitsOn("a").get(5);
        assertThat(afterRotation.signature().split(" ")).hasSize(2);
        assertThat(verifies(List.of(newSecret), afterRotation.webhookId(), afterRotation.timestamp(),
                afterRotation.body(), afterRotation.signature()))
            .isTrue();
        assertThat(verifies(List.of(oldSecret), afterRotation.webhookId(), afterRotation.timestamp(),
                afterRotation.body(), afterRotation.signature()))
            .isTrue();

        // Secrets are stored sealed: neither one appears in the subscriptions topic.
        for (TopicProbe.Rec<byte[]> r : readAll(Topics.WEBHOOK_SUBSCRIPTIONS, 1)) {
            String raw = new String(r.value() == null ? new byte[0] : r.value(), StandardCharsets.ISO_8859_1);
            for (String s : List.of(oldSecret, newSecret)) {
                byte[] key = Base64.getDecoder().decode(s.substring(6));
                assertThat(raw).doesNotContain(s.substring(6))
                    .doesNotContain(new String(key, StandardCharsets.ISO_8859_1));
            }
        }

        // Restart the API; reads published while it is down are delivered after, nothing
        // twice.
        api.close();
        api = null;
        publish("term:wh-mem-5", 1, "memory");
        publish("term:wh-mem-1", 2, "memory");
        api = startApi();
        await().atMost(Duration.ofSeconds(90)).until(() -> hitsOn("a").size() == 8);
        List<Hit> all = hitsOn("a");
        assertThat(all.subList(6, 8).stream().map(h -> readId(h) + " v" + versionOf(h)).toList())
            .containsExactlyInAnyOrder("term:wh-mem-5 v1", "term:wh-mem-1 v2");
        await().atMost(Duration.ofSeconds(10)).during(Duration.ofSeconds(2)).until(() -> hitsOn("a").size() == 8);
        assertThat(hitsOn("gone")).as("a disabled subscription stays disabled after the restart").hasSize(1);
        assertThat(all.stream().filter(h -> h.answered() == 200).map(Hit::webhookId).distinct().count()).isEqualTo(6);
        assertThat(violations).isEmpty();

        // A burst: 30 reads with 10 versions each, published as fast as Kafka takes them.
        // Each arrives once,
        // every read's versions in order, although the subscription's queue (16)
        // overflows on the way.
        int before = hitsOn("a").size();
        Map<String, Long> publishedAt = new ConcurrentHashMap<>();
        long t0 = System.nanoTime();
        for (int v = 1; v <= 10; v++) {
            for (int k = 0; k < 30; k++) {
                String id = "term:wh-burst-" + k;
                publishedAt.put(id + " v" + v, System.nanoTime());
                producer
                    .send(new ProducerRecord<>(Topics.READS, id, READS.serialize(Topics.READS, read(id, v, "memory"))));
            }
        }
        producer.flush();
        await().atMost(Duration.ofSeconds(120)).until(() -> hitsOn("a").size() == before + 300);
        List<Hit> burst = hitsOn("a").subList(before, before + 300);
        long elapsed = burst.get(burst.size() - 1).atNanos() - t0;
        Map<String, Integer> lastVersion = new HashMap<>();
        List<Long> latencies = new ArrayList<>();
        for (Hit h : burst) {
            Integer prev = lastVersion.put(readId(h), versionOf(h));
            assertThat(prev == null ? 0 : prev).as("versions of %s in order", readId(h)).isLessThan(versionOf(h));
            latencies.add(h.atNanos() - publishedAt.get(readId(h) + " v" + versionOf(h)));
        }
        assertThat(lastVersion).hasSize(30).allSatisfy((k, v) -> assertThat(v).isEqualTo(10));
        Collections.sort(latencies);
        System.out.printf("webhook burst: 300 webhooks in %d ms (%.0f/s); publish-to-receipt p50 %d ms, p99 %d ms%n",
                TimeUnit.NANOSECONDS.toMillis(elapsed), 300 / (elapsed / 1e9),
                TimeUnit.NANOSECONDS.toMillis(latencies.get(149)), TimeUnit.NANOSECONDS.toMillis(latencies.get(296)));
        assertThat(violations).isEmpty();

        // Delete: gone for the owner too, and no more deliveries.
        assertThat(call("DELETE", "/api/v1/subscriptions/" + aId, owner, null).statusCode()).isEqualTo(204);
        assertThat(call("GET", "/api/v1/subscriptions/" + aId, owner, null).statusCode()).isEqualTo(404);
        int settled = hitsOn("a").size();
        publish("term:wh-mem-6", 1, "memory");
        await().atMost(Duration.ofSeconds(10))
            .during(Duration.ofMillis(1500))
            .until(() -> hitsOn("a").size() == settled);
    }

    /**
     * Every subscription call counts against the READER key's rate per minute; over it, a
     * 429 problem.
     */
    @Test
    void subscriptionCallsAreLimitedToTheKeysRatePerMinute() throws Exception {
        String slow = issueKey("READER", "slow reader", 3);
        String other = issueKey("READER", "another reader", 3);
        assertThat(call("GET", "/api/v1/subscriptions", slow, null).statusCode()).isEqualTo(200);
        assertThat(call("GET", "/api/v1/subscriptions/sub_unknown", slow, null).statusCode()).isEqualTo(404);
        assertThat(call("DELETE", "/api/v1/subscriptions/sub_unknown", slow, null).statusCode()).isEqualTo(404);
        // The fourth call in the minute: refused before its body is looked at (this topic
        // would be a 400).
        HttpResponse<String> limited = call("POST", "/api/v1/subscriptions", slow,
                "{\"topic\":\"layer:memory AND (\",\"url\":\"" + hookUrl("never") + "\"}");
        assertThat(limited.statusCode()).as(limited.body()).isEqualTo(429);
        assertThat(limited.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
        assertThat((String) json(limited).get("type")).endsWith("/too-many-requests");
        assertThat((Integer) json(limited).get("status")).isEqualTo(429);
        assertThat((String) json(limited).get("detail")).startsWith("this key allows 3 requests a minute");
        // one token every 20 s at 3 a minute
        assertThat(Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 20L);
        assertThat(call("GET", "/api/v1/subscriptions", slow, null).statusCode()).isEqualTo(429);
        assertThat(call("GET", "/api/v1/subscriptions", other, null).statusCode()).as("each key has its own bucket")
            .isEqualTo(200);
    }

    @SuppressWarnings("unchecked")
    private static int versionOf(Hit h) {
        try {
            Map<String, Object> body = JSON.readValue(h.body(), Map.class);
            return ((Number) ((Map<String, Object>) body.get("data")).get("version")).intValue();
        }
        catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Reads a topic from the beginning until {@code atLeast} records are there, then to
     * its end (30 s at most).
     */
    private static List<TopicProbe.Rec<byte[]>> readAll(String topic, int atLeast) {
        try (TopicProbe<byte[]> probe = TopicProbe.bytes(bootstrap, topic)) {
            probe.atLeast(atLeast, Duration.ofSeconds(30));
            return probe.toEnd(Duration.ofSeconds(30));
        }
    }

}
