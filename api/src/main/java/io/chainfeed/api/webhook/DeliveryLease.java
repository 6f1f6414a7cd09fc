package io.chainfeed.api.webhook;

import io.chainfeed.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which webhook subscriptions this api instance delivers, decided by Kafka: every
 * delivering instance joins one consumer group on {@value Topics#WEBHOOK_LEASES} (a topic
 * nobody writes), and a subscription belongs to the instance that owns the partition its
 * id hashes to (murmur2, as Kafka's default partitioner places a keyed record). The group
 * coordinator gives each partition to exactly one live member; when a member stops
 * heart-beating for {@code session.timeout.ms}, its partitions go to the others.
 *
 * <p>
 * The {@link Listener} hears the changes on this lease's thread, inside {@code poll}: a
 * revocation returns only once the listener has stopped those subscriptions and stored
 * their positions, so with the cooperative assignor the next owner is assigned them only
 * afterwards. A lost assignment (the session expired) is reported without that handshake.
 * {@link #holds} also fences an instance whose poll loop has not run for a session
 * timeout (a paused JVM): it stops sending before the coordinator can have moved its
 * partitions.
 */
final class DeliveryLease implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeliveryLease.class);

    /** Hears assignment changes, on the lease thread. */
    interface Listener {

        /**
         * @param partitions lease partitions this instance now owns in addition
         */
        void assigned(Set<Integer> partitions);

        /**
         * Must stop the subscriptions of these partitions before returning; when
         * {@code lost} is false it should also store their positions (the next owner
         * resumes from them).
         * @param partitions lease partitions this instance no longer owns
         * @param lost true if they were taken away (session expired) rather than handed
         * over
         */
        void revoked(Set<Integer> partitions, boolean lost);

    }

    private final KafkaConsumer<byte[], byte[]> consumer;

    private final Clock clock;

    private final long sessionTimeoutMs;

    private final Set<Integer> owned = ConcurrentHashMap.newKeySet();

    private volatile long lastPollMs;

    private volatile int partitions;

    private volatile boolean running;

    private Thread thread;

    private Listener listener;

    private final CountDownLatch left = new CountDownLatch(1);

    /**
     * @param bootstrapServers Kafka
     * @param groupId the consumer group all delivering api instances share
     * @param instanceId this instance's name (part of the client id, shown by
     * {@code kafka-consumer-groups})
     * @param sessionTimeout how long a silent member keeps its partitions: the failover
     * time's main part
     * @param clock the time source of the fence
     */
    DeliveryLease(String bootstrapServers, String groupId, String instanceId, Duration sessionTimeout, Clock clock) {
        this.clock = clock;
        this.sessionTimeoutMs = sessionTimeout.toMillis();
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, groupId, ConsumerConfig.CLIENT_ID_CONFIG,
                "chainfeed-api-webhook-lease-" + instanceId, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG,
                (int) sessionTimeoutMs, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                (int) Math.max(500, sessionTimeoutMs / 5),
                // A revocation waits for attempts in flight (up to the request timeout)
                // and a state write.
                ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 120_000,
                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * The lease partition of a subscription.
     * @param subscriptionId the subscription id (the record key it would have)
     * @param partitions the lease topic's partition count
     * @return the partition, as Kafka's default partitioner computes it for that key
     */
    static int partitionOf(String subscriptionId, int partitions) {
        return Utils.toPositive(Utils.murmur2(subscriptionId.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /**
     * Joins the group on a thread of its own; until the first assignment this instance
     * delivers nothing.
     * @param l hears assignments and revocations
     */
    void start(Listener l) {
        this.listener = l;
        running = true;
        thread = new Thread(this::run, "webhook-lease");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * @param subscriptionId a subscription
     * @return whether this instance may send its webhooks now: it owns the subscription's
     * partition and its poll loop ran within the last session timeout
     */
    boolean holds(String subscriptionId) {
        int n = partitions;
        return n > 0 && owned.contains(partitionOf(subscriptionId, n))
                && clock.millis() - lastPollMs < sessionTimeoutMs;
    }

    /**
     * @param subscriptionId a subscription
     * @return whether its lease partition is one this instance owns (fence aside)
     */
    boolean owns(String subscriptionId) {
        int n = partitions;
        return n > 0 && owned.contains(partitionOf(subscriptionId, n));
    }

    /**
     * @param subscriptionId a subscription
     * @param among lease partitions
     * @return whether its partition is one of them
     */
    boolean within(String subscriptionId, Set<Integer> among) {
        int n = partitions;
        return n > 0 && among.contains(partitionOf(subscriptionId, n));
    }

    /**
     * @return the lease partitions this instance owns now
     */
    Set<Integer> owned() {
        return Set.copyOf(owned);
    }

    private void run() {
        try {
            while (running && partitions == 0) {
                try {
                    List<org.apache.kafka.common.PartitionInfo> infos = consumer.partitionsFor(Topics.WEBHOOK_LEASES,
                            Duration.ofSeconds(10));
                    partitions = infos == null ? 0 : infos.size();
                }
                catch (WakeupException e) {
                    throw e;
                }
                catch (KafkaException e) {
                    log.info("{} not readable yet ({}); retrying", Topics.WEBHOOK_LEASES, e.getMessage());
                }
                if (partitions == 0) {
                    Thread.sleep(1000);
                }
            }
            consumer.subscribe(List.of(Topics.WEBHOOK_LEASES), new Rebalance());
            while (running) {
                lastPollMs = clock.millis();
                try {
                    // the topic is empty and its partitions paused
                    consumer.poll(Duration.ofMillis(500));
                }
                catch (WakeupException e) {
                    throw e;
                }
                catch (KafkaException e) {
                    log.warn("webhook lease: {}; retrying", e.getMessage());
                    Thread.sleep(1000);
                }
            }
        }
        catch (WakeupException | InterruptedException e) {
            // stopping
        }
        catch (RuntimeException e) {
            log.error("webhook lease stopped; this instance delivers no more webhooks", e);
            revokeAll(true);
        }
        finally {
            // close() leaves the group (after the revocation callback): the others take
            // over at once
            try {
                consumer.close(Duration.ofSeconds(30));
            }
            finally {
                left.countDown();
            }
        }
    }

    private void revokeAll(boolean lost) {
        Set<Integer> all = owned();
        owned.clear();
        if (!all.isEmpty()) {
            listener.revoked(all, lost);
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            lastPollMs = clock.millis();
            consumer.pause(assigned);
            Set<Integer> added = numbers(assigned);
            if (added.isEmpty()) {
                return;
            }
            owned.addAll(added);
            log.info("webhook lease: assigned partitions {}; owning {}", added, new TreeSet<>(owned));
            listener.assigned(added);
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            lastPollMs = clock.millis();
            Set<Integer> gone = numbers(revoked);
            if (gone.isEmpty()) {
                return;
            }
            owned.removeAll(gone);
            log.info("webhook lease: handing over partitions {}", gone);
            listener.revoked(gone, false);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            Set<Integer> gone = numbers(lost);
            owned.removeAll(gone);
            log.warn("webhook lease: lost partitions {} (session expired); another instance may deliver them", gone);
            if (!gone.isEmpty()) {
                listener.revoked(gone, true);
            }
        }

        private Set<Integer> numbers(Collection<TopicPartition> tps) {
            Set<Integer> s = new TreeSet<>();
            tps.forEach(tp -> s.add(tp.partition()));
            return s;
        }

    }

    /**
     * Leaves the group: revokes every partition (positions stored) and lets the others
     * take over at once.
     */
    @Override
    public void close() {
        running = false;
        if (thread == null) {
            consumer.close(Duration.ZERO);
            return;
        }
        consumer.wakeup();
        try {
            if (!left.await(60, TimeUnit.SECONDS)) {
                log.warn("webhook lease: still leaving the group after 60 s; its partitions move at session timeout");
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
