package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.devstack.LoopbackPorts;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.SampleRecords;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Value;

/**
 * Several api instances on one real Kafka broker and one real Elasticsearch: this test's
 * own api (the "front", {@code chainfeed.webhooks.deliver=false}: it never delivers) and
 * two more api processes started here from the test classpath ({@code b} and {@code c}),
 * which share the webhook deliveries through the delivery lease group. It proves that (1)
 * killing the process that delivers a subscription with {@code kill -9} moves the
 * subscription to the other within 30 s, every published read reaches every subscription,
 * and a read sent twice carries the same {@code webhook-id} both times; (2) one key's
 * calls spread over two instances are granted within the bound {@code KeyUsageExchange}
 * documents, far below what two independent buckets would grant. Figures are printed with
 * the prefix {@code [instances-it]}.
 */
@PipelineTest(properties = { "chainfeed.webhooks.deliver=false", "chainfeed.rate-limits.instance-id=front",
        "chainfeed.api.admin-key-hashes=" + ApiInstancesIT.ADMIN_HASH,
        "chainfeed.webhooks.master-key=" + ApiInstancesIT.MASTER_KEY, "chainfeed.webhooks.allow-loopback=true",
        "spring.jmx.enabled=false" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApiInstancesIT {

    static final String ADMIN_KEY = "admin-instances-it-0123456789abcdef";
    static final String ADMIN_HASH = "3f51882425628b7c1b5282d910b89e1c9e664a4f46b6d3ee893ac9e66f90bc36";

    /**
     * A fixed 32-byte test key (not a secret: it seals only this test's throwaway webhook
     * secrets).
     */
    static final String MASTER_KEY = "aW5zdGFuY2VzLWl0LW1hc3Rlci1rZXktMzItYnl0ZXM=";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final AvroSerde<Read> READS = AvroSerde.of(Read.class);

    private static final String LEASE_GROUP = "chainfeed-api-webhook-lease";

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("instances-it");

    /** One webhook the receiver accepted. */
    record Hit(String hook, String webhookId, String readId, long atMillis) {
    }

    private static final List<Hit> hits = Collections.synchronizedList(new ArrayList<>());

    private static final Map<String, Process> processes = new ConcurrentHashMap<>();

    /**
     * Ports the kernel hands out now: a fixed port can be taken by another IT's node or
     * client socket.
     */
    private static final Map<String, Integer> ports = Map.of("b", LoopbackPorts.free(), "c", LoopbackPorts.free());

    private static HttpServer receiver;

    @Value("${local.server.port}")
    int frontPort;

    @AfterAll
    static void stop() {
        processes.values().forEach(Process::destroyForcibly);
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    @Test
    @Order(1)
    void oneKeysRateHoldsAcrossTwoInstances() throws Exception {
        assertThat(HashedKeys.hash(ADMIN_KEY)).as("ADMIN_HASH must be the hash of ADMIN_KEY").isEqualTo(ADMIN_HASH);
        pipeline.start();
        startInstance("b");
        int rate = 60;
        String key = issueKey("READER", "rate across instances", rate);
        String b = "http://127.0.0.1:" + ports.get("b");
        String front = "http://127.0.0.1:" + frontPort;
        // The key reaches instance b through the keys topic; this call takes one token,
        // counted below.
        long start = System.nanoTime();
        await().atMost(Duration.ofSeconds(30))
            .until(() -> call(b, "GET", "/api/v1/subscriptions", key, null).statusCode() == 200);
        int granted = 1;
        int refused = 0;
        int calls = 200;
        // 20 calls a second, alternating: 10 a second each
        long pace = TimeUnit.MILLISECONDS.toNanos(50);
        HttpResponse<String> lastRefusal = null;
        for (int i = 0; i < calls; i++) {
            long due = start + (i + 1) * pace;
            long now = System.nanoTime();
            if (due > now) {
                // pacing the load, not waiting on state
                TimeUnit.NANOSECONDS.sleep(due - now);
            }
            HttpResponse<String> r = call(i % 2 == 0 ? front : b, "GET", "/api/v1/subscriptions", key, null);
            if (r.statusCode() == 200) {
                granted++;
            }
            else {
                assertThat(r.statusCode()).as(r.body()).isEqualTo(429);
                refused++;
                lastRefusal = r;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // The documented bound: r + r*T/60 + (N-1)*G, G = refill in D plus the calls one
        // instance gets in D,
        // with D = the sync interval (250 ms) plus up to 1 s of Kafka latency on this
        // loaded machine.
        double d = 1.25;
        double g = rate * d / 60 + 10 * d;
        double bound = rate + rate * seconds / 60 + g;
        double independent = 2 * (rate + rate * seconds / 60);
        System.out.printf(
                "[instances-it] rate limit: %d calls over %.1f s on 2 instances at %d/min: granted %d,"
                        + " refused %d; one bucket would grant %.0f, the documented bound is %.0f, two unshared buckets"
                        + " would grant up to %.0f%n",
                calls + 1, seconds, rate, granted, refused, rate + rate * seconds / 60, bound, independent);
        assertThat(granted).isLessThanOrEqualTo((int) Math.floor(bound)).isGreaterThanOrEqualTo(rate);
        assertThat(lastRefusal).isNotNull();
        assertThat(lastRefusal.headers().firstValue("Retry-After")).isPresent();
        assertThat(lastRefusal.headers().firstValue("Content-Type").orElse("")).contains("application/problem+json");
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void deliveriesMoveToTheOtherInstanceWithin30sOfAKill9() throws Exception {
        pipeline.start();
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hooks/", ApiInstancesIT::receive);
        receiver.start();
        startInstance("b");
        startInstance("c");
        String front = "http://127.0.0.1:" + frontPort;
        String owner = issueKey("READER", "webhook owner", 6000);
        List<String> subs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = call(front, "POST", "/api/v1/subscriptions", owner,
                    JSON.writeValueAsString(Map.of("topic", "layer:memory", "url",
                            "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks/s" + i)));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            subs.add((String) JSON.readValue(r.body(), Map.class).get("id"));
        }
        String watched = subs.get(0);
        int partition = Utils.toPositive(Utils.murmur2(watched.getBytes(StandardCharsets.UTF_8)))
                % Topics.WEBHOOK_LEASE_PARTITIONS;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.bootstrap()));
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, pipeline.bootstrap(),
                                ProducerConfig.ACKS_CONFIG, "all"),
                        new StringSerializer(), new ByteArraySerializer())) {
            // Both processes in the group, all 12 lease partitions assigned, the front
            // not among the members.
            await().atMost(Duration.ofSeconds(60))
                .until(() -> owners(admin).keySet().size() == 2 && owners(admin).values()
                    .stream()
                    .mapToInt(Set::size)
                    .sum() == Topics.WEBHOOK_LEASE_PARTITIONS);
            Map<String, Set<Integer>> owners = owners(admin);
            assertThat(owners.keySet()).containsExactlyInAnyOrder("b", "c");
            String victim = owners.entrySet()
                .stream()
                .filter(e -> e.getValue().contains(partition))
                .findFirst()
                .orElseThrow()
                .getKey();
            String survivor = victim.equals("b") ? "c" : "b";

            List<String> published = new ArrayList<>();
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < 120; i++) {
                        String id = "term:lease-" + i;
                        producer.send(new ProducerRecord<>(Topics.READS, id, READS.serialize(Topics.READS, read(id))))
                            .get(10, TimeUnit.SECONDS);
                        synchronized (published) {
                            published.add(id);
                        }
                        // a steady stream of 10 reads a second, for 12 s
                        Thread.sleep(100);
                    }
                }
                catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, "instances-it-writer");
            writer.start();
            // Mid-stream: the watched subscription has had some reads delivered, then its
            // owner dies.
            await().atMost(Duration.ofSeconds(60)).until(() -> hitsOn("s0").size() >= 20);
            long killedAt = System.currentTimeMillis();
            processes.remove(victim).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            writer.join(60_000);
            Set<String> all;
            synchronized (published) {
                all = Set.copyOf(published);
            }
            assertThat(all).hasSize(120);
            await().atMost(Duration.ofSeconds(90))
                .until(() -> java.util.stream.IntStream.range(0, subs.size())
                    .allMatch(i -> readIds(hitsOn("s" + i)).containsAll(all)));
            long firstAfter = hitsOn("s0").stream()
                .mapToLong(Hit::atMillis)
                .filter(t -> t > killedAt + 1000)
                .min()
                .orElseThrow();
            long failoverMs = firstAfter - killedAt;
            assertThat(owners(admin).keySet()).containsExactly(survivor);

            // The ledger: every read once per subscription, re-sends only under the first
            // webhook-id.
            int resent = 0;
            for (int i = 0; i < subs.size(); i++) {
                Map<String, Set<String>> idsPerRead = new TreeMap<>();
                List<Hit> on = hitsOn("s" + i);
                for (Hit h : on) {
                    idsPerRead.computeIfAbsent(h.readId(), k -> new HashSet<>()).add(h.webhookId());
                }
                assertThat(idsPerRead.keySet()).containsAll(all);
                assertThat(idsPerRead.values()).as("one webhook-id per read").allSatisfy(s -> assertThat(s).hasSize(1));
                resent += on.size() - idsPerRead.size();
            }
            System.out.printf("[instances-it] webhook failover: killed %s (kill -9) owning partition %d of %s;"
                    + " first delivery from %s %d ms later; %d subscriptions x %d reads all delivered; %d re-sends,"
                    + " all under the first webhook-id%n", victim, partition, watched, survivor, failoverMs,
                    subs.size(), all.size(), resent);
            assertThat(failoverMs).isLessThan(30_000);
        }
    }

    /**
     * @return lease group members by instance id, with their lease partitions
     */
    private static Map<String, Set<Integer>> owners(Admin admin) throws Exception {
        ConsumerGroupDescription g = admin.describeConsumerGroups(List.of(LEASE_GROUP))
            .all()
            .get(10, TimeUnit.SECONDS)
            .get(LEASE_GROUP);
        Map<String, Set<Integer>> out = new HashMap<>();
        for (MemberDescription m : g.members()) {
            Set<Integer> parts = new HashSet<>();
            for (TopicPartition tp : m.assignment().topicPartitions()) {
                parts.add(tp.partition());
            }
            out.put(m.clientId().substring("chainfeed-api-webhook-lease-".length()), parts);
        }
        return out;
    }

    /**
     * Starts an api process (idempotent) from this JVM's classpath and waits until it
     * answers health.
     */
    private static void startInstance(String name) throws Exception {
        if (processes.containsKey(name)) {
            return;
        }
        int port = ports.get(name);
        Path log = Path.of("target", "instances-it-" + name + ".log");
        Files.createDirectories(log.getParent());
        List<String> cmd = List.of(ProcessHandle.current().info().command().orElse("java"), "-Xmx256m",
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                ApiApplication.class.getName(), "--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.kafka.bootstrap-servers=" + pipeline.bootstrap(),
                "--spring.elasticsearch.uris=" + pipeline.esUri(), "--spring.jmx.enabled=false",
                "--chainfeed.api.admin-key-hashes=" + ADMIN_HASH, "--chainfeed.webhooks.master-key=" + MASTER_KEY,
                "--chainfeed.webhooks.allow-loopback=true", "--chainfeed.webhooks.instance-id=" + name,
                "--chainfeed.webhooks.request-timeout=5s", "--chainfeed.rate-limits.instance-id=" + name);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.put(name, p);
        try {
            await().atMost(Duration.ofSeconds(150))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsMatching(e -> !(e instanceof IllegalStateException))
                .until(() -> {
                    if (!p.isAlive()) {
                        throw new IllegalStateException("exited with code " + p.exitValue());
                    }
                    return call("http://127.0.0.1:" + port, "GET", "/actuator/health", null, null).statusCode() == 200;
                });
        }
        catch (ConditionTimeoutException | IllegalStateException e) {
            throw new AssertionError("api instance " + name + " on port " + port + " not healthy (alive: " + p.isAlive()
                    + "); the end of " + log + ":\n" + tail(log, 40), e);
        }
    }

    /**
     * @return the last {@code lines} lines of a log file, or why it could not be read
     */
    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
        catch (IOException | RuntimeException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static void receive(HttpExchange exchange) throws IOException {
        String hook = exchange.getRequestURI().getPath().substring("/hooks/".length());
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String readId;
        try {
            readId = (String) ((Map<?, ?>) JSON.readValue(body, Map.class).get("data")).get("id");
        }
        catch (IOException | RuntimeException e) {
            readId = "undecodable";
        }
        hits.add(
                new Hit(hook, exchange.getRequestHeaders().getFirst("webhook-id"), readId, System.currentTimeMillis()));
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
    }

    private static List<Hit> hitsOn(String hook) {
        synchronized (hits) {
            return hits.stream().filter(h -> h.hook().equals(hook)).toList();
        }
    }

    private static Set<String> readIds(List<Hit> on) {
        Set<String> ids = new HashSet<>();
        on.forEach(h -> ids.add(h.readId()));
        return ids;
    }

    private static Read read(String id) {
        return SampleRecords.read(id, ReadKind.TERM, "Lease test read " + id, "A read for the delivery lease test.")
            .setDisclaimer("research, not advice")
            .setVersion(1)
            .setUpdatedAt(Instant.now())
            .setLayers(List.of(LayerTag.newBuilder()
                .setId("memory")
                .setName("memory")
                .setConfidence(1.0)
                .setPrimary(true)
                .build()))
            .build();
    }

    private String issueKey(String kind, String label, int ratePerMinute) throws Exception {
        HttpResponse<String> r = call("http://127.0.0.1:" + frontPort, "POST", "/api/v1/admin/keys", ADMIN_KEY,
                "{\"kind\":\"" + kind + "\",\"label\":\"" + label + "\",\"ratePerMinute\":" + ratePerMinute + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return (String) JSON.readValue(r.body(), Map.class).get("token");
    }

    private static HttpResponse<String> call(String base, String method, String path, String token, String json)
            throws Exception {
        return ApiCalls.call(base, method, path, token, json);
    }

}
