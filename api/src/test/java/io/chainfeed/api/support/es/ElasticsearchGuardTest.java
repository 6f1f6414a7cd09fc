package io.chainfeed.api.support.es;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.ErrorResponse;
import io.chainfeed.api.support.server.Breakers;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The Elasticsearch breaker counts what says Elasticsearch is unwell (transport failures,
 * 5xx answers), never its refusal of a bad request (a 4xx answer).
 */
class ElasticsearchGuardTest {

    private static ElasticsearchException answer(int status) {
        return new ElasticsearchException("search",
                ErrorResponse.of(r -> r.status(status).error(e -> e.type("test").reason("status " + status))));
    }

    private static CircuitBreaker breaker() {
        return Breakers.create(new SimpleMeterRegistry(), "es-guard-test",
                new Breakers.Settings(10, 3, Duration.ofSeconds(60), Duration.ofSeconds(30), 1),
                ElasticsearchGuard::refusedRequest);
    }

    /** A new breaker after {@code n} calls that each threw {@code thrown}. */
    private static CircuitBreaker calls(int n, RuntimeException thrown) {
        CircuitBreaker breaker = breaker();
        for (int i = 0; i < n; i++) {
            call(breaker, thrown);
        }
        return breaker;
    }

    private static void call(CircuitBreaker breaker, RuntimeException thrown) {
        try {
            breaker.executeRunnable(() -> {
                throw thrown;
            });
        }
        catch (RuntimeException expected) {
            // the call's own failure, or the breaker's refusal
        }
    }

    @Test
    void aHundredRefusedRequestsLeaveTheBreakerClosed() {
        CircuitBreaker breaker = calls(100, answer(400));
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isZero();
    }

    @Test
    void serverErrorsAndTransportFailuresOpenIt() {
        CircuitBreaker fiveHundreds = calls(3, answer(503));
        assertThat(fiveHundreds.getState()).isEqualTo(CircuitBreaker.State.OPEN);

        CircuitBreaker unreachable = calls(3, new UncheckedIOException(new ConnectException("refused")));
        assertThat(unreachable.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(ElasticsearchGuard.refusedRequest(new IOException("reset"))).isFalse();
    }

}
