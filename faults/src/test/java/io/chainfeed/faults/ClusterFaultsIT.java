package io.chainfeed.faults;

import static io.chainfeed.faults.FaultReport.GIVE_UP_AFTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.devstack.ElasticsearchNode;
import io.chainfeed.devstack.KafkaNode;
import io.chainfeed.schemas.Topics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local cluster ({@code --cluster}: three KRaft brokers with replication factor 3 and
 * {@code min.insync.replicas=2}, three Elasticsearch nodes, two instances of each
 * service) under faults, against the real processes. A webhook receiver on loopback is
 * subscribed through the api, an SSE reader listens on each api instance, and 200
 * constraint signals are posted through both ingest instances. Once 50 are acknowledged
 * the broker leading partition 0 of the signals topic is killed with {@code kill -9},
 * once 90 are, the elected Elasticsearch master, once 120 are, streams-2, once 150 are,
 * api-2 (its SSE reader resumes with {@code Last-Event-ID} on the restarted instance).
 * The launcher's supervisors restart all four; nobody else does. A 503 is posted again
 * (nothing was published), and so is a 504 (unknown), with the same id, as a client
 * would; after the burst ten acknowledged signals are posted again (same ids and bodies,
 * as after a lost answer), which must change nothing.
 *
 * <p>
 * The ledger then finds every acknowledged signal exactly once in the reads topic
 * ({@code read_committed}) and in Elasticsearch, exactly once at each SSE reader, and
 * delivered to the webhook receiver (one {@code webhook-id} per read). Time travel
 * ({@code /api/v1/chain?asOf=}) answers 200 on both api instances before the faults and
 * at the end (and is asked of both every second through the faults: the answers are
 * counted), and both streams instances answer the chain query (one of them by forwarding
 * it to the owner of the stores).
 *
 * <p>
 * Not part of the default build (its cluster takes minutes to start on a small machine):
 * run it with {@code faults/cluster-fault-test.sh}. It writes its table to
 * {@code target/fault-report.md}; the measured table is in docs/cluster.md.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 45, unit = TimeUnit.MINUTES)
class ClusterFaultsIT {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterFaultsIT.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final int PORT_BASE = Integer.getInteger("chainfeed.fault.cluster.port-base", 25100);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private FaultStack cluster;

    private WebhookReceiver webhooks;

    private final List<SseSubscriber> readers = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        cluster = FaultStack.startCluster("cluster", PORT_BASE);
        LOG.info("cluster up in {} ms", cluster.lastStart().toMillis());
        webhooks = WebhookReceiver.start();
        String readerKey = cluster.adminKeys()
            .create("READER", "cluster fault drill", List.of(), 6000)
            .path("token")
            .asText();
        HttpResponse<String> created = webhooks.subscribe(http, cluster.api(), readerKey, "kind:signal",
                "cluster fault drill");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        for (String api : List.of("api-1", "api-2")) {
            readers.add(new SseSubscriber(cluster.stack().serviceUri(api), "kind:signal", "sse-" + api));
        }
        await().atMost(Duration.ofMinutes(3)).until(() -> readers.stream().allMatch(SseSubscriber::ready));
    }

    @AfterAll
    void stop() throws Exception {
        readers.forEach(SseSubscriber::close);
        FaultStack.closeInOrder(webhooks, cluster);
    }

    @Test
    void aBrokerAnElasticsearchNodeAndAStreamsInstanceKilledMidBurstLoseAndDuplicateNothing() throws Exception {
        assertThat(cluster.stack().kafkaNodes()).hasSize(3);
        assertThat(cluster.stack().elasticsearchNodes()).hasSize(3);
        for (String api : List.of("api-1", "api-2")) {
            assertThat(asOfStatus(api)).as("asOf on " + api + " before the faults").isEqualTo(200);
        }
        Ledger ledger = new Ledger();
        List<CompletableFuture<Void>> bursts = new ArrayList<>();
        List<BurstDriver> drivers = new ArrayList<>();
        for (String ingest : List.of("ingest-1", "ingest-2")) {
            // A 503 (nothing published) and a 504 (unknown) are posted again with the
            // same id, as a client does while a partition leader moves.
            BurstDriver driver = new BurstDriver(cluster.stack().serviceUri(ingest), FaultStack.EDITOR_KEY, ledger)
                .retryingRefused(10)
                .repostingUnknown();
            drivers.add(driver);
            bursts.add(driver.start("cluster-" + ingest, 100, 2));
        }
        Map<String, CompletableFuture<Duration>> recoveries = new LinkedHashMap<>();
        AsOfProbe asOfProbe = new AsOfProbe(List.of("api-1", "api-2"));

        awaitAcks(ledger, bursts, 50);
        KafkaNode broker = signalsLeader();
        String brokerName = "kafka-" + (cluster.stack().kafkaNodes().indexOf(broker) + 1);
        long t0 = System.nanoTime();
        ProcessControl.kill9(broker.processHandle().orElseThrow(), brokerName + " (leader of signals-0)");
        recoveries.put(brokerName + " ready again (supervisor)",
                recovered(t0, () -> cluster.stack().nodeRestarts(brokerName) >= 1 && broker.isRunning()));

        awaitAcks(ledger, bursts, 90);
        int master = elasticsearchMaster();
        ElasticsearchNode esNode = cluster.stack().elasticsearchNodes().get(master);
        String esName = "elasticsearch-" + (master + 1);
        URI survivor = cluster.stack().elasticsearchNodes().get((master + 1) % 3).httpUri();
        long tEs = System.nanoTime();
        ProcessControl.kill9(esNode.processHandle().orElseThrow(), esName + " (elected master)");
        String killedMaster = "n" + (master + 1);
        recoveries.put("another Elasticsearch master elected",
                recovered(tEs, () -> hasMasterOtherThan(survivor, killedMaster)));
        recoveries.put(esName + " ready again (supervisor)",
                recovered(tEs, () -> cluster.stack().nodeRestarts(esName) >= 1 && esNode.isRunning()));
        recoveries.put("Elasticsearch green with 3 nodes again",
                recovered(tEs, () -> cluster.stack().nodeRestarts(esName) >= 1 && green(survivor)));

        awaitAcks(ledger, bursts, 120);
        long tStreams = System.nanoTime();
        ProcessControl.kill9(cluster.service("streams-2"), "streams-2");
        recoveries.put("streams-2 healthy again (supervisor)",
                recovered(tStreams, () -> cluster.stack().serviceRestarts("streams-2") >= 1
                        && health(cluster.stack().serviceUri("streams-2")) == 200));

        awaitAcks(ledger, bursts, 150);
        long tApi = System.nanoTime();
        ProcessControl.kill9(cluster.service("api-2"), "api-2");
        recoveries.put("api-2 healthy again, SSE resumed (supervisor)",
                recovered(tApi, () -> cluster.stack().serviceRestarts("api-2") >= 1
                        && health(cluster.stack().serviceUri("api-2")) == 200 && readers.get(1).connections() >= 2));

        CompletableFuture.allOf(bursts.toArray(CompletableFuture<?>[]::new)).get(5, TimeUnit.MINUTES);
        Duration burstDone = ProcessControl.since(t0);
        // A client whose answer was lost (or a 504) posts again: ten acknowledged
        // signals,
        // the same ids and bodies, through the other ingest instance. Idempotent when the
        // audits below still find each once everywhere.
        Ledger again = new Ledger();
        List<String> repostIds = ledger.acknowledgedIds()
            .stream()
            .filter(id -> id.startsWith("signal:cluster-ingest-1-"))
            .limit(10)
            .map(id -> id.substring("signal:".length()))
            .toList();
        new BurstDriver(cluster.stack().serviceUri("ingest-2"), FaultStack.EDITOR_KEY, again).retryingRefused(10)
            .post(repostIds, 2)
            .get(5, TimeUnit.MINUTES);
        Map<String, Duration> recovered = new LinkedHashMap<>();
        for (Map.Entry<String, CompletableFuture<Duration>> r : recoveries.entrySet()) {
            recovered.put(r.getKey(), r.getValue().get(GIVE_UP_AFTER.toMinutes(), TimeUnit.MINUTES));
        }
        Duration isrBack = awaitFullIsr(t0);
        asOfProbe.close();

        await().atMost(GIVE_UP_AFTER)
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(() -> ledger.auditIndex(survivor).lost().isEmpty()
                    && ledger.auditReadsTopic(cluster.bootstrapServers()).lost().isEmpty()
                    && readers.stream().allMatch(r -> ledger.account(r.name(), r.counts()).lost().isEmpty())
                    && ledger.account("webhooks", webhooks.distinctDeliveriesPerRead()).lost().isEmpty());
        Duration healed = ProcessControl.since(t0);
        List<Ledger.Account> accounts = new ArrayList<>(
                List.of(ledger.auditReadsTopic(cluster.bootstrapServers()), ledger.auditIndex(survivor)));
        readers.forEach(r -> accounts.add(ledger.account("SSE reader on " + r.name().substring(4), r.counts())));
        accounts.add(ledger.account("webhooks (distinct webhook-id per read)", webhooks.distinctDeliveriesPerRead()));

        // Time travel on both api instances, and the chain query on both streams
        // instances: one owns the stores, the other forwards.
        Map<String, String> chainStores = new LinkedHashMap<>();
        for (String streams : List.of("streams-1", "streams-2")) {
            HttpResponse<byte[]> r = http.send(HttpRequest
                .newBuilder(cluster.stack().serviceUri(streams).resolve("/internal/v1/chain?asOf=" + Instant.now()))
                .timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
            chainStores.put(streams,
                    r.statusCode() + " " + r.headers().firstValue("Chainfeed-Chain-Store").orElse("?"));
        }
        Map<String, Integer> asOf = new LinkedHashMap<>();
        for (String api : List.of("api-1", "api-2")) {
            asOf.put(api, asOfStatus(api));
        }

        Ledger unanswered = new Ledger();
        ledger.unacknowledgedAttempts().keySet().forEach(unanswered::acknowledged);
        Ledger.Account published = unanswered.auditReadsTopic(cluster.bootstrapServers());
        List<String> reposted = drivers.stream().flatMap(d -> d.reposted504().stream()).sorted().toList();
        int lost = accounts.stream().mapToInt(a -> a.lost().size()).sum();
        int duplicated = accounts.stream().mapToInt(a -> a.duplicated().size()).sum();
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        StringBuilder times = new StringBuilder();
        recovered.forEach((what, took) -> times.append(String.format("%s %.1f s; ", what, took.toMillis() / 1000.0)));
        FaultReport.row(
                "cluster: 200 signals through ingest-1 and ingest-2 (2 posters each), SSE readers on api-1"
                        + " and api-2, a webhook receiver subscribed",
                "kill -9 of the broker leading signals-0 after 50 acks, of the elected Elasticsearch master after"
                        + " 90, of streams-2 after 120 and of api-2 after 150 (all four restarted by the launcher)",
                healed, lost, duplicated,
                String.format("cluster up in %.1f s; load average %.1f; %d acknowledged, %d unacknowledged (%s);"
                        + " %d posts answered 503 posted again; %d answered 504 posted again with the same id %s;"
                        + " of the unacknowledged, %d in the reads topic once, %d twice or more; burst done"
                        + " %.1f s after the broker kill; ISR back to 3 on every signals partition %.1f s after it;"
                        + " %d acknowledged signals posted again with the same ids and bodies, %d answered 202;"
                        + " %sasOf asked of both api instances every second through the faults: %s; asOf at the end"
                        + " %s; chain query on streams %s; SSE connections %s", cluster.lastStart().toMillis() / 1000.0,
                        load, ledger.acknowledgedIds().size(), ledger.unacknowledgedAttempts().size(),
                        ledger.unacknowledgedAttempts().values().stream().distinct().toList(),
                        drivers.stream().mapToInt(BurstDriver::retried).sum(), reposted.size(), reposted,
                        published.owed() - published.lost().size() - published.duplicated().size(),
                        published.duplicated().size(), burstDone.toMillis() / 1000.0, isrBack.toMillis() / 1000.0,
                        repostIds.size(), again.acknowledgedIds().size(), times, asOfProbe.summary(), asOf, chainStores,
                        readers.stream().map(r -> r.name() + "=" + r.connections()).toList()));
        String table = FaultReport.accounts("Cluster fault test: every acknowledged signal, audited", accounts);
        LOG.info("cluster fault test, recovered in {} ms:{}", healed.toMillis(), table);
        System.out.println(table);

        assertThat(accounts).allSatisfy(a -> assertThat(a.exact()).as(a.toString()).isTrue());
        assertThat(readers.get(1).connections()).as("the reader on api-2 reconnected").isGreaterThanOrEqualTo(2);
        assertThat(asOf).as("asOf on both api instances")
            .containsOnly(Map.entry("api-1", 200), Map.entry("api-2", 200));
        assertThat(chainStores.values()).as("both streams instances answer the chain query")
            .allMatch(s -> s.startsWith("200 "));
        // Refused (503) and unknown (504) posts were posted again, up to 10 times: with
        // one broker of three down nothing is refused for good.
        assertThat(ledger.unacknowledgedAttempts()).as("one broker of three down refuses nothing for good").isEmpty();
        assertThat(ledger.acknowledgedIds()).hasSize(200);
        assertThat(again.acknowledgedIds()).as("posted again: accepted again").hasSize(repostIds.size());
    }

    private static void awaitAcks(Ledger ledger, List<CompletableFuture<Void>> bursts, int acks) {
        await().atMost(Duration.ofMinutes(5))
            .until(() -> ledger.acknowledgedIds().size() >= acks
                    || bursts.stream().allMatch(CompletableFuture::isDone));
    }

    /**
     * Polls a condition every 250 ms on a thread of its own; completes with the time from
     * {@code t0} to its first success.
     */
    private static CompletableFuture<Duration> recovered(long t0, Callable<Boolean> condition) {
        return CompletableFuture.supplyAsync(() -> {
            while (ProcessControl.since(t0).compareTo(GIVE_UP_AFTER) < 0) {
                try {
                    if (Boolean.TRUE.equals(condition.call())) {
                        return ProcessControl.since(t0);
                    }
                }
                catch (Exception notYet) {
                    // not yet
                }
                try {
                    Thread.sleep(250);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            throw new IllegalStateException("not recovered within " + GIVE_UP_AFTER);
        }, runnable -> {
            Thread t = new Thread(runnable, "recovery-probe");
            t.setDaemon(true);
            t.start();
        });
    }

    /** The status of {@code GET /api/v1/chain?asOf=<now>} on an api instance. */
    private int asOfStatus(String api) throws Exception {
        return http
            .send(HttpRequest.newBuilder(cluster.stack().serviceUri(api).resolve("/api/v1/chain?asOf=" + Instant.now()))
                .timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.discarding())
            .statusCode();
    }

    private int health(URI service) throws Exception {
        return http
            .send(HttpRequest.newBuilder(service.resolve("/actuator/health")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding())
            .statusCode();
    }

    private JsonNode esGet(URI node, String path) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(node.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    /** The index (0..2) of the elected Elasticsearch master, by its node name n1..n3. */
    private int elasticsearchMaster() throws Exception {
        String name = esGet(cluster.elasticsearch(), "/_cat/master?format=json").get(0).path("node").asText();
        LOG.info("the elected Elasticsearch master is {}", name);
        return Integer.parseInt(name.substring(1)) - 1;
    }

    private boolean hasMasterOtherThan(URI node, String killed) throws Exception {
        JsonNode master = esGet(node, "/_cat/master?format=json");
        return master.isArray() && master.size() == 1 && master.get(0).path("node").asText().matches("n\\d")
                && !master.get(0).path("node").asText().equals(killed);
    }

    /**
     * Asks {@code /api/v1/chain?asOf=} of each api instance every second on a thread of
     * its own, and counts the answers: the status, or {@code down} when the instance
     * itself does not answer (killed, restarting).
     */
    private final class AsOfProbe implements AutoCloseable {

        private final Map<String, Map<String, Integer>> answers = new java.util.concurrent.ConcurrentHashMap<>();

        private final Map<String, Double> longestNon200 = new java.util.concurrent.ConcurrentHashMap<>();

        private volatile boolean closed;

        private final Thread thread;

        AsOfProbe(List<String> apis) {
            thread = new Thread(() -> {
                Map<String, Long> failingSince = new java.util.HashMap<>();
                while (!closed) {
                    for (String api : apis) {
                        String answer;
                        try {
                            answer = Integer.toString(asOfStatus(api));
                        }
                        catch (Exception e) {
                            answer = "down";
                        }
                        answers.computeIfAbsent(api, a -> new java.util.concurrent.ConcurrentSkipListMap<>())
                            .merge(answer, 1, Integer::sum);
                        if ("200".equals(answer) || "down".equals(answer)) {
                            failingSince.remove(api);
                        }
                        else {
                            long since = failingSince.computeIfAbsent(api, a -> System.nanoTime());
                            longestNon200.merge(api, (System.nanoTime() - since) / 1e9, Math::max);
                        }
                    }
                    try {
                        Thread.sleep(1000);
                    }
                    catch (InterruptedException e) {
                        return;
                    }
                }
            }, "asof-probe");
            thread.setDaemon(true);
            thread.start();
        }

        /**
         * Per api instance, the answers counted and the longest run of answers other than
         * 200 while it was up.
         */
        String summary() {
            StringBuilder out = new StringBuilder();
            new java.util.TreeMap<>(answers).forEach((api, counts) -> out.append(api)
                .append(' ')
                .append(counts)
                .append(String.format(" (longest run of non-200 answers %.1f s); ",
                        longestNon200.getOrDefault(api, 0.0))));
            return out.toString();
        }

        @Override
        public void close() throws InterruptedException {
            closed = true;
            thread.join(15_000);
        }

    }

    private boolean green(URI node) throws Exception {
        JsonNode health = esGet(node, "/_cluster/health");
        return "green".equals(health.path("status").asText()) && health.path("number_of_nodes").asInt() == 3;
    }

    /** The broker that leads partition 0 of the signals topic now. */
    private KafkaNode signalsLeader() throws Exception {
        try (Admin admin = admin()) {
            TopicDescription signals = admin.describeTopics(List.of(Topics.SIGNALS))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(Topics.SIGNALS);
            int leader = signals.partitions().get(0).leader().id();
            LOG.info("signals-0 is led by broker {}", leader);
            return cluster.stack().kafkaNodes().get(leader - 1);
        }
    }

    /**
     * Waits until every signals partition has three in-sync replicas again; returns the
     * time since {@code t0}.
     */
    private Duration awaitFullIsr(long t0) {
        try (Admin admin = admin()) {
            await().atMost(GIVE_UP_AFTER).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                TopicDescription d = admin.describeTopics(List.of(Topics.SIGNALS))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(Topics.SIGNALS);
                return d.partitions().stream().map(TopicPartitionInfo::isr).allMatch(isr -> isr.size() == 3);
            });
        }
        return ProcessControl.since(t0);
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                10_000));
    }

}
