package io.chainfeed.api.support.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.chainfeed.api.support.settings.ApiProperties;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;

/**
 * The warm-up against a small HTTP server standing in for the api: it lists the terms and
 * layers, then sends the public's requests for them until its time or its count runs out,
 * and reports {@code OUT_OF_SERVICE} until it is done.
 */
class WarmupTest {

    private final Set<String> asked = ConcurrentHashMap.newKeySet();

    private HttpServer server;

    @BeforeEach
    void api() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath();
            String query = exchange.getRequestURI().getRawQuery();
            asked.add(query == null ? path : path + "?" + query);
            String client = exchange.getRequestHeaders().getFirst("X-Forwarded-For");
            if (client != null) {
                asked.add(client + " " + path);
            }
            String body = switch (path) {
                case "/api/v1/terms" -> "{\"terms\": [{\"slug\": \"hbm\", \"title\": \"HBM\"},"
                        + " {\"slug\": \"co-packaged-optics\", \"title\": \"Co-packaged optics\"}]}";
                case "/api/v1/layers" -> "{\"layers\": [{\"id\": \"memory\", \"name\": \"Memory\"}]}";
                default -> "{}";
            };
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(path.startsWith("/api/v1/suggest") ? 503 : 200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Warmup warmup(Duration duration, int requests) {
        return new Warmup(new ApiProperties.Warmup(duration, requests, 2), () -> server.getAddress().getPort(),
                new ObjectMapper());
    }

    @Test
    void itIsOutOfServiceUntilItHasSentThePublicsRequestsForEveryTermAndLayer() throws Exception {
        Warmup warmup = warmup(Duration.ofSeconds(1), 100_000);
        assertThat(warmup.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        warmup.run(null);
        assertThat(warmup.health().getStatus()).isEqualTo(Status.UP);
        assertThat(asked).contains("/api/v1/search?q=HBM", "/api/v1/search?q=Co-packaged+optics",
                "/api/v1/search?q=Memory+shortage", "/api/v1/terms/hbm", "/api/v1/layers/memory",
                "/api/v1/feeds/atom?topic=layer%3Amemory", "/api/v1/feeds/json?topic=layer%3Amemory",
                "/api/v1/suggest?q=HBM", "/api/v1/chain");
        // the cheap paths as keyless visitors see them, from documentation addresses
        // taken
        // in turn, so that none comes near its per-client limit
        assertThat(asked).anyMatch(a -> a.matches("198\\.51\\.100\\.\\d+ /widget/v1/data/chain"))
            .anyMatch(a -> a.matches("198\\.51\\.100\\.\\d+ /embed/chain"));
        assertThat(asked.stream()
            .filter(a -> a.startsWith("198.51.100."))
            .map(a -> a.substring(0, a.indexOf(' ')))
            .distinct()
            .count()).as("visitors taken in turn").isGreaterThan(3);
        assertThat(asked).noneMatch(a -> a.startsWith("192.0.2."));
    }

    @Test
    void theIndexsCallsHaveALaneOfTheirOwn() {
        Warmup.Call search = Warmup.Call.of("/api/v1/search?q=HBM");
        Warmup.Call chain = Warmup.Call.of("/api/v1/chain");
        Warmup.Calls calls = new Warmup.Calls(List.of(search), List.of(chain));
        assertThat(calls.lane(0, 2)).containsExactly(search);
        assertThat(calls.lane(1, 2)).containsExactly(chain);
        assertThat(calls.lane(2, 3)).containsExactly(chain);
        assertThat(calls.lane(0, 1)).containsExactly(search, chain);
    }

    @Test
    void itStopsAtItsCount() throws Exception {
        Warmup warmup = warmup(Duration.ofMinutes(5), 3);
        long start = System.nanoTime();
        warmup.run(null);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMinutes(1));
        assertThat(warmup.health().getStatus()).isEqualTo(Status.UP);
        assertThat(warmup.health().getDetails().get("warmup").toString()).startsWith("3 requests");
    }

    @Test
    void offItReportsUpAndSendsNothing() throws Exception {
        Warmup warmup = warmup(Duration.ZERO, 100);
        assertThat(warmup.health().getStatus()).isEqualTo(Status.UP);
        warmup.run(null);
        assertThat(asked).isEmpty();
    }

    @Test
    void anApiThatCannotListItsTermsIsWarmedOnTheFixedPaths() throws Exception {
        server.stop(0);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            asked.add(exchange.getRequestURI().getRawPath());
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        server.start();
        Warmup warmup = warmup(Duration.ofMillis(500), 100_000);
        warmup.run(null);
        assertThat(warmup.health().getStatus()).isEqualTo(Status.UP);
        assertThat(asked).containsAll(List.of("/api/v1/chain", "/api/v1/layers", "/api/v1/terms"));
    }

}
