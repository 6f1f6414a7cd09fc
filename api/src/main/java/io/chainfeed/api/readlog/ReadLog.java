package io.chainfeed.api.readlog;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.support.kafka.TopicAssignment;
import io.chainfeed.api.support.settings.ApiProperties;
import io.chainfeed.avro.Read;
import io.chainfeed.platform.kafka.ClientMeters;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.platform.kafka.OnDemandDeadLetters;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The reads log ({@value Topics#READS}) as a stream that many readers follow from where
 * each of them is.
 *
 * <p>
 * One tail consumer (read_committed, partitions assigned, no consumer group, so every API
 * instance reads the whole log) starts at the log's end and hands each batch to every
 * live subscription. A reader that resumes from an earlier {@link LogPosition} is first
 * replayed from Kafka by one of a few replay workers (each with its own consumer, seeking
 * to the reader's offsets), paced by the reader's free buffer, and then handed over to
 * the tail ({@link FanOut}) with no gap and no duplicate. A reader already at the tail's
 * position skips the replay. A slow reader never holds up the tail or the others: its
 * listener refuses records when its own bounded buffer is full, and the subscription is
 * closed ({@link ReadListener.CloseReason#OVERFLOW}); the reader resumes from its last
 * position.
 *
 * <p>
 * Compaction may remove records between two offsets a reader has; that is fine, a later
 * version of the same key follows. Tombstones reach every subscriber as deletions.
 * Unreadable records are logged and skipped. The partitions are read once, at start.
 */
@Component
public class ReadLog implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ReadLog.class);

    /** Starts before, and stops after, the SSE streams that use it. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 100;

    private final String bootstrapServers;

    private final String topic;

    private final int replayWorkers;

    private final Duration replayStallTimeout;

    private final AvroSerde<Read> serde = AvroSerde.of(Read.class);

    private final FanOut fanOut = new FanOut();

    private final BlockingQueue<Subscription> replays = new LinkedBlockingQueue<>();

    private final AtomicInteger replaying = new AtomicInteger();

    /** Readers being replayed whose buffer is full, and since when (System.nanoTime). */
    private final Map<Subscription, Long> stalledSince = new ConcurrentHashMap<>();

    private final List<Thread> threads = new ArrayList<>();

    private final List<KafkaConsumer<?, ?>> consumers = new ArrayList<>();

    private final Map<KafkaConsumer<?, ?>, KafkaClientMetrics> clientMetrics = new HashMap<>();

    private final MeterRegistry meters;

    private final OnDemandDeadLetters deadLetters;

    private final AtomicLong tailLag = new AtomicLong(-1);

    private volatile int partitionCount = -1;

    private volatile boolean running;

    /**
     * @param kafka Kafka bootstrap servers
     * @param props the feed's replay workers (how many replays run at once, each holding
     * one Kafka consumer) and replay stall timeout (how long a replay waits for a full
     * reader before closing it)
     * @param meters where the subscriber gauges, the consumers' Kafka metrics and the
     * dead-letter counter go: the service's registry
     */
    @Autowired
    ReadLog(KafkaConnectionProperties kafka, ApiProperties props, MeterRegistry meters) {
        this(kafka.bootstrapServers(), Topics.READS, props.feed().replayWorkers(), props.feed().replayStallTimeout(),
                meters);
        Gauge.builder("chainfeed.feed.subscribers", fanOut, FanOut::liveCount)
            .description("readers following the reads log live")
            .register(meters);
        Gauge.builder("chainfeed.feed.replays", replaying, AtomicInteger::get)
            .description("readers being replayed from Kafka")
            .register(meters);
        Gauge.builder("chainfeed.read.log.lag", tailLag, AtomicLong::get)
            .description("records of the reads topic the read log's tail has not read yet (-1: unknown)")
            .baseUnit("records")
            .register(meters);
    }

    ReadLog(String bootstrapServers, String topic, int replayWorkers, Duration replayStallTimeout,
            MeterRegistry meters) {
        if (replayWorkers < 1) {
            throw new IllegalArgumentException("replay-workers must be at least 1");
        }
        this.bootstrapServers = bootstrapServers;
        this.meters = Objects.requireNonNull(meters, "meters");
        this.deadLetters = new OnDemandDeadLetters(bootstrapServers, "api-read-log", meters);
        deadLetters.registerAtStart(List.of(topic));
        this.topic = topic;
        this.replayWorkers = replayWorkers;
        this.replayStallTimeout = replayStallTimeout;
    }

    /**
     * Follows the log.
     * @param fromOrNull where the reader is (records before it count as seen), or null to
     * start at the log's end now
     * @param selector which reads the listener gets (deletions it always gets)
     * @param listener where records go; {@link ReadListener#onStart} is called first
     * @return the subscription; close it when the reader goes
     * @throws InvalidEventIdException if the position names a partition the log does not
     * have
     */
    public Subscription subscribe(LogPosition fromOrNull, Selector selector, ReadListener listener) {
        if (fromOrNull != null) {
            requireKnownPartitions(fromOrNull);
        }
        Subscription s = new Subscription(fromOrNull == null ? LogPosition.start() : fromOrNull, selector, listener,
                this::forget);
        if (fromOrNull == null) {
            fanOut.subscribeAtTail(s);
        }
        else {
            listener.onStart(fromOrNull);
            if (!fanOut.goLive(s)) {
                replaying.incrementAndGet();
                replays.add(s);
            }
        }
        return s;
    }

    /**
     * Where a client asks to resume an SSE stream, checked before the stream starts.
     * @param lastEventIdHeader the {@code Last-Event-ID} header (wins when not blank),
     * may be null
     * @param lastEventIdParam the {@code lastEventId} query parameter, may be null
     * @return the position, or null when neither is given (start at the log's end)
     * @throws InvalidEventIdException if the id is malformed or names a partition the log
     * does not have
     */
    public LogPosition resumePosition(String lastEventIdHeader, String lastEventIdParam) {
        String id = lastEventIdHeader != null && !lastEventIdHeader.isBlank() ? lastEventIdHeader : lastEventIdParam;
        if (id == null || id.isBlank()) {
            return null;
        }
        LogPosition from = LogPosition.parse(id.strip());
        requireKnownPartitions(from);
        return from;
    }

    private void requireKnownPartitions(LogPosition from) {
        int partitions = partitionCount;
        if (partitions > 0 && from.partitionLimit() > partitions) {
            throw new InvalidEventIdException("the event id names partition " + (from.partitionLimit() - 1) + ", but "
                    + topic + " has " + partitions + " partitions");
        }
    }

    private void forget(Subscription s) {
        fanOut.remove(s);
        stalledSince.remove(s);
        if (replays.remove(s)) {
            replaying.decrementAndGet();
        }
    }

    /**
     * @return the tail's position (every record before it has gone to the live readers),
     * once known
     */
    public Optional<LogPosition> end() {
        return Optional.ofNullable(fanOut.tail());
    }

    /**
     * @return how many readers follow the tail now
     */
    public int liveSubscribers() {
        return fanOut.liveCount();
    }

    /**
     * @return how many readers are being (or wait to be) replayed from Kafka
     */
    public int replayingSubscribers() {
        return replaying.get();
    }

    @Override
    public void start() {
        running = true;
        Thread tail = new Thread(this::tail, "read-log-tail");
        tail.setDaemon(true);
        threads.add(tail);
        for (int i = 0; i < replayWorkers; i++) {
            Thread t = new Thread(this::replayWorker, "read-log-replay-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    @Override
    public void stop() {
        running = false;
        synchronized (consumers) {
            consumers.forEach(KafkaConsumer::wakeup);
        }
        for (Thread t : threads) {
            t.interrupt();
            try {
                t.join(10_000);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
        for (Subscription s : fanOut.live()) {
            s.end(ReadListener.CloseReason.SHUTDOWN);
        }
        for (Subscription s; (s = replays.poll()) != null;) {
            s.end(ReadListener.CloseReason.SHUTDOWN);
        }
        deadLetters.close();
    }

    /**
     * @return the tail's position (every record before it has been handed out), or null
     * before it started
     */
    public LogPosition tailPosition() {
        return fanOut.tail();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private KafkaConsumer<String, byte[]> consumer(String clientId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 200);
        KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer());
        synchronized (consumers) {
            consumers.add(c);
            clientMetrics.put(c, ClientMeters.bind(c, meters));
        }
        return c;
    }

    private void closeConsumer(KafkaConsumer<?, ?> c) {
        synchronized (consumers) {
            consumers.remove(c);
            ClientMeters.close(clientMetrics.remove(c));
        }
        // stop() interrupts the tail, and a consumer closed on an interrupted thread
        // gives
        // up part-way and logs an ERROR ("Failed to close fetcher") on every clean
        // shutdown: the flag is set aside while it closes and restored after.
        boolean interrupted = Thread.interrupted();
        try {
            c.close(Duration.ofSeconds(5));
        }
        catch (RuntimeException e) {
            log.debug("closing a consumer: {}", e.getMessage());
        }
        finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- the tail
    // ----------------------------------------------------------------------------------

    private void tail() {
        KafkaConsumer<String, byte[]> consumer = consumer("chainfeed-api-read-log-tail");
        try {
            Optional<List<TopicPartition>> assigned;
            while ((assigned = TopicAssignment.assignAll(consumer, topic)).isEmpty()) {
                Thread.sleep(1000);
            }
            List<TopicPartition> partitions = assigned.get();
            consumer.seekToEnd(partitions);
            LogPosition position = position(consumer, partitions);
            partitionCount = partitions.size();
            fanOut.ready(position);
            log.info("{} tail starts at {}", topic, position);
            while (running) {
                try {
                    ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(500));
                    List<ReadEvent> batch = new ArrayList<>(records.count());
                    for (ConsumerRecord<String, byte[]> r : records) {
                        ReadEvent e = event(r, true);
                        if (e != null) {
                            batch.add(e);
                        }
                    }
                    LogPosition after = position(consumer, partitions);
                    tailLag.set(lag(consumer, partitions));
                    if (!batch.isEmpty() || !after.equals(position)) {
                        fanOut.dispatch(batch, after);
                        position = after;
                    }
                }
                catch (WakeupException | InterruptException e) {
                    throw e;
                }
                catch (KafkaException e) {
                    log.warn("{} tail: {}; retrying", topic, e.getMessage());
                    Thread.sleep(1000);
                }
            }
        }
        catch (WakeupException | InterruptException | InterruptedException e) {
            // stopping
        }
        catch (RuntimeException e) {
            log.error("{} tail stopped", topic, e);
        }
        finally {
            closeConsumer(consumer);
        }
    }

    private static LogPosition position(KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions) {
        long[] next = new long[partitions.stream().mapToInt(TopicPartition::partition).max().orElse(-1) + 1];
        for (TopicPartition tp : partitions) {
            next[tp.partition()] = consumer.position(tp);
        }
        return LogPosition.ofArray(next);
    }

    /**
     * Records the tail has not read yet, from the consumer's last fetch (no broker call);
     * -1 if unknown.
     */
    private static long lag(KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions) {
        long sum = 0;
        for (TopicPartition tp : partitions) {
            OptionalLong l = consumer.currentLag(tp);
            if (l.isEmpty()) {
                return -1;
            }
            sum += l.getAsLong();
        }
        return sum;
    }

    /**
     * @param deadLetter whether an undecodable record is copied to the dead-letter topic:
     * the tail's job, which reads each record once; replays read the same records again
     * and only skip
     */
    private ReadEvent event(ConsumerRecord<String, byte[]> r, boolean deadLetter) {
        if (r.key() == null) {
            return null;
        }
        Read read = null;
        if (r.value() != null) {
            try {
                read = serde.deserialize(r.topic(), r.value());
            }
            catch (RuntimeException e) {
                if (deadLetter) {
                    deadLetters.send(r, r.key().getBytes(StandardCharsets.UTF_8), r.value(),
                            DeadLetters.Reason.UNDECODABLE, e);
                }
                else {
                    log.debug("replay skips an undecodable record at {}", DeadLetters.origin(r));
                }
                return null;
            }
        }
        return new ReadEvent(r.partition(), r.offset(), r.key(), read, r.timestamp());
    }

    // ---- replays
    // -----------------------------------------------------------------------------------

    private void replayWorker() {
        KafkaConsumer<String, byte[]> consumer = null;
        try {
            while (running) {
                Subscription s = replays.poll(500, TimeUnit.MILLISECONDS);
                if (s == null) {
                    continue;
                }
                try {
                    if (consumer == null) {
                        consumer = consumer("chainfeed-api-read-log-" + Thread.currentThread().getName());
                    }
                    if (replay(consumer, s)) {
                        // The reader's buffer is full: serve the others and come back to
                        // it (a short pause so
                        // that a lone full reader does not spin this thread).
                        replays.add(s);
                        Thread.sleep(5);
                        continue;
                    }
                }
                catch (KafkaException e) {
                    if (e instanceof WakeupException || e instanceof InterruptException) {
                        throw e;
                    }
                    log.warn("replay failed ({}); trying again", e.getMessage());
                    closeConsumer(consumer);
                    consumer = null;
                    if (!s.isClosed()) {
                        replays.add(s);
                        continue;
                    }
                    Thread.sleep(500);
                }
                replaying.decrementAndGet();
            }
        }
        catch (WakeupException | InterruptException | InterruptedException e) {
            // stopping
        }
        catch (RuntimeException e) {
            log.error("replay worker stopped", e);
        }
        finally {
            if (consumer != null) {
                closeConsumer(consumer);
            }
        }
    }

    /**
     * Feeds {@code s} from Kafka until it has caught up with the tail, then hands it
     * over.
     * @return true if the reader's buffer filled up first: the caller queues it again and
     * serves the other readers meanwhile, so one reader that stopped reading (or went
     * away unnoticed) never holds up a replay worker; a reader full for longer than the
     * stall timeout is closed
     */
    private boolean replay(KafkaConsumer<String, byte[]> consumer, Subscription s) throws InterruptedException {
        LogPosition target;
        while ((target = fanOut.tail()) == null) {
            if (s.isClosed() || !running) {
                return false;
            }
            Thread.sleep(100);
        }
        if (s.listener().capacity() <= 0) {
            return stalled(s);
        }
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < target.partitionLimit(); p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        consumer.assign(partitions);
        LogPosition from = s.position();
        for (TopicPartition tp : partitions) {
            consumer.seek(tp, from.next(tp.partition()));
        }
        while (running && !s.isClosed()) {
            if (caughtUp(consumer, partitions, fanOut.tail())) {
                // Every record the consumer returned has been offered; what lies between
                // them and its
                // position are transaction markers or aborted records: count them as
                // seen.
                s.skipTo(positionOf(consumer, partitions));
                if (fanOut.goLive(s)) {
                    stalledSince.remove(s);
                    return false;
                }
            }
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                ReadEvent e = event(r, false);
                if (e == null) {
                    continue;
                }
                if (s.listener().capacity() <= 0) {
                    // Records polled after this one are read again next time, from the
                    // reader's position.
                    return stalled(s);
                }
                if (!s.offer(List.of(e))) {
                    stalledSince.remove(s);
                    return false;
                }
                stalledSince.remove(s);
            }
        }
        stalledSince.remove(s);
        return false;
    }

    /**
     * A reader whose buffer is full: yield (true), or close it (false) once full beyond
     * the stall timeout.
     */
    private boolean stalled(Subscription s) {
        long since = stalledSince.computeIfAbsent(s, k -> System.nanoTime());
        if (System.nanoTime() - since > replayStallTimeout.toNanos()) {
            stalledSince.remove(s);
            s.end(ReadListener.CloseReason.STALLED);
            return false;
        }
        return !s.isClosed();
    }

    private static LogPosition positionOf(KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions) {
        long[] next = new long[partitions.size()];
        for (TopicPartition tp : partitions) {
            next[tp.partition()] = consumer.position(tp);
        }
        return LogPosition.ofArray(next);
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions, LogPosition tail) {
        for (TopicPartition tp : partitions) {
            if (consumer.position(tp) < tail.next(tp.partition())) {
                return false;
            }
        }
        return true;
    }

}
