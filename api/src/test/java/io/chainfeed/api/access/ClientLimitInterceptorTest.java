package io.chainfeed.api.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.support.problem.TooManyRequestsException;
import io.chainfeed.platform.net.AddressRange;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class ClientLimitInterceptorTest {

    private static final ClientAddresses ADDRESSES = new ClientAddresses(List.of(AddressRange.parse("127.0.0.0/8")),
            64);

    /** Refusals answered at once, so that preHandle throws them. */
    private static final RefusalDelays AT_ONCE = new RefusalDelays(Duration.ZERO, 1);

    private final ClientLimitInterceptor interceptor = new ClientLimitInterceptor(ADDRESSES,
            new ClientRateLimits("client", 5, 1000), "the public paths", AT_ONCE);

    private static MockHttpServletRequest from(String forwardedFor) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/widget/v1/data/feed");
        request.setRemoteAddr("127.0.0.1");
        if (forwardedFor != null) {
            request.addHeader("X-Forwarded-For", forwardedFor);
        }
        return request;
    }

    @Test
    void aClientGetsItsQuotaWithTheHeadersThenA429() {
        for (int i = 0; i < 5; i++) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            assertThat(interceptor.preHandle(from("198.51.100.1"), response, new Object())).isTrue();
            assertThat(response.getHeader("RateLimit-Policy")).isEqualTo("\"client\";q=5;w=60");
            assertThat(response.getHeader("RateLimit")).startsWith("\"client\";r=" + (4 - i) + ";t=");
            assertThat(response.getHeaderNames()).containsExactlyInAnyOrder("RateLimit-Policy", "RateLimit");
        }
        assertThatThrownBy(() -> interceptor.preHandle(from("198.51.100.1"), new MockHttpServletResponse(), null))
            .isInstanceOfSatisfying(TooManyRequestsException.class, e -> {
                assertThat(e.retryAfterSeconds()).isBetween(1L, 12L);
                assertThat(e.headers()).containsEntry("RateLimit-Policy", "\"client\";q=5;w=60")
                    .containsKey("RateLimit");
                assertThat(e.headers().get("RateLimit")).startsWith("\"client\";r=0;t=");
                assertThat(e.getMessage()).contains("198.51.100.1").contains("5 requests a minute to the public paths");
            });
        // another visitor behind the same proxy has a bucket of its own
        assertThat(interceptor.preHandle(from("198.51.100.2"), new MockHttpServletResponse(), null)).isTrue();
    }

    @Test
    void theAdminPathsHaveTheirOwnPolicyAndBucketsApartFromThePublicOnes() {
        ClientLimitInterceptor admin = new ClientLimitInterceptor(ADDRESSES, new ClientRateLimits("admin", 2, 1000),
                "the admin key paths", AT_ONCE);
        for (int i = 0; i < 2; i++) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            assertThat(admin.preHandle(from("198.51.100.5"), response, null)).isTrue();
            assertThat(response.getHeader("RateLimit-Policy")).isEqualTo("\"admin\";q=2;w=60");
            assertThat(response.getHeader("RateLimit")).startsWith("\"admin\";r=" + (1 - i) + ";t=");
        }
        assertThatThrownBy(() -> admin.preHandle(from("198.51.100.5"), new MockHttpServletResponse(), null))
            .isInstanceOfSatisfying(TooManyRequestsException.class, e -> {
                assertThat(e.headers()).containsEntry("RateLimit-Policy", "\"admin\";q=2;w=60");
                assertThat(e.getMessage()).contains("2 requests a minute to the admin key paths");
            });
        // the same address still has its whole quota on the public paths
        MockHttpServletResponse response = new MockHttpServletResponse();
        assertThat(interceptor.preHandle(from("198.51.100.5"), response, null)).isTrue();
        assertThat(response.getHeader("RateLimit")).startsWith("\"client\";r=4;t=");
    }

    @Test
    void onlyClientsOverTheShareThresholdAreReportedAndReportsFromOthersAreCharged() {
        ClientRateLimits limits = new ClientRateLimits("client", 240, 1000);
        limits.recordUsage(true);
        assertThat(limits.shareThreshold()).isEqualTo(12);
        for (int i = 0; i < 11; i++) {
            limits.take("198.51.100.1");
        }
        limits.take("198.51.100.2");
        assertThat(limits.drainUsage()).as("below the threshold: kept counting, not sent").isEmpty();
        limits.take("198.51.100.1");
        assertThat(limits.drainUsage()).containsExactly(java.util.Map.entry("198.51.100.1", 12L));
        assertThat(limits.drainUsage()).isEmpty();
        // another instance granted 300 to a client: its bucket here is in debt
        limits.charge("198.51.100.3", 300);
        assertThat(limits.take("198.51.100.3").allowed()).isFalse();
    }

    @Test
    void theProxyItselfAndAsyncRedispatchesAreNotCounted() {
        for (int i = 0; i < 20; i++) {
            MockHttpServletResponse response = new MockHttpServletResponse();
            assertThat(interceptor.preHandle(from(null), response, null)).isTrue();
            assertThat(response.getHeader("RateLimit")).isNull();
        }
        MockHttpServletRequest redispatch = from("198.51.100.3");
        redispatch.setDispatcherType(jakarta.servlet.DispatcherType.ASYNC);
        for (int i = 0; i < 20; i++) {
            assertThat(interceptor.preHandle(redispatch, new MockHttpServletResponse(), null)).isTrue();
        }
    }

}
