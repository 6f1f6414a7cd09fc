package io.chainfeed.api.es;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.Endpoint;
import co.elastic.clients.transport.TransportOptions;
import io.chainfeed.api.server.Breakers;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The transport's two guards on a scripted transport: a full bulkhead answers busy after
 * its queue deadline without sending the request or counting against the breaker, and
 * failures of the transport still open the breaker and give their slots back.
 */
class GuardedTransportTest {

    private final ExecutorService callers = Executors.newFixedThreadPool(2);

    private final Scripted delegate = new Scripted();

    private final CircuitBreaker breaker = Breakers.create(new SimpleMeterRegistry(), "es-test",
            new Breakers.Settings(4, 2, Duration.ofSeconds(60), Duration.ofSeconds(30), 1));

    private final Bulkhead bulkhead = Bulkhead.of("es-test",
            BulkheadConfig.custom().maxConcurrentCalls(2).maxWaitDuration(Duration.ofMillis(200)).build());

    private final GuardedTransport transport = new GuardedTransport(delegate, breaker, bulkhead);

    /**
     * A transport that holds each request until released, or refuses the connection, as
     * told.
     */
    private static final class Scripted implements ElasticsearchTransport {

        final CountDownLatch release = new CountDownLatch(1);

        final CountDownLatch twoInFlight = new CountDownLatch(2);

        final AtomicInteger sent = new AtomicInteger();

        volatile boolean refuse;

        @Override
        @SuppressWarnings("unchecked")
        public <RequestT, ResponseT, ErrorT> ResponseT performRequest(RequestT request,
                Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) throws IOException {
            sent.incrementAndGet();
            if (refuse) {
                throw new ConnectException("Connection refused");
            }
            twoInFlight.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return (ResponseT) "answer";
        }

        @Override
        public <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> performRequestAsync(RequestT request,
                Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("not scripted"));
        }

        @Override
        public JsonpMapper jsonpMapper() {
            return null;
        }

        @Override
        public TransportOptions options() {
            return null;
        }

        @Override
        public void close() {
        }

    }

    @AfterEach
    void stop() {
        delegate.release.countDown();
        callers.shutdownNow();
    }

    private Object send() throws IOException {
        return transport.performRequest(null, null, null);
    }

    @Test
    void aRequestBeyondTheBulkheadIsBusyAfterItsQueueDeadlineAndTheBreakerStaysClosed() throws Exception {
        Future<Object> first = callers.submit(this::send);
        Future<Object> second = callers.submit(this::send);
        assertThat(delegate.twoInFlight.await(10, TimeUnit.SECONDS)).isTrue();

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(this::send).isInstanceOf(BulkheadFullException.class);
        }
        assertThat(delegate.sent).as("a busy request is never sent").hasValue(2);
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();

        delegate.release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("answer");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("answer");
        // the slots came back: a request goes through again
        assertThat(send()).isEqualTo("answer");
        assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).isEqualTo(2);
        assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(3);
        assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
    }

    @Test
    void refusedConnectionsStillOpenTheBreakerAndGiveTheirSlotsBack() {
        delegate.refuse = true;
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(this::send).isInstanceOf(ConnectException.class);
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).isEqualTo(2);
        assertThatThrownBy(this::send).isInstanceOf(CallNotPermittedException.class);
        assertThat(delegate.sent).as("an open breaker sends nothing").hasValue(2);
    }

}
