package io.chainfeed.faults;

import static io.chainfeed.faults.FaultReport.GIVE_UP_AFTER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launcher's supervision and the embedded default's durability under faults, against
 * the real processes (Kafka, Elasticsearch, the streams, ingest and api JVMs the launcher
 * starts), one stack for the three scenarios, in order:
 * <ol>
 * <li>streams {@code kill -9} in the middle of a burst of 200 signals: the supervisor
 * restarts it, and every acknowledged signal is in the reads topic and in Elasticsearch
 * exactly once, and pushed once to each SSE subscriber and under one webhook id to the
 * webhook endpoint;</li>
 * <li>api {@code kill -9} with two SSE subscribers and a webhook subscription receiving a
 * burst: the subscribers resume with {@code Last-Event-ID}, the deliveries resume,
 * nothing lost or doubled;</li>
 * <li>a stop and start of the whole stack: the reader key, the webhook subscription and
 * the signals are still there, the corpus reload publishes nothing, and the ledger of all
 * scenarios still balances.</li>
 * </ol>
 * Each scenario appends its row to {@code target/fault-report.md}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 60, unit = TimeUnit.MINUTES)
class SupervisedStackFaultsIT {

    private static final Logger LOG = LoggerFactory.getLogger(SupervisedStackFaultsIT.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Ledger all = new Ledger();

    private FaultStack stack;

    private WebhookReceiver webhooks;

    private List<SseSubscriber> subscribers;

    private String readerKey;

    private String readerKeyId;

    private String subscriptionId;

    @BeforeAll
    void start() throws Exception {
        stack = FaultStack.startFresh("supervised");
        webhooks = WebhookReceiver.start();
        JsonNode key = stack.adminKeys().create("READER", "fault drill", List.of(), 6000);
        readerKey = key.path("token").asText();
        readerKeyId = key.path("id").asText();
        HttpResponse<String> created = webhooks.subscribe(http, stack.api(), readerKey, "kind:signal", "fault drill");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        subscriptionId = JSON.readTree(created.body()).path("id").asText();
        subscribers = List.of(new SseSubscriber(stack.api(), "kind:signal", "sse-1"),
                new SseSubscriber(stack.api(), "kind:signal", "sse-2"));
        await().atMost(Duration.ofMinutes(3)).until(() -> subscribers.stream().allMatch(SseSubscriber::ready));
    }

    @AfterAll
    void stop() throws Exception {
        if (subscribers != null) {
            subscribers.forEach(SseSubscriber::close);
        }
        FaultStack.closeInOrder(webhooks, stack);
    }

    @Test
    @Order(1)
    void streamsKilledMidBurstIsRestartedAndEverySignalArrivesOnce() throws Exception {
        Ledger ledger = new Ledger();
        ProcessHandle streams = stack.service("streams");
        CompletableFuture<Void> burst = burst(ledger, "streams-kill", 200);
        await().atMost(Duration.ofMinutes(3)).until(() -> ledger.acknowledgedIds().size() >= 50);
        long t0 = System.nanoTime();
        ProcessControl.kill9(streams, "streams");
        burst.get(5, TimeUnit.MINUTES);
        assertThat(ledger.unacknowledgedAttempts()).as("ingest does not need streams to accept").isEmpty();
        assertThat(ledger.acknowledgedIds()).hasSize(200);

        await().atMost(GIVE_UP_AFTER)
            .until(() -> stack.stack().serviceRestarts("streams") == 1
                    && stack.stack().serviceProcess("streams").isPresent());
        Duration healed = awaitAccounted(ledger, t0);
        Duration healthy = awaitHealthy(stack.stack().streamsUri(), t0);
        List<Ledger.Account> accounts = audit(ledger);
        record("streams kill -9 mid-burst (200 signals, 4 posters)",
                "SIGKILL of the streams JVM after 50 acks;" + " the launcher restarted it", healed, accounts,
                "streams healthy again " + String.format("%.1f s", healthy.toMillis() / 1000.0) + " after the kill");
        assertThat(stack.stack().serviceRestarts("streams")).isEqualTo(1);
        assertPipelineDrained();
    }

    @Test
    @Order(2)
    @DisplayName("api kill -9 with SSE subscribers and webhook deliveries in flight")
    void apiKilledWithSseAndWebhooksInFlightResumesWithoutLossOrRepeats() throws Exception {
        Ledger ledger = new Ledger();
        CompletableFuture<Void> burst = burst(ledger, "api-kill", 150);
        // Kill once the subscribers and the webhook endpoint are in the middle of this
        // burst.
        await().atMost(Duration.ofMinutes(5))
            .until(() -> webhooks.deliveries()
                .stream()
                .filter(d -> d.readId().startsWith("signal:api-kill-"))
                .count() >= 20
                    && subscribers.stream()
                        .allMatch(s -> s.received().stream().anyMatch(id -> id.startsWith("signal:api-kill-"))));
        long t0 = System.nanoTime();
        ProcessControl.kill9(stack.service("api"), "api");
        burst.get(5, TimeUnit.MINUTES);
        assertThat(ledger.unacknowledgedAttempts()).isEmpty();

        Duration healed = awaitAccounted(ledger, t0);
        Duration healthy = awaitHealthy(stack.api(), t0);
        List<Ledger.Account> accounts = audit(ledger);
        record("api kill -9 with 2 SSE subscribers and a webhook subscription mid-burst (150 signals)",
                "SIGKILL of the api JVM after 20 webhook deliveries; the launcher restarted it", healed, accounts,
                String.format(
                        "api healthy again %.1f s after the kill; SSE reconnections %s; webhook redeliveries"
                                + " under the same webhook-id: %d (at least once, as documented)",
                        healthy.toMillis() / 1000.0,
                        subscribers.stream().map(s -> s.name() + "=" + (s.connections() - 1)).toList(),
                        webhooks.redeliveries()));
        assertThat(stack.stack().serviceRestarts("api")).isEqualTo(1);
        assertThat(subscribers).allMatch(s -> s.connections() >= 2, "every subscriber reconnected");
    }

    @Test
    @Order(3)
    void aStopAndStartOfTheWholeStackKeepsKeysSubscriptionsAndReads() throws Exception {
        Ledger ledger = new Ledger();
        new BurstDriver(stack.ingest(), FaultStack.EDITOR_KEY, ledger).start("restart", 20, 2)
            .get(60, TimeUnit.SECONDS);
        awaitAccounted(ledger, System.nanoTime());
        Map<TopicPartition, Long> termsBefore = endOffsets(Topics.TERMS);

        long t0 = System.nanoTime();
        Duration startedIn = stack.stopAndStart();
        // Kept: the reader key (admin list and a call under it), its subscription, the
        // reads.
        assertThat(stack.adminKeys().list().findValues("id")).extracting(JsonNode::asText).contains(readerKeyId);
        HttpResponse<String> sub = http
            .send(HttpRequest.newBuilder(stack.api().resolve("/api/v1/subscriptions/" + subscriptionId))
                .header("Authorization", "Bearer " + readerKey)
                .GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(sub.statusCode()).as(sub.body()).isEqualTo(200);
        String oneRead = ledger.acknowledgedIds().iterator().next();
        HttpResponse<String> read = http.send(HttpRequest
            .newBuilder(stack.api()
                .resolve("/api/v1/reads/"
                        + java.net.URLEncoder.encode(oneRead, java.nio.charset.StandardCharsets.UTF_8)))
            .GET()
            .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);

        // After the restart, everything of every scenario still accounted for, once.
        Duration healed = awaitAccounted(all, t0);
        assertThat(endOffsets(Topics.TERMS)).as("the corpus reload published nothing").isEqualTo(termsBefore);
        List<Ledger.Account> accounts = audit(all);
        record("stop and start of the whole stack, data kept (after the two scenarios above; "
                + all.acknowledgedIds().size() + " signals owed)",
                "Stack.close() (what SIGINT/SIGTERM run) and a new" + " launcher on the same run dir", healed, accounts,
                String.format("stack up again in %.1f s; reader"
                        + " key, webhook subscription and reads kept; terms topic unchanged by the corpus reload",
                        startedIn.toMillis() / 1000.0));
    }

    /**
     * Starts posting {@code count} signals to ingest from four threads, answers into the
     * ledger.
     */
    private CompletableFuture<Void> burst(Ledger ledger, String prefix, int count) {
        return new BurstDriver(stack.ingest(), FaultStack.EDITOR_KEY, ledger).start(prefix, count, 4);
    }

    /**
     * Waits until the ledger's ids are all in the topic, the index, every SSE subscriber
     * and the webhook endpoint.
     */
    private Duration awaitAccounted(Ledger ledger, long t0) {
        await().atMost(GIVE_UP_AFTER)
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(() -> ledger.auditIndex(stack.elasticsearch()).lost().isEmpty()
                    && ledger.auditReadsTopic(stack.bootstrapServers()).lost().isEmpty()
                    && subscribers.stream().allMatch(s -> ledger.account(s.name(), s.counts()).lost().isEmpty())
                    && ledger.account("webhooks", webhooks.distinctDeliveriesPerRead()).lost().isEmpty());
        Duration took = ProcessControl.since(t0);
        ledger.acknowledgedIds().forEach(all::acknowledged);
        return took;
    }

    private List<Ledger.Account> audit(Ledger ledger) throws IOException {
        List<Ledger.Account> accounts = new java.util.ArrayList<>();
        accounts.add(ledger.auditReadsTopic(stack.bootstrapServers()));
        accounts.add(ledger.auditIndex(stack.elasticsearch()));
        subscribers.forEach(s -> accounts.add(ledger.account("SSE " + s.name(), s.counts())));
        accounts.add(ledger.account("webhooks (distinct webhook-id per read)", webhooks.distinctDeliveriesPerRead()));
        accounts.forEach(a -> LOG.info("ledger: {}", a));
        return accounts;
    }

    private static void record(String scenario, String injected, Duration recovered, List<Ledger.Account> accounts,
            String notes) {
        int lost = accounts.stream().mapToInt(a -> a.lost().size()).sum();
        int duplicated = accounts.stream().mapToInt(a -> a.duplicated().size()).sum();
        FaultReport.row(scenario, injected, recovered, lost, duplicated, notes);
        LOG.info("{}: recovered in {} ms, {} lost, {} duplicated; {}", scenario, recovered.toMillis(), lost, duplicated,
                notes);
        assertThat(accounts).allSatisfy(a -> assertThat(a.exact()).as(a.toString()).isTrue());
    }

    private Duration awaitHealthy(URI service, long t0) {
        await().atMost(GIVE_UP_AFTER).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(service.resolve("/actuator/health"))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        });
        return ProcessControl.since(t0);
    }

    /**
     * The api's health shows the pipeline: nothing accepted waits to be processed or
     * indexed.
     */
    private void assertPipelineDrained() {
        await().atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .untilAsserted(() -> {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(stack.api().resolve("/actuator/health")).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                JsonNode pipeline = JSON.readTree(r.body()).path("components").path("pipeline");
                assertThat(pipeline.path("status").asText()).isEqualTo("UP");
                assertThat(pipeline.path("details").path("signalsNotYetProcessed").asLong(-1)).isZero();
                assertThat(pipeline.path("details").path("readsNotYetIndexed").asLong(-1)).isZero();
            });
    }

    private Map<TopicPartition, Long> endOffsets(String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = c.partitionsFor(topic, Duration.ofSeconds(30))
                .stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
            return c.endOffsets(partitions, Duration.ofSeconds(30));
        }
    }

}
