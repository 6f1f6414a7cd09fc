package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.avro.PartitionOffset;
import io.chainfeed.avro.WebhookDeliveryState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The delivery state machine end to end in memory: the real engine, sender and signer
 * against a real HTTP receiver on loopback that answers from a script, fed by
 * {@link InMemoryReadSource}. An integration test (Failsafe): it waits on the wall clock
 * for retries and talks to a real server over loopback.
 */
class SubscriptionWorkerIT {

    /** A request the receiver saw. */
    record Hit(String webhookId, String timestamp, String signature, String body) {
    }

    /** Records what the engine journals. */
    static class Journal implements DeliveryJournal {

        final List<WebhookDeliveryState> saved = new CopyOnWriteArrayList<>();

        final List<String> deadLetters = new CopyOnWriteArrayList<>();

        final List<String> disabled = new CopyOnWriteArrayList<>();

        @Override
        public void save(WebhookDeliveryState state) {
            saved.add(state);
        }

        @Override
        public void deadLetter(String subscriptionId, String webhookId, String body, String reason, String origin) {
            deadLetters.add(webhookId + " " + origin + " " + reason);
        }

        @Override
        public void disable(String subscriptionId, String reason) {
            disabled.add(subscriptionId + ": " + reason);
        }

        WebhookDeliveryState last() {
            return saved.get(saved.size() - 1);
        }

    }

    private LoopbackReceiver receiver;

    private final Queue<Integer> script = new ConcurrentLinkedQueue<>();

    private final List<Hit> hits = new CopyOnWriteArrayList<>();

    private final InMemoryReadSource source = new InMemoryReadSource();

    private final Journal journal = new Journal();

    private final byte[] key = WebhookSignatures.newSecret();

    private final List<WebhookEngine> engines = new ArrayList<>();

    private final WebhookMeters meters = new WebhookMeters(new SimpleMeterRegistry());

    private WebhookSender sender;

    private URI url;

    @BeforeEach
    void start() throws IOException {
        receiver = LoopbackReceiver.start("/hook", (exchange, body) -> {
            var h = exchange.getRequestHeaders();
            hits.add(new Hit(h.getFirst("webhook-id"), h.getFirst("webhook-timestamp"), h.getFirst("webhook-signature"),
                    body));
            Integer status = script.poll();
            int s = status == null ? 200 : status;
            if (s == 429) {
                exchange.getResponseHeaders().add("Retry-After", "1");
            }
            exchange.sendResponseHeaders(s, -1);
            exchange.close();
        });
        url = receiver.url("127.0.0.1", "/hook");
        sender = new WebhookSender(new TargetGuard(true, InetAddress::getAllByName), Duration.ofSeconds(2),
                Duration.ofSeconds(5), 4, 0);
    }

    @AfterEach
    void stop() {
        engines.forEach(WebhookEngine::close);
        sender.close();
        receiver.close();
    }

    /**
     * Starts an engine (queue of 16) on the subscription from the end of the source,
     * queues the endpoint's answers, then appends a read for each id to partition 0.
     */
    private WebhookEngine startScripted(int maxAttempts, List<Integer> answers, String... ids) {
        WebhookEngine e = engine(maxAttempts, 16);
        e.upsert(target("all"), startAt(source.end()));
        script.addAll(answers);
        for (String id : ids) {
            source.append(0, id, 1, "memory");
        }
        return e;
    }

    private WebhookEngine engine(int maxAttempts, int queueCapacity) {
        RetrySchedule schedule = new RetrySchedule(maxAttempts, Duration.ofMillis(50), 2, Duration.ofMillis(200),
                Duration.ofSeconds(2));
        WebhookEngine e = new WebhookEngine(source, sender, new DeliveryPolicy(schedule, new SplittableRandom(1)),
                journal, Clock.systemUTC(), 2, queueCapacity, meters);
        engines.add(e);
        return e;
    }

    private WebhookTarget target(String selector) {
        return new WebhookTarget("sub_test", url, Selector.parse(selector),
                List.of(new WebhookTarget.SigningKey(key, null)));
    }

    private static WebhookDeliveryState startAt(Map<Integer, Long> position) {
        List<PartitionOffset> p = new ArrayList<>();
        position.forEach((k, v) -> p.add(new PartitionOffset(k, v)));
        return WebhookDeliveryState.newBuilder()
            .setSubscriptionId("sub_test")
            .setPosition(p)
            .setUpdatedAt(Instant.now())
            .setRevision(0L)
            .build();
    }

    private List<String> deliveredIds() {
        return hits.stream().map(h -> h.body().replaceAll(".*\"data\":\\{\"id\":\"([^\"]+)\".*", "$1")).toList();
    }

    @Test
    void deliversInOrderRetryingAFailingReadBeforeTheNext() {
        // before the subscription's start: never sent
        source.append(0, "term:old", 1, "memory");
        WebhookEngine engine = engine(5, 16);
        engine.upsert(target("layer:memory"), startAt(source.end()));
        script.addAll(List.of(500, 429, 200));
        source.append(0, "term:a", 1, "memory");
        source.append(1, "term:skip", 1, "network-fabric");
        source.append(1, "term:b", 1, "memory");
        source.append(0, "term:c", 2, "memory");

        await().atMost(Duration.ofSeconds(10)).until(() -> hits.size() == 5);
        assertThat(deliveredIds()).containsExactly("term:a", "term:a", "term:a", "term:b", "term:c");
        assertThat(hits.get(0).webhookId()).isEqualTo(hits.get(1).webhookId()).isEqualTo(hits.get(2).webhookId());
        // Retry-After: 1 after the 429: the third attempt came at least a second after
        // the second
        assertThat(Long.parseLong(hits.get(2).timestamp()) - Long.parseLong(hits.get(1).timestamp()))
            .isGreaterThanOrEqualTo(1);
        for (Hit h : hits) {
            assertThat(h.body()).startsWith("{\"type\":\"read.published\",\"timestamp\":\"2026-03-01T00:00:00");
            assertThat(h.signature()).isEqualTo(WebhookSignatures.signatureHeader(List.of(key), h.webhookId(),
                    Long.parseLong(h.timestamp()), h.body()));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> journal.last().getDelivered() == 3);
        WebhookDeliveryState last = journal.last();
        assertThat(last.getPosition()).containsExactly(new PartitionOffset(0, 3L), new PartitionOffset(1, 2L));
        assertThat(last.getConsecutiveFailures()).isZero();
        assertThat(last.getPendingWebhookId()).isNull();
        assertThat(last.getLastStatus()).isEqualTo(200);
        assertThat(journal.saved).anySatisfy(s -> {
            assertThat(s.getLastStatus()).isEqualTo(429);
            assertThat(s.getAttempts()).isEqualTo(2);
            assertThat(s.getConsecutiveFailures()).isEqualTo(2);
            assertThat(s.getNextAttemptAt()).isAfterOrEqualTo(s.getLastAttemptAt().plusSeconds(1));
        });
    }

    @Test
    void recoverRetriesAtOnceAndTheBacklogFollowsInOrder() {
        // An hour's backoff: without the recover call the second attempt would be far
        // away.
        WebhookEngine engine = new WebhookEngine(source, sender,
                new DeliveryPolicy(
                        new RetrySchedule(10, Duration.ofHours(1), 3, Duration.ofHours(6), Duration.ofHours(1)),
                        new java.util.random.RandomGenerator() {
                            @Override
                            public long nextLong() {
                                return Long.MAX_VALUE;
                            }

                            @Override
                            public long nextLong(long bound) {
                                // the top of the jitter range: the longest wait
                                return bound - 1;
                            }
                        }),
                journal, Clock.systemUTC(), 2, 16, meters);
        engines.add(engine);
        engine.upsert(target("all"), startAt(source.end()));
        Instant beforeTheOutage = Instant.now();
        script.add(503);
        for (String id : List.of("term:a", "term:b", "term:c", "term:d")) {
            source.append(0, id, 1, "memory");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> !journal.saved.isEmpty());
        WebhookDeliveryState failed = journal.last();
        assertThat(failed.getNextAttemptAt()).isAfter(Instant.now().plus(Duration.ofMinutes(30)));
        assertThat(failed.getFailingSince()).isEqualTo(failed.getLastAttemptAt());
        assertThat(engine.failing(Duration.ZERO)).isEqualTo(1);

        // A request older than the last attempt has been answered by that attempt
        // already.
        engine.recover("sub_test", beforeTheOutage);
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> hits.size() == 1);

        engine.recover("sub_test", Instant.now());
        await().atMost(Duration.ofSeconds(10)).until(() -> hits.size() == 5);
        assertThat(deliveredIds()).containsExactly("term:a", "term:a", "term:b", "term:c", "term:d");
        await().atMost(Duration.ofSeconds(5)).until(() -> journal.last().getDelivered() == 4);
        assertThat(journal.last().getFailingSince()).isNull();
        assertThat(engine.failing(Duration.ZERO)).isZero();
    }

    @Test
    void deadLettersAfterTheLastAttemptAndMovesOn() {
        startScripted(3, List.of(500, 503, 502), "term:doomed", "term:next");
        await().atMost(Duration.ofSeconds(10)).until(() -> hits.size() == 4);
        assertThat(deliveredIds()).containsExactly("term:doomed", "term:doomed", "term:doomed", "term:next");
        assertThat(journal.deadLetters).singleElement()
            .asString()
            .startsWith(hits.get(0).webhookId() + " chainfeed.reads.v1-0@0 gave up after 3 attempts")
            .endsWith("the endpoint answered 502");
        await().atMost(Duration.ofSeconds(5)).until(() -> journal.last().getDelivered() == 1);
        assertThat(journal.last().getDeadLettered()).isEqualTo(1);
        assertThat(journal.last().getPosition()).containsExactly(new PartitionOffset(0, 2L));
    }

    @Test
    void goneDisablesTheSubscriptionAndStopsIt() throws Exception {
        source.append(0, "term:before", 1, "memory");
        WebhookEngine engine = startScripted(5, List.of(410), "term:a", "term:b");
        await().atMost(Duration.ofSeconds(10)).until(() -> !journal.disabled.isEmpty());
        assertThat(journal.disabled).containsExactly("sub_test: the endpoint answered 410 Gone");
        // nothing more arrives after the 410
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> hits.size() == 1);
        assertThat(hits).hasSize(1);
        assertThat(engine.size()).isZero();
        assertThat(journal.last().getPosition()).as("the read stays unsettled")
            .containsExactly(new PartitionOffset(0, 1L));
    }

    @Test
    void resumesFromTheStoredStateWithTheSameIdAndAttemptCount() {
        // the 429 asks for a second's pause: stop within it
        WebhookEngine first = startScripted(4, List.of(200, 500, 429), "term:a", "term:b");
        await().atMost(Duration.ofSeconds(10)).until(() -> hits.size() == 3 && journal.last().getAttempts() == 2);
        first.close(Duration.ofSeconds(5));
        WebhookDeliveryState stored = journal.last();
        assertThat(hits).hasSize(3);
        assertThat(stored.getAttempts()).isEqualTo(2);
        assertThat(stored.getNextAttemptAt()).isAfter(stored.getLastAttemptAt());
        assertThat(stored.getPosition()).containsExactly(new PartitionOffset(0, 1L));

        script.clear();
        // the fourth attempt in all is the last: dead-lettered
        script.addAll(List.of(500, 500));
        WebhookEngine second = engine(4, 16);
        second.upsert(target("all"), stored);
        source.append(0, "term:c", 1, "memory");
        await().atMost(Duration.ofSeconds(10)).until(() -> hits.size() == 6);
        assertThat(deliveredIds()).containsExactly("term:a", "term:b", "term:b", "term:b", "term:b", "term:c");
        assertThat(hits.get(3).webhookId()).isEqualTo(hits.get(1).webhookId());
        assertThat(journal.deadLetters).singleElement().asString().contains("gave up after 4 attempts");
    }

    @Test
    void aFullQueuePausesTheSourceAndReplaysWithoutLossOrDuplicate() {
        source.paced = false; // behave like the live tail: refuse-and-close when full
        WebhookEngine engine = engine(3, 2);
        engine.upsert(target("all"), startAt(source.end()));
        for (int i = 0; i < 3; i++) {
            script.add(500); // hold the first read back while the others pile up
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String id = "term:r" + i;
            source.append(i % 3, id, 1, "memory");
            expected.add(id);
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> hits.size() == 14);
        List<String> ids = deliveredIds();
        assertThat(ids.subList(2, ids.size())).containsExactlyElementsOf(expected);
        assertThat(source.opened.get()).as("the source was reopened after the pause").isGreaterThan(1);
        assertThat(hits.stream().map(Hit::webhookId).distinct().count()).isEqualTo(12);
    }

    @Test
    void aFencedEngineHoldsWebhooksBackAndAHandOverStoresThePositionDurably() {
        java.util.concurrent.atomic.AtomicBoolean leased = new java.util.concurrent.atomic.AtomicBoolean(false);
        List<WebhookDeliveryState> flushed = new CopyOnWriteArrayList<>();
        Journal flushing = new Journal() {
            @Override
            public void flush(WebhookDeliveryState state) {
                flushed.add(state);
            }
        };
        RetrySchedule schedule = new RetrySchedule(3, Duration.ofMillis(50), 2, Duration.ofMillis(200),
                Duration.ofSeconds(2));
        WebhookEngine engine = new WebhookEngine(source, sender, new DeliveryPolicy(schedule, new SplittableRandom(1)),
                flushing, Clock.systemUTC(), 2, 16, meters);
        engines.add(engine);
        engine.fence(id -> leased.get());
        engine.upsert(target("layer:memory"), startAt(source.end()));
        source.append(0, "term:held", 1, "memory");
        // Fenced: queued but not sent (the lease is rechecked every second).
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(hits::isEmpty);
        leased.set(true);
        await().atMost(Duration.ofSeconds(5)).until(() -> hits.size() == 1);
        engine.handOver(List.of("sub_test"), Duration.ofSeconds(5));
        assertThat(engine.delivers("sub_test")).isFalse();
        assertThat(flushed).hasSize(1);
        assertThat(flushed.get(0).getPosition()).filteredOn(p -> p.getPartition() == 0)
            .extracting(PartitionOffset::getNextOffset)
            .containsExactly(source.end().get(0));
        assertThat(flushed.get(0).getDelivered()).isEqualTo(1);
        source.append(0, "term:after", 1, "memory");
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> hits.size() == 1);
    }

}
