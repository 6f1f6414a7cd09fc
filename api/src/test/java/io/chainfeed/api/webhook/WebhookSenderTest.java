package io.chainfeed.api.webhook;

import static io.chainfeed.api.webhook.LoopbackReceiver.reply;
import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.platform.net.AddressGuard;
import io.chainfeed.platform.net.ChunkedResponses;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sender against a real HTTP server on loopback (the JDK's), with the guard checking
 * each connection.
 */
class WebhookSenderTest {

    private LoopbackReceiver receiver;

    /**
     * A sender whose guard lets loopback through, as the tests' receiver needs; one per
     * test.
     */
    private WebhookSender loopback;

    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws IOException {
        receiver = LoopbackReceiver.start("/", (exchange, body) -> {
            seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("webhook-id") + " " + body);
            String path = exchange.getRequestURI().getPath();
            switch (path) {
                case "/ok" -> reply(exchange, 204, Map.of(), null);
                case "/busy" -> reply(exchange, 429, Map.of("Retry-After", "7"), "slow down");
                case "/moved" -> reply(exchange, 308, Map.of("Location", "/ok"), null);
                case "/found" -> reply(exchange, 302, Map.of("Location", "/ok"), null);
                case "/to-metadata" ->
                    reply(exchange, 307, Map.of("Location", "http://169.254.169.254/latest/meta-data/"), null);
                case "/to-ftp" -> reply(exchange, 307, Map.of("Location", "ftp://example.com/"), null);
                case "/loop" -> reply(exchange, 307, Map.of("Location", "/loop"), null);
                case "/big" -> ChunkedResponses.streamUntilHungUp(exchange, 32);
                default -> reply(exchange, 500, Map.of(), "boom");
            }
        });
    }

    @BeforeEach
    void openSender() {
        loopback = sender(new TargetGuard(true, InetAddress::getAllByName));
    }

    @AfterEach
    void stopServer() {
        loopback.close();
        receiver.close();
    }

    private WebhookSender sender(TargetGuard guard) {
        return new WebhookSender(guard, Duration.ofSeconds(2), Duration.ofSeconds(5), 4, 3);
    }

    /**
     * @return what the loopback sender got for an empty JSON object posted to
     * {@code path} on 127.0.0.1
     */
    private WebhookSender.Outcome post(String path) {
        return loopback.send(url("127.0.0.1", path), "{}", HEADERS);
    }

    private URI url(String host, String path) {
        return receiver.url(host, path);
    }

    private static final Map<String, String> HEADERS = Map.of("webhook-id", "msg_1", "webhook-timestamp", "1",
            "webhook-signature", "v1,x");

    @Test
    void postsTheBodyAndHeadersAndReadsTheStatus() {
        WebhookSender.Outcome o = loopback.send(url("127.0.0.1", "/ok"), "{\"a\":1}", HEADERS);
        assertThat(o.success()).isTrue();
        assertThat(o.status()).hasValue(204);
        assertThat(seen).containsExactly("POST /ok msg_1 {\"a\":1}");
        WebhookSender.Outcome busy = loopback.send(url("localhost", "/busy"), "{}", HEADERS);
        assertThat(busy.status()).hasValue(429);
        assertThat(busy.retryAfter()).hasValue("7");
        assertThat(busy.error()).hasValue("the endpoint answered 429");
    }

    @Test
    void refusesLoopbackAtConnectTimeWithoutTheSetting() {
        try (WebhookSender s = sender(new TargetGuard(false, InetAddress::getAllByName))) {
            for (String host : new String[] { "127.0.0.1", "localhost", "[::ffff:127.0.0.1]" }) {
                WebhookSender.Outcome o = s.send(url(host, "/ok"), "{}", HEADERS);
                assertThat(o.refused()).as(host).isTrue();
                assertThat(o.status()).isEmpty();
            }
        }
        assertThat(seen).as("no request reached the server").isEmpty();
    }

    @Test
    void connectsToTheAddressItCheckedSoADnsAnswerThatChangesIsCaught() {
        // First answer (the check at creation) is public; every later one (at connect) is
        // loopback.
        AtomicInteger lookups = new AtomicInteger();
        AddressGuard.Resolver rebinding = host -> new InetAddress[] {
                InetAddress.getByAddress(host, lookups.getAndIncrement() == 0
                        ? new byte[] { 93, (byte) 184, (byte) 215, 14 } : new byte[] { 127, 0, 0, 1 }) };
        TargetGuard guard = new TargetGuard(false, rebinding);
        try (WebhookSender s = sender(guard)) {
            URI target = receiver.url("rebind.example.com", "/ok");
            assertThat(guard.check(target.toString())).isEqualTo(target);
            WebhookSender.Outcome o = s.send(target, "{}", HEADERS);
            assertThat(o.refused()).isTrue();
            assertThat(o.error().orElseThrow()).contains("127.0.0.1", "loopback");
        }
        catch (RefusedTargetException e) {
            throw new AssertionError(e);
        }
        assertThat(seen).isEmpty();
    }

    @Test
    void follows307And308KeepingThePostAndChecksEveryHop() {
        assertThat(loopback.send(url("127.0.0.1", "/moved"), "{\"b\":2}", HEADERS).status()).hasValue(204);
        assertThat(seen).containsExactly("POST /moved msg_1 {\"b\":2}", "POST /ok msg_1 {\"b\":2}");
        seen.clear();

        WebhookSender.Outcome metadata = post("/to-metadata");
        assertThat(metadata.refused()).isTrue();
        assertThat(metadata.error().orElseThrow()).startsWith("redirect refused").contains("169.254.169.254");

        WebhookSender.Outcome ftp = post("/to-ftp");
        assertThat(ftp.success()).isFalse();
        assertThat(ftp.error().orElseThrow()).startsWith("redirect refused");

        assertThat(post("/loop").error()).hasValue("more than 3 redirects");
        assertThat(seen).filteredOn(l -> l.startsWith("POST /loop")).hasSize(4);
    }

    @Test
    void otherRedirectsAreFailuresNotFollowed() {
        WebhookSender.Outcome o = post("/found");
        assertThat(o.success()).isFalse();
        assertThat(o.status()).hasValue(302);
        assertThat(o.error().orElseThrow()).contains("not followed");
        assertThat(seen).hasSize(1);
    }

    @Test
    void readsOnlyTheStartOfALongAnswer() {
        assertThat(post("/big").status()).hasValue(200);
        assertThat(post("/ok").status()).hasValue(204);
    }

    @Test
    void reportsConnectionFailures() throws IOException {
        int closed;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }
        WebhookSender.Outcome o = loopback.send(URI.create("http://127.0.0.1:" + closed + "/"), "{}", HEADERS);
        assertThat(o.status()).isEmpty();
        assertThat(o.refused()).isFalse();
        assertThat(o.error().orElseThrow()).isNotBlank();
    }

}
