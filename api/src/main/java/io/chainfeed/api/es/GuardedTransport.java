package io.chainfeed.api.es;

import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.Endpoint;
import co.elastic.clients.transport.TransportOptions;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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
 * The bulkhead bounds the requests in flight to Elasticsearch at once. A request beyond
 * that waits for a slot up to the bulkhead's maximum wait (the queue deadline), then
 * fails with {@link BulkheadFullException}: the api is busy, not Elasticsearch down, so
 * it neither counts against the breaker nor waits on a socket. Requests no longer queue
 * inside the HTTP client, where the socket timeout would have measured the queue and
 * reported a busy but healthy Elasticsearch as unreachable.
 */
public final class GuardedTransport implements ElasticsearchTransport {

    private final ElasticsearchTransport delegate;

    private final CircuitBreaker breaker;

    private final Bulkhead bulkhead;

    /**
     * @param delegate the real transport (with short connect and socket timeouts); closed
     * with this one
     * @param breaker the breaker
     * @param bulkhead the bound on concurrent requests, with its queue deadline
     */
    public GuardedTransport(ElasticsearchTransport delegate, CircuitBreaker breaker, Bulkhead bulkhead) {
        this.delegate = delegate;
        this.breaker = breaker;
        this.bulkhead = bulkhead;
    }

    /**
     * @return the bulkhead, for tests
     */
    public Bulkhead bulkhead() {
        return bulkhead;
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
        try {
            bulkhead.acquirePermission();
        }
        catch (BulkheadFullException e) {
            breaker.releasePermission(); // busy here says nothing about Elasticsearch
            throw e;
        }
        long start = System.nanoTime();
        try {
            ResponseT r = delegate.performRequest(request, endpoint, options);
            breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return r;
        }
        catch (IOException | RuntimeException e) {
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
            throw e;
        }
        finally {
            bulkhead.onComplete();
        }
    }

    @Override
    public <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> performRequestAsync(RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) {
        if (!breaker.tryAcquirePermission()) {
            return CompletableFuture.failedFuture(CallNotPermittedException.createCallNotPermittedException(breaker));
        }
        // no waiting on the caller's thread for an async request
        if (!bulkhead.tryAcquirePermission()) {
            breaker.releasePermission();
            return CompletableFuture.failedFuture(BulkheadFullException.createBulkheadFullException(bulkhead));
        }
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
        return sent.whenComplete((r, e) -> {
            bulkhead.onComplete();
            if (e == null) {
                breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
            else {
                breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS,
                        e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause()
                                : e);
            }
        });
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
        delegate.close();
    }

}
