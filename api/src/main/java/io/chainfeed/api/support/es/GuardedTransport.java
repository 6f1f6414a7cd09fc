package io.chainfeed.api.support.es;

import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.Endpoint;
import co.elastic.clients.transport.TransportOptions;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * An Elasticsearch transport behind a Resilience4j {@link CircuitBreaker} and a
 * {@link Bulkhead}: every request of the api's Elasticsearch client (search, get, point
 * in time, the catalog) goes through both.
 *
 * <p>
 * The breaker comes first: while it is open a request fails at once with
 * {@link CallNotPermittedException} instead of waiting for a socket timeout, so the api
 * answers 503 without delay; it lets a few requests through after its wait to find out
 * whether Elasticsearch is back. Only transport failures and timeouts count against
 * Elasticsearch: an error answer ({@code ElasticsearchException}: 404, 400 ...) is an
 * answer.
 *
 * <p>
 * The bulkhead bounds the requests in flight to Elasticsearch at once, one bulkhead per
 * class of work ({@link EsLanes}): a flood of searches fills the search lane and no
 * other. A request beyond that waits for a slot up to the bulkhead's maximum wait (the
 * queue deadline), then fails with {@link BulkheadFullException}: the api is busy, not
 * Elasticsearch down, so it neither counts against the breaker nor waits on a socket.
 * Requests no longer queue inside the HTTP client, where the socket timeout would have
 * measured the queue and reported a busy but healthy Elasticsearch as unreachable.
 *
 * <p>
 * Slow is not down: a request still unanswered after {@code livenessAfter} makes the
 * transport ask Elasticsearch whether it is there at all ({@link LivenessProbe}). When it
 * answers, the request is left to finish within the client's socket timeout, and if even
 * that runs out it fails as {@link ElasticsearchBusyException} (503 {@code busy}), not
 * counted against the breaker; when it does not, the request is cancelled and fails at
 * once as a socket timeout (503 {@code search-unavailable}), counted. A frozen node is
 * therefore reported within {@code livenessAfter} plus the probe's timeout, while a node
 * that is merely slow is never reported unreachable.
 */
public final class GuardedTransport implements ElasticsearchTransport {

    private final ElasticsearchTransport delegate;

    private final CircuitBreaker breaker;

    private final Supplier<Bulkhead> bulkheads;

    private final LivenessProbe probe;

    private final Duration livenessAfter;

    private final ScheduledExecutorService watchdog;

    /**
     * A transport without the liveness check: a request waits for its answer up to the
     * client's socket timeout (for tests of the other guards).
     * @param delegate the real transport; closed with this one
     * @param breaker the breaker
     * @param bulkhead the bound on concurrent requests, with its queue deadline
     */
    public GuardedTransport(ElasticsearchTransport delegate, CircuitBreaker breaker, Bulkhead bulkhead) {
        this(delegate, breaker, bulkhead, new LivenessProbe(() -> true, Duration.ofDays(1), System::nanoTime),
                Duration.ofDays(1));
    }

    /**
     * @param delegate the real transport (its socket timeout is the longest a request of
     * a live Elasticsearch may take); closed with this one
     * @param breaker the breaker
     * @param bulkhead the bound on concurrent requests, with its queue deadline
     * @param probe asks whether Elasticsearch is there at all
     * @param livenessAfter how long a request may go unanswered before the probe is asked
     */
    public GuardedTransport(ElasticsearchTransport delegate, CircuitBreaker breaker, Bulkhead bulkhead,
            LivenessProbe probe, Duration livenessAfter) {
        this(delegate, breaker, () -> bulkhead, probe, livenessAfter);
    }

    /**
     * @param delegate the real transport (its socket timeout is the longest a request of
     * a live Elasticsearch may take); closed with this one
     * @param breaker the breaker
     * @param bulkheads the bulkhead of the calling thread's class of work, asked once per
     * request on the caller's thread ({@link EsLanes#current})
     * @param probe asks whether Elasticsearch is there at all
     * @param livenessAfter how long a request may go unanswered before the probe is asked
     */
    public GuardedTransport(ElasticsearchTransport delegate, CircuitBreaker breaker, Supplier<Bulkhead> bulkheads,
            LivenessProbe probe, Duration livenessAfter) {
        this.delegate = delegate;
        this.breaker = breaker;
        this.bulkheads = bulkheads;
        this.probe = probe;
        this.livenessAfter = livenessAfter;
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "es-liveness");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * @return the breaker, for health and tests
     */
    public CircuitBreaker breaker() {
        return breaker;
    }

    @Override
    public <RequestT, ResponseT, ErrorT> ResponseT performRequest(RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) throws IOException {
        breaker.acquirePermission();
        Bulkhead bulkhead = bulkheads.get();
        try {
            bulkhead.acquirePermission();
        }
        catch (BulkheadFullException e) {
            breaker.releasePermission(); // busy here says nothing about Elasticsearch
            throw e;
        }
        CompletableFuture<ResponseT> answer = send(request, endpoint, options, bulkhead);
        try {
            return answer.get();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answer.cancel(true);
            throw new InterruptedIOException("interrupted while waiting for Elasticsearch");
        }
        catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException rt) {
                throw rt;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }

    @Override
    public <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> performRequestAsync(RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) {
        if (!breaker.tryAcquirePermission()) {
            return CompletableFuture.failedFuture(CallNotPermittedException.createCallNotPermittedException(breaker));
        }
        // no waiting on the caller's thread for an async request
        Bulkhead bulkhead = bulkheads.get();
        if (!bulkhead.tryAcquirePermission()) {
            breaker.releasePermission();
            return CompletableFuture.failedFuture(BulkheadFullException.createBulkheadFullException(bulkhead));
        }
        return send(request, endpoint, options, bulkhead);
    }

    /**
     * Sends a request that holds a breaker permission and a bulkhead slot, watches it and
     * settles both when it completes.
     */
    private <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> send(RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options, Bulkhead bulkhead) {
        long start = System.nanoTime();
        CompletableFuture<ResponseT> sent;
        try {
            sent = delegate.performRequestAsync(request, endpoint, options);
        }
        catch (RuntimeException e) {
            bulkhead.onComplete();
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<ResponseT> answer = new CompletableFuture<>();
        AtomicBoolean settled = new AtomicBoolean();
        // The breaker and the bulkhead are settled before the answer completes, so a
        // caller that has its answer sees them settled; the first outcome wins.
        BiConsumer<ResponseT, Throwable> finish = (r, e) -> {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            bulkhead.onComplete();
            long took = System.nanoTime() - start;
            if (e == null) {
                breaker.onSuccess(took, TimeUnit.NANOSECONDS);
                answer.complete(r);
                return;
            }
            if (e instanceof ElasticsearchBusyException) {
                breaker.releasePermission(); // slow, not down
            }
            else {
                breaker.onError(took, TimeUnit.NANOSECONDS, e);
            }
            answer.completeExceptionally(e);
        };
        ScheduledFuture<?> check = watchdog.schedule(() -> {
            if (!sent.isDone() && !probe.alive()) {
                finish.accept(null, new SocketTimeoutException("Elasticsearch answered neither the request within "
                        + livenessAfter.toMillis() + " ms nor a liveness probe"));
                sent.cancel(true);
            }
        }, livenessAfter.toNanos(), TimeUnit.NANOSECONDS);
        sent.whenComplete((r, e) -> {
            check.cancel(false);
            if (e == null) {
                finish.accept(r, null);
                return;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof CancellationException) {
                return; // cancelled by the watchdog or the caller, which settled it
            }
            if (!timedOut(cause)) {
                finish.accept(null, cause);
                return;
            }
            // Slow or gone? The probe blocks (up to its timeout), so it runs on the
            // watchdog's thread, never on the HTTP client's I/O thread that completes
            // the request.
            Throwable timeout = cause;
            try {
                watchdog.execute(() -> finish.accept(null,
                        probe.alive() ? new ElasticsearchBusyException(
                                "Elasticsearch is answering but took longer than the client's socket timeout", timeout)
                                : timeout));
            }
            catch (RejectedExecutionException closed) {
                finish.accept(null, timeout);
            }
        });
        // a caller cancelling its answer cancels the request and gives its slot back
        answer.whenComplete((r, e) -> {
            if (e instanceof CancellationException) {
                if (settled.compareAndSet(false, true)) {
                    bulkhead.onComplete();
                    breaker.releasePermission();
                }
                sent.cancel(true);
            }
        });
        return answer;
    }

    /** Whether a failure is a socket timeout, as such or as the cause of one. */
    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public JsonpMapper jsonpMapper() {
        return delegate.jsonpMapper();
    }

    @Override
    public TransportOptions options() {
        return delegate.options();
    }

    @Override
    public void close() throws IOException {
        watchdog.shutdownNow();
        delegate.close();
    }

}
