package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The launcher's search warm-up against a loopback server that answers as a cold api
 * would.
 */
class SearchWarmUpTest {

    private HttpServer server;

    private final List<String> queries = new CopyOnWriteArrayList<>();

    private URI serve(int coldAnswers) throws IOException {
        AtomicInteger cold = new AtomicInteger(coldAnswers);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/v1/search", exchange -> {
            queries.add(exchange.getRequestURI().getRawQuery());
            exchange.sendResponseHeaders(cold.getAndDecrement() > 0 ? 503 : 200, -1);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aQueryAnswered503IsRepeatedUntilItIsAnsweredThenTheNextOneIsSent() throws IOException {
        URI api = serve(2);
        assertThat(SearchWarmUp.warm(api, Duration.ofSeconds(30))).isEqualTo(5);
        assertThat(queries).containsExactly("q=memory", "q=memory", "q=memory", "q=CoWoS%20shortage", "q=TSM");
    }

    @Test
    void aStackThatStaysColdCostsNoMoreThanTheBudget() throws IOException {
        URI api = serve(Integer.MAX_VALUE);
        long t0 = System.nanoTime();
        int sent = SearchWarmUp.warm(api, Duration.ofSeconds(2));
        assertThat(sent).isBetween(1, 10);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
        assertThat(queries).allMatch("q=memory"::equals);
    }

}
