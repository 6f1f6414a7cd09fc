package io.chainfeed.api.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.chainfeed.api.TestSettings;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.api.support.settings.ApiProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With several streams instances in {@code chainfeed.api.streams.base-url}, a chain
 * question goes to the next when one is down or answers 5xx, and a 4xx is an answer.
 */
class ChainTimeTravelFallbackTest {

    private static final String SERIES = """
            {"layer": "memory", "points": [{"at": "2026-11-30T00:00:00Z", "pressure": 0.5, "directPressure": 0.5,
             "status": "tight", "trend": "rising", "signalCount": 2}], "signals": [], "otherSignals": 0}""";

    private final List<HttpServer> servers = new java.util.ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    private String serving(int status, String body, AtomicInteger calls) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
        server.createContext("/internal/v1/", exchange -> {
            try (exchange) {
                calls.incrementAndGet();
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(status, bytes.length);
                exchange.getResponseBody().write(bytes);
            }
        });
        server.start();
        servers.add(server);
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static String deadUrl() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    private static ChainTimeTravel travel(String urls) {
        return new ChainTimeTravel(new SimpleMeterRegistry(), TestSettings.api("chainfeed.api.streams.base-url", urls,
                "chainfeed.api.streams.timeout", "2s", "chainfeed.api.streams.breaker.minimum-calls", "100"));
    }

    /** A breaker that opens after 3 failed calls of 10 and stays open 30 s. */
    private static ApiProperties breaking(String url) {
        return TestSettings.api("chainfeed.api.streams.base-url", url, "chainfeed.api.streams.timeout", "2s",
                "chainfeed.api.streams.breaker.minimum-calls", "3", "chainfeed.api.streams.breaker.open-for", "30s");
    }

    private static LayerHistory.Series history(ChainTimeTravel t) {
        return t.history("memory", Instant.parse("2026-11-30T00:00:00Z"), Duration.ofHours(1), 1);
    }

    @Test
    void aDeadOrFailingInstanceIsSkipped() throws IOException {
        AtomicInteger failing = new AtomicInteger();
        AtomicInteger good = new AtomicInteger();
        String urls = deadUrl() + ", " + serving(503, "{}", failing) + "," + serving(200, SERIES, good);
        LayerHistory.Series series = history(travel(urls));
        assertThat(series.layer()).isEqualTo("memory");
        assertThat(failing).hasValue(1);
        assertThat(good).hasValue(1);
    }

    @Test
    void aClientErrorIsAnAnswerNotAFailure() throws IOException {
        AtomicInteger missing = new AtomicInteger();
        AtomicInteger good = new AtomicInteger();
        String urls = serving(404, "{\"detail\": \"no layer with id 'x'\"}", missing) + ","
                + serving(200, SERIES, good);
        assertThatThrownBy(() -> history(travel(urls))).isInstanceOf(NotFoundException.class);
        assertThat(good).as("not asked").hasValue(0);
    }

    @Test
    void aHundredClientErrorsInARowNeverOpenTheBreakerButServerErrorsDo() throws IOException {
        AtomicInteger bad = new AtomicInteger();
        ChainTimeTravel refusing = new ChainTimeTravel(new SimpleMeterRegistry(),
                breaking(serving(400, "{\"detail\": \"asOf must lie between ...\"}", bad)));
        for (int i = 0; i < 100; i++) {
            assertThatThrownBy(() -> history(refusing)).isInstanceOf(BadRequestException.class);
        }
        assertThat(bad).as("every one reached streams: the breaker stayed closed").hasValue(100);

        AtomicInteger failing = new AtomicInteger();
        ChainTimeTravel broken = new ChainTimeTravel(new SimpleMeterRegistry(), breaking(serving(500, "{}", failing)));
        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(() -> history(broken)).isInstanceOf(ChainUnavailableException.class);
        }
        assertThat(failing).as("the breaker opened after the minimum of 3 failed calls").hasValue(3);
    }

    @Test
    void allDownIsUnavailable() throws IOException {
        assertThatThrownBy(() -> history(travel(deadUrl() + "," + deadUrl())))
            .isInstanceOf(ChainUnavailableException.class);
    }

}
