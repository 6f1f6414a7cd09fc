package io.chainfeed.devstack.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A stand-in partner site on another origin (the JDK's HTTP server, loopback only): one
 * page that embeds every chainfeed widget, custom elements and iframe forms, with a
 * publishable partner key. It serves {@code /} (the page), {@code /demo.css} and
 * {@code /demo.js} under the Content-Security-Policy a partner needs for the widgets and
 * nothing more: {@code script-src}, {@code connect-src} and {@code frame-src} allowing
 * the api's origin. {@code ./chainfeed run} starts one; the widget browser test serves
 * its partner page with it.
 */
public final class DemoPartnerSite implements AutoCloseable {

    private final HttpServer server;

    private final String apiOrigin;

    private DemoPartnerSite(HttpServer server, String apiOrigin) {
        this.server = server;
        this.apiOrigin = apiOrigin;
    }

    /**
     * Starts the site.
     * @param bind the address to listen on (loopback for the embedded default)
     * @param port the port, 0 for any free one
     * @param apiOrigin the api's origin as the browser reaches it, e.g.
     * {@code http://localhost:8080}
     * @param partnerKey the publishable partner key the page embeds
     * @param pageOrigin the origin the page is meant to be opened at (shown on the page),
     * e.g. {@code http://localhost:8090}
     * @return the running site
     * @throws IOException if the port cannot be bound
     */
    public static DemoPartnerSite start(InetAddress bind, int port, URI apiOrigin, String partnerKey, String pageOrigin)
            throws IOException {
        String api = apiOrigin.toString().replaceAll("/+$", "");
        HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 50);
        String page = resource("index.html").replace("{{API}}", escape(api))
            .replace("{{KEY}}", escape(partnerKey))
            .replace("{{ORIGIN}}", escape(pageOrigin));
        Map<String, byte[]> files = Map.of("/", page.getBytes(StandardCharsets.UTF_8), "/demo.css",
                resource("demo.css").getBytes(StandardCharsets.UTF_8), "/demo.js",
                resource("demo.js").getBytes(StandardCharsets.UTF_8));
        Map<String, String> types = Map.of("/", "text/html; charset=utf-8", "/demo.css", "text/css; charset=utf-8",
                "/demo.js", "text/javascript; charset=utf-8");
        String csp = csp(api);
        server.createContext("/", exchange -> serve(exchange, files, types, csp));
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "demo-partner-site");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return new DemoPartnerSite(server, api);
    }

    /**
     * The policy of the demo page: its own files, plus exactly the lines the widgets
     * need.
     * @param api the api's origin
     * @return the {@code Content-Security-Policy} header value
     */
    public static String csp(String api) {
        return "default-src 'self'; script-src 'self' " + api + "; connect-src " + api + "; frame-src " + api
                + "; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
    }

    /**
     * @return the port the site listens on
     */
    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * @return the api origin the page uses
     */
    public String apiOrigin() {
        return apiOrigin;
    }

    @Override
    public void close() {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }

    private static void serve(HttpExchange exchange, Map<String, byte[]> files, Map<String, String> types, String csp)
            throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            byte[] body = files.get(path);
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            if (!"GET".equals(exchange.getRequestMethod()) && !head) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (body == null) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", types.get(path));
            exchange.getResponseHeaders().set("Content-Security-Policy", csp);
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    private static String resource(String name) {
        try (InputStream in = DemoPartnerSite.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("demo page resource missing: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** HTML escaping of the values put into the page (text and attribute values). */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

}
