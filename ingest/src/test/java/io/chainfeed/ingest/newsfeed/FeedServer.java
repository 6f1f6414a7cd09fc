package io.chainfeed.ingest.newsfeed;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.chainfeed.platform.Sha256;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A loopback HTTP server (the JDK's) that serves feed documents the way a well-behaved
 * feed host does: a strong {@code ETag} and a {@code Last-Modified} on every document,
 * 304 to a request whose {@code If-None-Match} or {@code If-Modified-Since} matches, gzip
 * or deflate when the document is set to be sent compressed and the request accepts it.
 * Scripted answers (redirects, 429/503) can be queued per path ahead of the document.
 * Every request is recorded with the headers tests look at.
 */
public final class FeedServer implements AutoCloseable, AfterAllCallback {

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    /** How a document is sent. */
    enum Encoding {

        IDENTITY, GZIP, DEFLATE

    }

    /**
     * A document to serve.
     *
     * @param body the bytes
     * @param contentType the Content-Type header
     * @param encoding compression to apply when the client accepts it
     * @param validators whether to send ETag and Last-Modified (and so answer 304)
     * @param lastModified the Last-Modified instant
     */
    record Doc(byte[] body, String contentType, Encoding encoding, boolean validators, Instant lastModified) {
        String etag() {
            return "\"" + Sha256.hexPrefix(body, 8) + "\"";
        }
    }

    /**
     * A scripted answer sent once, before the document.
     *
     * @param status the status
     * @param headers headers to send
     */
    record Scripted(int status, Map<String, String> headers) {
    }

    /**
     * One request as received.
     *
     * @param path the path
     * @param ifNoneMatch its If-None-Match, or null
     * @param ifModifiedSince its If-Modified-Since, or null
     * @param acceptEncoding its Accept-Encoding, or null
     * @param status the status answered
     */
    record Request(String path, String ifNoneMatch, String ifModifiedSince, String acceptEncoding, int status) {
    }

    private final HttpServer server;

    private final Map<String, Doc> docs = new ConcurrentHashMap<>();

    private final Map<String, Queue<Scripted>> scripts = new ConcurrentHashMap<>();

    final List<Request> requests = new CopyOnWriteArrayList<>();

    public FeedServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    void put(String path, byte[] body, String contentType, Encoding encoding, boolean validators) {
        docs.put(path, new Doc(body, contentType, encoding, validators, Instant.parse("2026-11-05T10:00:00Z")));
    }

    public void put(String path, String body) {
        put(path, body.getBytes(StandardCharsets.UTF_8), "application/rss+xml; charset=utf-8", Encoding.IDENTITY, true);
    }

    void script(String path, int status, Map<String, String> headers) {
        scripts.computeIfAbsent(path, p -> new ArrayDeque<>()).add(new Scripted(status, headers));
    }

    List<Request> requests(String path) {
        return requests.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        answer(exchange, exchange.getRequestURI().getPath());
        exchange.close();
    }

    /**
     * Records the request before its answer goes out, so a test that has the answer sees
     * the record.
     */
    private void send(HttpExchange exchange, String path, int status, long length) throws IOException {
        var h = exchange.getRequestHeaders();
        requests.add(new Request(path, h.getFirst("If-None-Match"), h.getFirst("If-Modified-Since"),
                h.getFirst("Accept-Encoding"), status));
        exchange.sendResponseHeaders(status, length);
    }

    private int answer(HttpExchange exchange, String path) throws IOException {
        Queue<Scripted> queue = scripts.get(path);
        Scripted s = queue == null ? null : queue.poll();
        if (s != null) {
            s.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            send(exchange, path, s.status(), -1);
            return s.status();
        }
        Doc doc = docs.get(path);
        if (doc == null) {
            send(exchange, path, 404, -1);
            return 404;
        }
        var h = exchange.getRequestHeaders();
        if (doc.validators()) {
            exchange.getResponseHeaders().add("ETag", doc.etag());
            exchange.getResponseHeaders().add("Last-Modified", HTTP_DATE.format(doc.lastModified()));
            String inm = h.getFirst("If-None-Match");
            String ims = h.getFirst("If-Modified-Since");
            boolean unchanged = inm != null ? inm.equals(doc.etag())
                    : ims != null && !Instant.from(HTTP_DATE.parse(ims)).isBefore(doc.lastModified());
            if (unchanged) {
                send(exchange, path, 304, -1);
                return 304;
            }
        }
        byte[] body = doc.body();
        String accept = h.getFirst("Accept-Encoding") == null ? "" : h.getFirst("Accept-Encoding");
        if (doc.encoding() == Encoding.GZIP && accept.contains("gzip")) {
            body = compress(body, true);
            exchange.getResponseHeaders().add("Content-Encoding", "gzip");
        }
        else if (doc.encoding() == Encoding.DEFLATE && accept.contains("deflate")) {
            body = compress(body, false);
            exchange.getResponseHeaders().add("Content-Encoding", "deflate");
        }
        exchange.getResponseHeaders().add("Content-Type", doc.contentType());
        send(exchange, path, 200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
        return 200;
    }

    private static byte[] compress(byte[] body, boolean gzip) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = gzip ? new GZIPOutputStream(bytes) : new DeflaterOutputStream(bytes)) {
            out.write(body);
        }
        return bytes.toByteArray();
    }

    /**
     * Points the ingest service under test at feeds on this server: one
     * {@code chainfeed.ingest.feeds[N].url} per path, private addresses allowed (the
     * server is on loopback), polled every second.
     * @param registry the test's dynamic properties
     * @param paths the feeds' paths, e.g. {@code /semis.rss}
     */
    public void registerFeeds(DynamicPropertyRegistry registry, String... paths) {
        for (int i = 0; i < paths.length; i++) {
            String path = paths[i];
            registry.add("chainfeed.ingest.feeds[" + i + "].url", () -> url(path));
        }
        registry.add("chainfeed.ingest.feeds-allow-private", () -> "true");
        registry.add("chainfeed.ingest.feed-interval", () -> "1s");
    }

    /** Closes the server after a test class that registers it as an extension. */
    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        server.stop(0);
    }

}
