package io.chainfeed.api.support.es;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.Endpoint;
import co.elastic.clients.transport.TransportOptions;
import io.chainfeed.api.support.server.Breakers;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
            new Breakers.Settings(4, 2, Duration.ofSeconds(60), Duration.ofSeconds(30), 1),
            ElasticsearchGuard::refusedRequest);

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
            if (failAfterRelease != null) {
                throw failAfterRelease;
            }
            return (ResponseT) "answer";
        }

        @Override
        public <RequestT, ResponseT, ErrorT> CompletableFuture<ResponseT> performRequestAsync(RequestT request,
                Endpoint<RequestT, ResponseT, ErrorT> endpoint, TransportOptions options) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return performRequest(request, endpoint, options);
                }
                catch (IOException e) {
                    throw new CompletionException(e);
                }
            }, io);
        }

        private final ExecutorService io = Executors.newCachedThreadPool();

        volatile IOException failAfterRelease;

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
        delegate.io.shutdownNow();
    }

    /** A transport whose liveness probe answers as told, asked after 100 ms. */
    private GuardedTransport probed(AtomicBoolean answers, AtomicInteger probes) {
        LivenessProbe probe = new LivenessProbe(() -> {
            probes.incrementAndGet();
            return answers.get();
        }, Duration.ofMillis(50), System::nanoTime);
        return new GuardedTransport(delegate, breaker, bulkhead, probe, Duration.ofMillis(100));
    }

    @Test
    void aSlowRequestOfALiveElasticsearchWaitsForItsAnswerAndCountsAsASuccess() throws Exception {
        AtomicInteger probes = new AtomicInteger();
        GuardedTransport slow = probed(new AtomicBoolean(true), probes);
        Future<Object> answer = callers.submit(() -> slow.performRequest(null, null, null));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(probes).hasPositiveValue());
        assertThat(answer).isNotDone();
        delegate.release.countDown();
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("answer");
        assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1);
        assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
        assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).isEqualTo(2);
    }

    @Test
    void aRequestToAnElasticsearchThatAnswersNoProbeFailsAtOnceAsATimeoutAndCounts() {
        GuardedTransport frozen = probed(new AtomicBoolean(false), new AtomicInteger());
        long start = System.nanoTime();
        assertThatThrownBy(() -> frozen.performRequest(null, null, null)).isInstanceOf(SocketTimeoutException.class)
            .hasMessageContaining("liveness probe");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not the 30 s the request would hang")
            .isLessThan(Duration.ofSeconds(10));
        assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
        assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).isEqualTo(2);
    }

    @Test
    void aSocketTimeoutOfALiveElasticsearchIsBusyAndLeavesTheBreakerAlone() {
        delegate.failAfterRelease = new SocketTimeoutException("30,000 milliseconds timeout");
        delegate.release.countDown();
        GuardedTransport loaded = probed(new AtomicBoolean(true), new AtomicInteger());
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> loaded.performRequest(null, null, null))
                .isInstanceOf(ElasticsearchBusyException.class);
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
        assertThat(bulkhead.getMetrics().getAvailableConcurrentCalls()).isEqualTo(2);
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
