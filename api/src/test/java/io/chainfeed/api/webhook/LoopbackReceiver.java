package io.chainfeed.api.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A webhook receiver for the sender and worker tests: the JDK's HTTP server on a free
 * loopback port, handing each request under one path, with its body read as UTF-8, to the
 * test's handler, which answers it.
 */
final class LoopbackReceiver implements AutoCloseable {

    /** Answers one request; {@code body} is the request body, already read. */
    @FunctionalInterface
    interface Handler {

        void handle(HttpExchange exchange, String body) throws IOException;

    }

    private final HttpServer server;

    private LoopbackReceiver(HttpServer server) {
        this.server = server;
    }

    /**
     * @param path the context path the handler gets, e.g. {@code /} or {@code /hook}
     * @param handler answers each request
     * @return the started receiver
     */
    static LoopbackReceiver start(String path, Handler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(path, exchange -> handler.handle(exchange,
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        server.start();
        return new LoopbackReceiver(server);
    }

    /**
     * @return {@code http://<host>:<port><path>} on this receiver's port
     */
    URI url(String host, String path) {
        return URI.create("http://" + host + ":" + server.getAddress().getPort() + path);
    }

    /**
     * Answers a request and closes the exchange.
     * @param status the HTTP status
     * @param headers response headers, e.g. {@code Location} or {@code Retry-After}
     * @param body the response body as UTF-8, or null for none
     */
    static void reply(HttpExchange exchange, int status, Map<String, String> headers, String body) throws IOException {
        headers.forEach(exchange.getResponseHeaders()::add);
        byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(b);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }

}
