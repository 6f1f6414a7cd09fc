package io.chainfeed.ingest.publish;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes each call's records in one Kafka transaction, so a request's records become
 * visible to {@code read_committed} readers all together or not at all, and answers by a
 * deadline with the truth.
 *
 * <p>
 * A fixed pool of transactional producers; producer {@code i} has
 * {@code transactional.id} = {@code <prefix>-<i>}. The prefix names the ingest instance
 * and must stay the same across its restarts and differ between instances running at
 * once: a restarted instance's {@code initTransactions} then fences the producers of its
 * previous life (a zombie's commit is refused) and aborts what they left open.
 *
 * <p>
 * A transaction runs on a worker thread in three states: SENDING (records sent,
 * acknowledgements awaited), COMMITTING (every record acknowledged, the commit requested)
 * and done. The caller waits until its deadline; if the transaction is still SENDING
 * then, it is cancelled: the commit is never requested, the producer is closed and
 * replaced by a new one with the same {@code transactional.id}, whose
 * {@code initTransactions} aborts the open transaction on the coordinator. So:
 * <ul>
 * <li>return: committed, visible to {@code read_committed} readers;</li>
 * <li>{@link PublishException}: aborted or never begun, never visible;</li>
 * <li>{@link PublishOutcomeUnknownException}: the deadline passed in COMMITTING (Kafka
 * stalled in the few milliseconds between the commit request and its answer); the worker
 * keeps committing and logs and counts the outcome.</li>
 * </ul>
 * A producer that fails in any way is replaced the same way, in the background, retrying
 * until Kafka answers; callers that find no ready producer by their deadline get a
 * {@link PublishException}.
 *
 * <p>
 * Meters: {@code chainfeed_ingest_transactions_total{outcome}} (committed, aborted,
 * unknown, committed_late, failed_late), {@code chainfeed_ingest_producers_ready}.
 */
public final class KafkaTransactions implements RecordSink, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaTransactions.class);

    /**
     * How long a commit whose caller has gone is still retried before the producer is
     * replaced.
     */
    private static final Duration LATE_COMMIT_LIMIT = Duration.ofSeconds(60);

    private enum State {

        SENDING, COMMITTING, COMMITTED, ABORTED, CANCELLED

    }

    private final String prefix;

    private final Function<String, Producer<String, byte[]>> factory;

    private final RecordLimits limits;

    private final BlockingQueue<Slot> ready = new LinkedBlockingQueue<>();

    private final ExecutorService workers;

    private final ScheduledExecutorService repairs;

    /**
     * The outcomes {@code chainfeed_ingest_transactions_total} counts, each registered at
     * start.
     */
    static final List<String> TRANSACTION_OUTCOMES = List.of("committed", "aborted", "unknown", "committed_late",
            "failed_late");

    private final MeterRegistry registry;

    private final AtomicInteger readyCount = new AtomicInteger();

    private volatile boolean closed;

    private final List<Slot> slots = new ArrayList<>();

    private static final class Slot {

        final String transactionalId;

        volatile Producer<String, byte[]> producer;

        volatile KafkaClientMetrics metrics;

        int failures;

        Slot(String transactionalId) {
            this.transactionalId = transactionalId;
        }

    }

    /**
     * Creates the pool and starts initialising its producers in the background
     * ({@link #awaitReady}).
     * @param prefix {@code transactional.id} prefix: stable per instance, unique among
     * running instances
     * @param size number of producers (concurrent transactions)
     * @param factory makes a transactional producer for a {@code transactional.id}, not
     * yet initialised; its {@code max.block.ms} bounds how long a commit or an
     * initialisation blocks a worker
     * @param limits topic size limits, checked before anything is sent; null to leave it
     * to Kafka
     * @param registry where the pool's meters go: the service's injected registry
     * @throws NullPointerException if {@code registry} is null
     */
    public KafkaTransactions(String prefix, int size, Function<String, Producer<String, byte[]>> factory,
            RecordLimits limits, MeterRegistry registry) {
        this.prefix = prefix;
        this.factory = factory;
        this.limits = limits;
        this.registry = Objects.requireNonNull(registry, "registry");
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(size, r -> daemon(r, "ingest-txn-" + n.incrementAndGet()));
        this.repairs = Executors.newScheduledThreadPool(1, r -> daemon(r, "ingest-txn-repair"));
        Gauge.builder("chainfeed.ingest.producers.ready", readyCount, AtomicInteger::get)
            .description("Transactional producers initialised and free for a request")
            .register(this.registry);
        TRANSACTION_OUTCOMES.forEach(this::counter); // at zero until used
        for (int i = 0; i < size; i++) {
            Slot s = new Slot(prefix + "-" + i);
            slots.add(s);
            repairs.execute(() -> repair(s));
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * @return the {@code transactional.id} prefix
     */
    public String prefix() {
        return prefix;
    }

    /**
     * Waits until at least one producer is ready.
     * @param timeout how long to wait
     * @return whether one is
     * @throws InterruptedException if interrupted
     */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (readyCount.get() == 0) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    @Override
    public void publish(List<ProducerRecord<String, byte[]>> records, Deadline deadline) {
        if (records.isEmpty()) {
            return;
        }
        if (limits != null) {
            limits.check(records);
        }
        Slot slot;
        try {
            slot = ready.poll(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted before publishing; nothing was published", e);
        }
        if (slot == null) {
            count("aborted");
            throw new PublishException("no Kafka producer was ready within the deadline; nothing was published");
        }
        readyCount.decrementAndGet();
        Transaction txn = new Transaction(slot, records, deadline);
        workers.execute(txn);
        try {
            txn.done.get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (txn.state.compareAndSet(State.SENDING, State.CANCELLED)) {
                count("aborted");
                throw new PublishException("Kafka did not acknowledge the records within the deadline; the"
                        + " transaction is aborted and nothing of it will be visible");
            }
            if (txn.state.get() == State.COMMITTING) {
                count("unknown");
                throw new PublishOutcomeUnknownException("Kafka did not confirm the commit within the deadline;"
                        + " the records may or may not become visible (posting them again is safe)");
            }
            awaitQuietly(txn.done);
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof PublishException p) {
                throw p;
            }
            throw new PublishException("publishing failed: " + e.getCause(), e.getCause());
        }
    }

    private static void awaitQuietly(CompletableFuture<Void> done) {
        try {
            done.get();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted", e);
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof PublishException p) {
                throw p;
            }
            throw new PublishException("publishing failed: " + e.getCause(), e.getCause());
        }
    }

    private final class Transaction implements Runnable {

        final Slot slot;

        final List<ProducerRecord<String, byte[]>> records;

        final Deadline deadline;

        final AtomicReference<State> state = new AtomicReference<>(State.SENDING);

        final CompletableFuture<Void> done = new CompletableFuture<>();

        Transaction(Slot slot, List<ProducerRecord<String, byte[]>> records, Deadline deadline) {
            this.slot = slot;
            this.records = records;
            this.deadline = deadline;
        }

        @Override
        public void run() {
            Producer<String, byte[]> p = slot.producer;
            try {
                p.beginTransaction();
                List<Future<RecordMetadata>> sends = new ArrayList<>(records.size());
                for (ProducerRecord<String, byte[]> r : records) {
                    sends.add(p.send(r));
                }
                for (Future<RecordMetadata> f : sends) {
                    f.get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS);
                    if (state.get() == State.CANCELLED) {
                        replace(slot);
                        return;
                    }
                }
            }
            catch (Exception e) {
                // Nothing committed: the commit is requested only below. The replacement
                // aborts what is open.
                boolean mine = state.compareAndSet(State.SENDING, State.ABORTED);
                replace(slot);
                if (mine) {
                    Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                    if (cause instanceof RecordTooLargeException) {
                        count("aborted");
                        done.completeExceptionally(new OversizedRecordException(records.get(0).topic(),
                                RecordLimits.sizeOf(records.get(0)),
                                limits == null ? -1 : limits.refresh(records.get(0).topic())));
                    }
                    else {
                        count("aborted");
                        done.completeExceptionally(
                                new PublishException(
                                        "Kafka did not acknowledge the records ("
                                                + (cause instanceof TimeoutException ? "no answer within the deadline"
                                                        : cause)
                                                + "); the transaction is aborted and nothing of it will be visible",
                                        cause));
                    }
                }
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            if (!state.compareAndSet(State.SENDING, State.COMMITTING)) {
                replace(slot);
                return;
            }
            long start = System.nanoTime();
            while (true) {
                try {
                    p.commitTransaction();
                    boolean late = done.isDone() || deadline.expired();
                    state.set(State.COMMITTED);
                    if (late) {
                        log.warn("transaction {} committed after its caller's deadline", slot.transactionalId);
                        count("committed_late");
                    }
                    else {
                        count("committed");
                    }
                    done.complete(null);
                    slot.failures = 0;
                    release(slot);
                    return;
                }
                catch (org.apache.kafka.common.errors.TimeoutException e) {
                    if (System.nanoTime() - start > LATE_COMMIT_LIMIT.toNanos() || closed) {
                        log.error("transaction {}: commit unconfirmed after {}; replacing the producer",
                                slot.transactionalId, LATE_COMMIT_LIMIT);
                        count("failed_late");
                        done.completeExceptionally(
                                new PublishOutcomeUnknownException("Kafka did not confirm the commit"));
                        replace(slot);
                        return;
                    }
                    // commitTransaction may be called again after a timeout: it goes on
                    // waiting.
                }
                catch (RuntimeException e) {
                    log.error("transaction {}: commit failed after it was requested: {}", slot.transactionalId,
                            e.toString());
                    count("failed_late");
                    done.completeExceptionally(new PublishOutcomeUnknownException(
                            "Kafka refused the commit after it was requested (" + e + ")"));
                    replace(slot);
                    return;
                }
            }
        }

    }

    private void release(Slot slot) {
        if (closed) {
            closeQuietly(slot.producer);
            return;
        }
        readyCount.incrementAndGet();
        ready.add(slot);
    }

    /**
     * Closes the slot's producer at once and makes a new one with the same
     * transactional.id (fencing).
     */
    private void replace(Slot slot) {
        Producer<String, byte[]> old = slot.producer;
        slot.producer = null;
        if (slot.metrics != null) {
            slot.metrics.close();
            slot.metrics = null;
        }
        if (old != null) {
            closeQuietly(old);
        }
        if (!closed) {
            repairs.execute(() -> repair(slot));
        }
    }

    private void repair(Slot slot) {
        if (closed) {
            return;
        }
        Producer<String, byte[]> p = null;
        try {
            p = factory.apply(slot.transactionalId);
            p.initTransactions();
            slot.producer = p;
            slot.metrics = new KafkaClientMetrics(p);
            slot.metrics.bindTo(registry);
            slot.failures = 0;
            release(slot);
            log.debug("transactional producer {} ready", slot.transactionalId);
        }
        catch (RuntimeException e) {
            if (p != null) {
                closeQuietly(p);
            }
            slot.failures++;
            long backoff = Math.min(1_000, 100L << Math.min(slot.failures, 4));
            log.warn("transactional producer {} not ready ({}); retrying in {} ms", slot.transactionalId, e.toString(),
                    backoff);
            if (!closed) {
                repairs.schedule(() -> repair(slot), backoff, TimeUnit.MILLISECONDS);
            }
        }
    }

    private static void closeQuietly(Producer<String, byte[]> p) {
        try {
            p.close(Duration.ZERO);
        }
        catch (RuntimeException e) {
            log.debug("closing a producer: {}", e.toString());
        }
    }

    private void count(String outcome) {
        counter(outcome).increment();
    }

    private Counter counter(String outcome) {
        return Counter.builder("chainfeed.ingest.transactions")
            .description("Ingest request transactions by outcome")
            .tag("outcome", outcome)
            .register(registry);
    }

    @Override
    public void close() {
        closed = true;
        workers.shutdown();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        repairs.shutdownNow();
        for (Slot s : slots) {
            Producer<String, byte[]> p = s.producer;
            if (p != null) {
                try {
                    p.close(Duration.ofSeconds(2));
                }
                catch (RuntimeException e) {
                    log.debug("closing a producer: {}", e.toString());
                }
            }
        }
    }

}
