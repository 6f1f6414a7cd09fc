package io.chainfeed.api.support.kafka;

import io.chainfeed.platform.kafka.ClientMeters;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.platform.kafka.OnDemandDeadLetters;
import io.chainfeed.schemas.AvroSerde;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A small compacted topic held in memory: a thread reads it from the beginning by
 * assignment (no consumer group, so every API instance holds the whole topic), keeps the
 * latest value per key, and drops a key on its tombstone. While Kafka or the topic is
 * missing it keeps asking; it never creates the topic. A record that cannot be decoded is
 * copied to the topic's dead-letter topic ({@link OnDemandDeadLetters}, reader = the
 * client id) and skipped. The consumer's Kafka metrics are bound to Micrometer
 * ({@link ClientMeters}).
 *
 * <p>
 * Subclasses may keep the highest revision of a key rather than the last record
 * ({@link #accept}), hear each change ({@link #changed}), apply their own writes at once
 * for read-your-writes ({@link #remember}, {@link #forget}), and wait until the topic has
 * been read to its end as it was at start ({@link #awaitLoaded}).
 *
 * @param <V> the Avro record type of the values
 */
public abstract class CompactedTopicView<V extends SpecificRecord> implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CompactedTopicView.class);

    private final String bootstrapServers;

    private final String topic;

    private final String clientId;

    private final AvroSerde<V> serde;

    private final Map<String, V> values = new ConcurrentHashMap<>();

    private volatile KafkaConsumer<String, byte[]> consumer;

    private volatile boolean running;

    private Thread thread;

    private final CountDownLatch loaded = new CountDownLatch(1);

    private final OnDemandDeadLetters deadLetters;

    private final MeterRegistry meters;

    private volatile KafkaClientMetrics clientMetrics;

    private Map<TopicPartition, Long> loadTarget;

    private final Queue<CompletableFuture<Void>> catchUps = new ConcurrentLinkedQueue<>();

    private final Map<CompletableFuture<Void>, Map<TopicPartition, Long>> catchUpTargets = new HashMap<>();

    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param topic the compacted topic
     * @param clientId client id, also the reader thread's name prefix
     * @param type the value's generated Avro class
     * @param meters where the consumer's Kafka metrics and the dead-letter counter go:
     * the service's registry
     * @throws NullPointerException if {@code meters} is null
     */
    protected CompactedTopicView(String bootstrapServers, String topic, String clientId, Class<V> type,
            MeterRegistry meters) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.clientId = clientId;
        this.serde = AvroSerde.of(type);
        this.meters = Objects.requireNonNull(meters, "meters");
        this.deadLetters = new OnDemandDeadLetters(bootstrapServers, clientId, meters);
        deadLetters.registerAtStart(List.of(topic));
    }

    /**
     * @return the latest value of every key, in no particular order
     */
    protected List<V> values() {
        return List.copyOf(values.values());
    }

    /**
     * @param key a record key
     * @return its latest value, if any
     */
    protected Optional<V> value(String key) {
        return Optional.ofNullable(values.get(key));
    }

    /**
     * Whether an incoming value replaces the one held for its key; by default always (the
     * topic's last record wins).
     * @param key the key
     * @param existing the value held, or null
     * @param incoming the new value, or null for a tombstone
     * @return true to take the incoming value
     */
    protected boolean accept(String key, V existing, V incoming) {
        return true;
    }

    /**
     * Hears a change of a key, after it is applied: from the topic (reader thread) or
     * from {@link #remember}/{@link #forget} (the caller's thread). Must return quickly.
     * @param key the key
     * @param value its new value, or null if it was removed
     */
    protected void changed(String key, V value) {
    }

    /**
     * Applies a value this process has just written to the topic, so it is visible before
     * the reader gets to it (subject to {@link #accept}).
     * @param key the key
     * @param value the value written
     */
    protected final void remember(String key, V value) {
        update(key, value);
    }

    /**
     * Applies a tombstone this process has just written to the topic.
     * @param key the key
     */
    protected final void forget(String key) {
        update(key, null);
    }

    private void update(String key, V incoming) {
        boolean applied;
        synchronized (values) {
            V existing = values.get(key);
            applied = accept(key, existing, incoming);
            if (applied) {
                if (incoming == null) {
                    values.remove(key);
                }
                else {
                    values.put(key, incoming);
                }
            }
        }
        if (applied) {
            changed(key, incoming);
        }
    }

    /**
     * Waits until the reader has read every record the topic held when the reader was
     * assigned.
     * @param timeout how long to wait
     * @return whether it has
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitLoaded(Duration timeout) throws InterruptedException {
        return loaded.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * @return whether the topic has been read to its end as it was at the reader's
     * assignment
     */
    public boolean isLoaded() {
        return loaded.getCount() == 0;
    }

    /**
     * Waits until the reader has read every record the topic holds now (its end offsets
     * when the reader next looks): a read barrier after another process wrote.
     * @param timeout how long to wait
     * @return whether it has
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        CompletableFuture<Void> f = new CompletableFuture<>();
        catchUps.add(f);
        try {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        }
        catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /**
     * On the reader thread: fixes the end offsets of new catch-up requests and completes
     * those reached.
     */
    private void checkCaughtUp() {
        if (loadTarget == null) {
            return;
        }
        for (CompletableFuture<Void> f; (f = catchUps.poll()) != null;) {
            catchUpTargets.put(f, consumer.endOffsets(loadTarget.keySet(), Duration.ofSeconds(10)));
        }
        catchUpTargets.entrySet().removeIf(e -> {
            for (Map.Entry<TopicPartition, Long> t : e.getValue().entrySet()) {
                if (consumer.position(t.getKey(), Duration.ofSeconds(10)) < t.getValue()) {
                    return e.getKey().isDone();
                }
            }
            e.getKey().complete(null);
            return true;
        });
    }

    @Override
    public void start() {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, clientId, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest", ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false), new StringDeserializer(),
                new ByteArrayDeserializer());
        clientMetrics = ClientMeters.bind(consumer, meters);
        running = true;
        thread = new Thread(this::run, clientId + "-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running && !assign()) {
                Thread.sleep(1000);
            }
            while (running) {
                try {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        apply(r);
                    }
                    checkLoaded();
                    checkCaughtUp();
                }
                catch (KafkaException e) {
                    if (e instanceof WakeupException) {
                        throw e;
                    }
                    log.warn("{} reader: {}; retrying", topic, e.getMessage());
                    Thread.sleep(1000);
                }
            }
        }
        catch (WakeupException | InterruptedException e) {
            // stopping
        }
        catch (RuntimeException e) {
            log.error("{} reader stopped", topic, e);
        }
        finally {
            ClientMeters.close(clientMetrics);
            consumer.close(Duration.ofSeconds(5));
            deadLetters.close();
        }
    }

    private boolean assign() {
        Optional<List<TopicPartition>> partitions = TopicAssignment.assignAll(consumer, topic);
        if (partitions.isEmpty()) {
            return false;
        }
        consumer.seekToBeginning(partitions.get());
        loadTarget = consumer.endOffsets(partitions.get(), Duration.ofSeconds(10));
        checkLoaded();
        return true;
    }

    private void checkLoaded() {
        if (loaded.getCount() == 0 || loadTarget == null) {
            return;
        }
        for (Map.Entry<TopicPartition, Long> e : loadTarget.entrySet()) {
            if (consumer.position(e.getKey(), Duration.ofSeconds(10)) < e.getValue()) {
                return;
            }
        }
        loaded.countDown();
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        if (r.key() == null) {
            return;
        }
        if (r.value() == null) {
            update(r.key(), null);
            return;
        }
        V value;
        try {
            value = serde.deserialize(r.topic(), r.value());
        }
        catch (RuntimeException e) {
            deadLetters.send(r, r.key().getBytes(StandardCharsets.UTF_8), r.value(), DeadLetters.Reason.UNDECODABLE, e);
            return;
        }
        update(r.key(), value);
    }

    @Override
    public void stop() {
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(10_000);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

}
