package io.chainfeed.api.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.support.problem.TooManyRequestsException;
import io.chainfeed.platform.net.AddressRange;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class RefusalDelaysTest {

    private static final ClientAddresses ADDRESSES = new ClientAddresses(List.of(AddressRange.parse("127.0.0.0/8")),
            64);

    private static MockHttpServletRequest from(String forwardedFor) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/search");
        request.setRemoteAddr("127.0.0.1");
        request.addHeader("X-Forwarded-For", forwardedFor);
        request.setAsyncSupported(true);
        return request;
    }

    /** Waits (at most 10 s) for the held request to be dispatched again. */
    private static void awaitDispatch(MockHttpServletRequest request) throws InterruptedException {
        MockAsyncContext async = (MockAsyncContext) request.getAsyncContext();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (async.getDispatchedPath() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(async.getDispatchedPath()).as("dispatched again").isNotNull();
    }

    @Test
    void aRefusalIsHeldForItsDelayThenThrownOnTheNextDispatch() throws Exception {
        try (RefusalDelays delays = new RefusalDelays(Duration.ofMillis(300), 10)) {
            ClientLimitInterceptor interceptor = new ClientLimitInterceptor(ADDRESSES,
                    new ClientRateLimits("client", 1, 1000), "the public paths", delays);
            assertThat(interceptor.preHandle(from("198.51.100.9"), new MockHttpServletResponse(), null)).isTrue();

            MockHttpServletRequest refused = from("198.51.100.9");
            long start = System.nanoTime();
            assertThat(interceptor.preHandle(refused, new MockHttpServletResponse(), null)).as("held, not answered")
                .isFalse();
            assertThat(refused.isAsyncStarted()).isTrue();
            assertThat(delays.held()).isEqualTo(1);
            awaitDispatch(refused);
            // a scheduled task never runs before its delay
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
            assertThat(delays.held()).isZero();
            assertThat(delays.delayedCount()).isEqualTo(1);

            refused.setDispatcherType(DispatcherType.ASYNC);
            assertThatThrownBy(() -> interceptor.preHandle(refused, new MockHttpServletResponse(), null))
                .isInstanceOfSatisfying(TooManyRequestsException.class, e -> {
                    assertThat(e.getMessage()).contains("198.51.100.9").contains("1 requests a minute");
                    assertThat(e.headers()).containsEntry("RateLimit-Policy", "\"client\";q=1;w=60");
                });
            assertThat(refused.getAttribute(RefusalDelays.HELD)).isNull();
            // an async dispatch without a held refusal (an SSE stream's) goes on to its
            // handler
            assertThat(interceptor.preHandle(refused, new MockHttpServletResponse(), null)).isTrue();
        }
    }

    @Test
    void pastTheBoundRefusalsAreAnsweredAtOnceAndAFinishedRequestFreesItsSlot() {
        try (RefusalDelays delays = new RefusalDelays(Duration.ofHours(1), 1)) {
            TooManyRequestsException refusal = new TooManyRequestsException("over", 3600, Map.of());
            MockHttpServletRequest first = from("198.51.100.10");
            assertThat(delays.hold(first, new MockHttpServletResponse(), refusal)).isTrue();
            assertThat(delays.hold(from("198.51.100.11"), new MockHttpServletResponse(), refusal)).isFalse();
            assertThat(delays.delayedCount()).isEqualTo(1);
            assertThat(delays.immediateCount()).isEqualTo(1);

            // the client went away: the container completes the request, the slot is free
            first.getAsyncContext().complete();
            assertThat(delays.held()).isZero();
            assertThat(delays.hold(from("198.51.100.12"), new MockHttpServletResponse(), refusal)).isTrue();
        }
    }

    @Test
    void theDelayIsBoundedByRetryAfter() throws Exception {
        try (RefusalDelays delays = new RefusalDelays(Duration.ofHours(1), 10)) {
            MockHttpServletRequest request = from("198.51.100.13");
            assertThat(delays.hold(request, new MockHttpServletResponse(), new TooManyRequestsException("over", 1)))
                .isTrue();
            // Retry-After 1 s, not the hour of the setting
            awaitDispatch(request);
        }
    }

    @Test
    void noDelayOrNoAsyncSupportAnswersAtOnce() {
        TooManyRequestsException refusal = new TooManyRequestsException("over", 1);
        try (RefusalDelays none = new RefusalDelays(Duration.ZERO, 10)) {
            MockHttpServletRequest request = from("198.51.100.14");
            assertThat(none.hold(request, new MockHttpServletResponse(), refusal)).isFalse();
            assertThat(request.isAsyncStarted()).isFalse();
            assertThat(request.getAttribute(RefusalDelays.HELD)).isNull();
        }
        try (RefusalDelays delays = new RefusalDelays(Duration.ofSeconds(1), 10)) {
            MockHttpServletRequest request = from("198.51.100.15");
            request.setAsyncSupported(false);
            assertThat(delays.hold(request, new MockHttpServletResponse(), refusal)).isFalse();
            assertThat(delays.immediateCount()).isEqualTo(1);
        }
    }

    @Test
    void refusesANegativeDelayOrNoRoom() {
        assertThatThrownBy(() -> new RefusalDelays(Duration.ofMillis(-1), 1))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RefusalDelays(Duration.ofSeconds(1), 0))
            .isInstanceOf(IllegalArgumentException.class);
    }

}
