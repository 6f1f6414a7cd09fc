package io.chainfeed.api.es;

import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.Endpoint;
import co.elastic.clients.transport.TransportOptions;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An Elasticsearch transport behind a Resilience4j {@link CircuitBreaker}: every request of the api's
 * Elasticsearch client (search, get, point in time, the catalog) goes through it. While the breaker is
 * open a request fails at once with {@link CallNotPermittedException} instead of waiting for a socket
 * timeout, so the api answers 503 without delay; the breaker lets a few requests through after its wait
 * to find out whether Elasticsearch is back. Only transport failures and timeouts count against
 * Elasticsearch: an error answer ({@code ElasticsearchException}: 404, 400 ...) is an answer.
 */
public final class GuardedTransport implements ElasticsearchTransport {
    private final ElasticsearchTransport delegate;
    private final CircuitBreaker breaker;

    /**
     * @param delegate the real transport (with short connect and socket timeouts); closed with this one
     * @param breaker  the breaker
     */
    public GuardedTransport(ElasticsearchTransport delegate, CircuitBreaker breaker) {
        this.delegate = delegate;
        this.breaker = breaker;
    }

    /** @return the breaker, for health and tests */
    public CircuitBreaker breaker() {
        return breaker;
    }

    @Override
    public <RequestT, ResponseT, ErrorT> ResponseT performRequest(RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) throws IOException {
        breaker.acquirePermission();
        long start = System.nanoTime();
        try {
            ResponseT r = delegate.performRequest(request, endpoint, options);
            breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return r;
        } catch (IOException | RuntimeException e) {
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, e);
            throw e;
        }
    }

    @Override
    public <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> performRequestAsync(RequestT request,
            Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) {
        if (!breaker.tryAcquirePermission()) {
            return CompletableFuture.failedFuture(CallNotPermittedException.createCallNotPermittedException(breaker));
        }
        long start = System.nanoTime();
        return delegate.performRequestAsync(request, endpoint, options).whenComplete((r, e) -> {
            if (e == null) {
                breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            } else {
                breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS,
                        e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e);
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
