package io.chainfeed.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.chainfeed.streams.index.EmbeddingProperties;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The routing filter in front of the chain queries: a query for stores another instance
 * owns is passed to it and its answer copied; when the owner is silent a fresh local copy
 * answers; else 503.
 */
class ChainQueryRoutingTest {

    private final StreamsRunner runner = mock(StreamsRunner.class);

    private final StreamsProperties props = new StreamsProperties("chainfeed-tagging", null, "chainfeed-indexer",
            "chainfeed-chain", 1, null, 100L, Duration.ofSeconds(2), new EmbeddingProperties(true, null, null, 64));

    private final ChainQueryRouting routing = new ChainQueryRouting(runner, props, new ObjectMapper());

    private HttpServer owner;

    @AfterEach
    void stop() {
        if (owner != null) {
            owner.stop(0);
        }
    }

    private MockHttpServletRequest query() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/internal/v1/chain");
        request.setQueryString("asOf=2026-11-30T00:00:00Z");
        return request;
    }

    private void routeTo(ChainStoreRoute.Kind kind, String host, Long lag) {
        when(runner.queryHost()).thenReturn(new HostInfo("127.0.0.1", 29041));
        when(runner.chainRoute(anyBoolean())).thenReturn(new ChainStoreRoute(kind, host, "test"));
        when(runner.chainLocalLag()).thenReturn(lag);
    }

    @Test
    void aQueryForAnotherInstancesStoresIsAnsweredByIt() throws Exception {
        AtomicReference<String> asked = new AtomicReference<>();
        owner = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 5);
        owner.createContext("/internal/v1/", exchange -> {
            try (exchange) {
                asked.set(exchange.getRequestURI() + " from "
                        + exchange.getRequestHeaders().getFirst(ChainQueryRouting.FORWARDED_HEADER));
                byte[] body = "avro".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "avro/binary");
                exchange.getResponseHeaders().add(ChainQueryRouting.STORE_HEADER, "active owner");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        owner.start();
        routeTo(ChainStoreRoute.Kind.FORWARD, "127.0.0.1:" + owner.getAddress().getPort(), 0L);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        routing.doFilter(query(), response, chain);

        assertThat(chain.getRequest()).as("not answered here").isNull();
        assertThat(asked.get()).isEqualTo("/internal/v1/chain?asOf=2026-11-30T00:00:00Z from 127.0.0.1:29041");
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getContentType()).isEqualTo("avro/binary");
        assertThat(response.getHeader(ChainQueryRouting.STORE_HEADER)).isEqualTo("active owner");
        assertThat(response.getContentAsString()).isEqualTo("avro");
    }

    @Test
    void aSilentOwnerLeavesAFreshStandbyToAnswer() throws Exception {
        routeTo(ChainStoreRoute.Kind.FORWARD, "127.0.0.1:" + deadPort(), 3L);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        routing.doFilter(query(), response, chain);

        assertThat(chain.getRequest()).isNotNull();
        assertThat(chain.getRequest().getAttribute(ChainQueryRouting.STALE_ATTRIBUTE)).isEqualTo(Boolean.TRUE);
        assertThat(response.getHeader(ChainQueryRouting.STORE_HEADER)).startsWith("standby 127.0.0.1:29041 (")
            .contains("3 record(s) behind");
    }

    @Test
    void aSilentOwnerAndNoLocalCopyIsA503() throws Exception {
        routeTo(ChainStoreRoute.Kind.FORWARD, "127.0.0.1:" + deadPort(), null);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        routing.doFilter(query(), response, chain);

        assertThat(chain.getRequest()).isNull();
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isEqualTo("5");
        assertThat(response.getContentAsString()).contains("no local copy");
    }

    @Test
    void theOwnerAnswersItselfAndOtherPathsAreLeftAlone() throws Exception {
        routeTo(ChainStoreRoute.Kind.LOCAL, null, null);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        routing.doFilter(query(), response, chain);
        assertThat(chain.getRequest().getAttribute(ChainQueryRouting.STALE_ATTRIBUTE)).isNull();
        assertThat(response.getHeader(ChainQueryRouting.STORE_HEADER)).isEqualTo("active 127.0.0.1:29041");

        MockFilterChain health = new MockFilterChain();
        MockHttpServletResponse healthResponse = new MockHttpServletResponse();
        routing.doFilter(new MockHttpServletRequest("GET", "/actuator/health"), healthResponse, health);
        assertThat(healthResponse.getHeader(ChainQueryRouting.STORE_HEADER)).isNull();
    }

    private static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

}
