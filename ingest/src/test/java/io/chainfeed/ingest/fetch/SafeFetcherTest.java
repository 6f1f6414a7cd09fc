package io.chainfeed.ingest.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.chainfeed.platform.net.AddressGuard;
import io.chainfeed.platform.net.ChunkedResponses;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fetcher against a real HTTP server on loopback (the JDK's). Host names are answered
 * by a resolver in the test (no real DNS): reaching the server under a made-up name shows
 * the client connects to the address the guard returned, and a resolver whose answer
 * changes shows a rebinding is caught.
 */
class SafeFetcherTest {

    private static final byte[] PUBLIC = { 93, (byte) 184, (byte) 215, 14 };

    private static final byte[] LOOPBACK = { 127, 0, 0, 1 };

    private HttpServer server;

    private final List<String> seen = new CopyOnWriteArrayList<>();

    private int port;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            seen.add(path + " " + exchange.getRequestHeaders().getFirst("User-Agent"));
            switch (path) {
                case "/page" -> reply(exchange, 200, "Text/HTML; Charset=UTF-8", null, "<p>HBM é</p>");
                case "/gzip-bomb" -> {
                    // 2 MiB of zeros that gzip to a few KiB: the limit is on what it
                    // decompresses to
                    java.io.ByteArrayOutputStream packed = new java.io.ByteArrayOutputStream();
                    try (var gz = new java.util.zip.GZIPOutputStream(packed)) {
                        gz.write(new byte[2 * SafeFetcher.MAX_BYTES]);
                    }
                    exchange.getResponseHeaders().add("Content-Encoding", "gzip");
                    exchange.sendResponseHeaders(200, packed.size());
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(packed.toByteArray());
                    }
                }
                case "/found" -> reply(exchange, 302, null, "/page", null);
                case "/to-private" ->
                    reply(exchange, 301, null, "http://internal.example.test:" + port + "/page", null);
                case "/to-ftp" -> reply(exchange, 307, null, "ftp://example.com/feed", null);
                case "/no-location" -> reply(exchange, 302, null, null, null);
                case "/loop" -> reply(exchange, 302, null, "/loop", null);
                case "/exactly-max" -> reply(exchange, 200, "text/plain", null, "a".repeat(SafeFetcher.MAX_BYTES));
                case "/too-big" -> reply(exchange, 200, "text/plain", null, "a".repeat(SafeFetcher.MAX_BYTES + 1));
                // no Content-Length: the limit is found while reading
                case "/too-big-chunked" -> ChunkedResponses.streamUntilHungUp(exchange, 24);
                case "/trickle" -> {
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 100; i++) {
                            out.write('a');
                            out.flush();
                            Thread.sleep(100);
                        }
                    }
                    catch (IOException | InterruptedException e) {
                        // the fetcher gave up: expected
                    }
                }
                default -> reply(exchange, 404, "text/plain", null, "no");
            }
        });
        server.start();
        port = server.getAddress().getPort();
    }

    private static void reply(HttpExchange exchange, int status, String type, String location, String body)
            throws IOException {
        if (type != null) {
            exchange.getResponseHeaders().add("Content-Type", type);
        }
        if (location != null) {
            exchange.getResponseHeaders().add("Location", location);
        }
        byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            exchange.getResponseBody().write(b);
        }
        exchange.close();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    /**
     * Fixed answers for made-up names; IP literals resolve as the JDK reads them; nothing
     * else resolves.
     */
    private static AddressGuard.Resolver names(Map<String, byte[]> answers) {
        return host -> {
            byte[] answer = answers.get(host);
            if (answer != null) {
                return new InetAddress[] { InetAddress.getByAddress(host, answer) };
            }
            if (host.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == ':')) {
                return InetAddress.getAllByName(host);
            }
            throw new UnknownHostException(host);
        };
    }

    private static final Map<String, byte[]> NAMES = Map.of("feed.example.test", LOOPBACK, "internal.example.test",
            new byte[] { 10, 1, 2, 3 }, "localhost", LOOPBACK);

    /** Loopback allowed (the test server), every other private address refused. */
    private SafeFetcher loopbackOnly() {
        return new SafeFetcher(new AddressGuard(AddressGuard.Scope.PUBLIC_AND_LOOPBACK, names(NAMES)));
    }

    private URI url(String host, String path) {
        return URI.create("http://" + host + ":" + port + path);
    }

    @Test
    void fetchesAPageFollowingRedirectsToTheAddressTheGuardReturned() {
        // feed.example.test exists only in the test's resolver: reaching the server
        // proves the client
        // connected to the address the guard checked and did not resolve the name itself.
        try (SafeFetcher f = loopbackOnly()) {
            SafeFetcher.Page page = f.fetch(url("feed.example.test", "/found"));
            assertThat(page.uri()).isEqualTo(url("feed.example.test", "/page"));
            assertThat(page.contentType()).isEqualTo("text/html; charset=utf-8");
            assertThat(page.body()).isEqualTo("<p>HBM é</p>");
        }
        assertThat(seen).containsExactly("/found chainfeed-ingest/0.1 (+research feed)",
                "/page chainfeed-ingest/0.1 (+research feed)");
    }

    @Test
    void theAllowPrivateSettingLetsLoopbackThroughAndTheDefaultDoesNot() {
        try (SafeFetcher open = new SafeFetcher(true)) {
            assertThat(open.fetch(url("127.0.0.1", "/page")).body()).isEqualTo("<p>HBM é</p>");
        }
        try (SafeFetcher strict = new SafeFetcher(false)) {
            for (String host : new String[] { "127.0.0.1", "[::ffff:127.0.0.1]", "[::1]" }) {
                assertThatThrownBy(() -> strict.fetch(url(host, "/page"))).as(host)
                    .isInstanceOf(FetchException.class)
                    .hasMessageContaining("loopback")
                    .hasMessageEndingWith("not a public address; refused");
            }
        }
        assertThat(seen).hasSize(1);
    }

    @Test
    void aDnsAnswerThatChangesToLoopbackAfterTheCheckIsRefusedAtConnectTime() {
        // The first look-up (the check before the request) answers a public address;
        // every later one
        // (HttpClient's DNS step, when it connects) answers loopback, where the test
        // server listens.
        AtomicInteger lookups = new AtomicInteger();
        AddressGuard.Resolver rebinding = host -> new InetAddress[] {
                InetAddress.getByAddress(host, lookups.getAndIncrement() == 0 ? PUBLIC : LOOPBACK) };
        try (SafeFetcher f = new SafeFetcher(new AddressGuard(AddressGuard.Scope.PUBLIC, rebinding))) {
            assertThatThrownBy(() -> f.fetch(url("rebind.example.test", "/page"))).isInstanceOf(FetchException.class)
                .hasMessage("the host rebind.example.test resolves to 127.0.0.1, loopback: not a public address;"
                        + " refused");
        }
        assertThat(lookups).as("checked before the request and again when connecting").hasValue(2);
        assertThat(seen).as("no request reached the server").isEmpty();
    }

    @Test
    void everyRedirectHopIsChecked() {
        try (SafeFetcher f = loopbackOnly()) {
            assertThatThrownBy(() -> f.fetch(url("127.0.0.1", "/to-private"))).isInstanceOf(FetchException.class)
                .hasMessageContaining("internal.example.test resolves to 10.1.2.3, private (RFC 1918)")
                .hasMessageContaining("refused");
            assertThatThrownBy(() -> f.fetch(url("127.0.0.1", "/to-ftp"))).isInstanceOf(FetchException.class)
                .hasMessageStartingWith("only http and https URLs are fetched");
            assertThatThrownBy(() -> f.fetch(url("127.0.0.1", "/no-location"))).isInstanceOf(FetchException.class)
                .hasMessageStartingWith("redirect without Location");
            assertThatThrownBy(() -> f.fetch(url("127.0.0.1", "/loop"))).isInstanceOf(FetchException.class)
                .hasMessageStartingWith("more than 5 redirects");
        }
        assertThat(seen).filteredOn(s -> s.startsWith("/loop ")).hasSize(6);
        assertThat(seen).noneMatch(s -> s.startsWith("/page "));
    }

    @Test
    void feedFetchesGoThroughTheSameChecksAndLimits() {
        try (SafeFetcher f = loopbackOnly()) {
            assertThatThrownBy(() -> f.fetchFeed(url("127.0.0.1", "/to-private"), "\"v1\"", null))
                .isInstanceOf(FetchException.class)
                .hasMessageContaining("internal.example.test resolves to 10.1.2.3, private (RFC 1918)");
            assertThatThrownBy(() -> f.fetchFeed(url("127.0.0.1", "/gzip-bomb"), null, null))
                .isInstanceOf(FetchException.class)
                .hasMessageContaining("is larger than " + SafeFetcher.MAX_BYTES);
            assertThatThrownBy(() -> f.fetchFeed(url("127.0.0.1", "/missing"), null, null))
                .isInstanceOfSatisfying(HttpStatusException.class, e -> assertThat(e.status()).isEqualTo(404));
        }
        try (SafeFetcher strict = new SafeFetcher(false)) {
            assertThatThrownBy(() -> strict.fetchFeed(url("127.0.0.1", "/page"), null, null))
                .isInstanceOf(FetchException.class)
                .hasMessageContaining("not a public address; refused");
        }
    }

    @Test
    void refusesOtherSchemesUnknownHostsAndErrorStatuses() {
        try (SafeFetcher f = loopbackOnly()) {
            assertThatThrownBy(() -> f.fetch(URI.create("file:///etc/passwd"))).isInstanceOf(FetchException.class)
                .hasMessageStartingWith("only http and https URLs are fetched");
            assertThatThrownBy(() -> f.fetch(url("nowhere.example.test", "/"))).isInstanceOf(FetchException.class)
                .hasMessage("cannot resolve nowhere.example.test");
            assertThatThrownBy(() -> f.fetch(url("127.0.0.1", "/missing"))).isInstanceOf(FetchException.class)
                .hasMessageEndingWith("answered 404");
        }
    }

    @Test
    void readsAtMostMaxBytes() {
        try (SafeFetcher f = loopbackOnly()) {
            assertThat(f.fetch(url("127.0.0.1", "/exactly-max")).body()).hasSize(SafeFetcher.MAX_BYTES);
            for (String path : new String[] { "/too-big", "/too-big-chunked" }) {
                assertThatThrownBy(() -> f.fetch(url("127.0.0.1", path))).as(path)
                    .isInstanceOf(FetchException.class)
                    .hasMessageEndingWith("is larger than " + SafeFetcher.MAX_BYTES + " bytes");
            }
            assertThat(f.fetch(url("127.0.0.1", "/page")).body()).as("usable after an aborted body")
                .isEqualTo("<p>HBM é</p>");
        }
    }

    @Test
    void anAnswerThatKeepsTricklingIsAbortedAtTheTotalLimit() {
        // Each byte comes well within the idle limit, so only the total limit can end it.
        try (SafeFetcher f = new SafeFetcher(new AddressGuard(AddressGuard.Scope.PUBLIC_AND_LOOPBACK, names(NAMES)),
                Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofMillis(800))) {
            assertThatThrownBy(() -> f.fetch(url("127.0.0.1", "/trickle"))).isInstanceOf(FetchException.class)
                .hasMessageStartingWith("no complete answer from http://127.0.0.1:" + port + "/trickle within");
        }
    }

}
