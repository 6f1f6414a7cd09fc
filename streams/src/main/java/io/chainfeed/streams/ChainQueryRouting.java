package io.chainfeed.streams;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Sends every chain query ({@code /internal/v1/...}) to where the chain-state stores are
 * ({@link ChainStoreRoute}): answered here when this instance runs their active task,
 * passed once to the instance that does (the {@code application.server} Kafka Streams
 * names for the store's key), and answered from this instance's standby copy when the
 * owner is unknown or does not answer and the copy is at most
 * {@code chainfeed.streams.max-standby-lag} records behind; else 503 with
 * {@code Retry-After: 5}. So the api may ask any streams instance. Every answer says
 * where it came from in {@value #STORE_HEADER} ({@code active <host:port>} or
 * {@code standby <host:port> (...)}).
 */
@Component
class ChainQueryRouting extends OncePerRequestFilter {

    private static final Logger LOG = LoggerFactory.getLogger(ChainQueryRouting.class);

    /** Set on a request this instance forwards, to the forwarding instance's address. */
    static final String FORWARDED_HEADER = "Chainfeed-Forwarded-From";

    /** Says which copy of the stores answered. */
    static final String STORE_HEADER = "Chainfeed-Chain-Store";

    /**
     * The request attribute that lets {@link ChainQueryController} query a standby copy.
     */
    static final String STALE_ATTRIBUTE = ChainQueryRouting.class.getName() + ".stale";

    private static final String PREFIX = "/internal/v1/";

    private final StreamsRunner runner;

    private final StreamsProperties props;

    private final ObjectMapper json;

    private final HttpClient http;

    ChainQueryRouting(StreamsRunner runner, StreamsProperties props, ObjectMapper json) {
        this.runner = runner;
        this.props = props;
        this.json = json;
        this.http = HttpClient.newBuilder().connectTimeout(props.forwardTimeout()).build();
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !request.getRequestURI().startsWith(PREFIX);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ChainStoreRoute route = runner.chainRoute(request.getHeader(FORWARDED_HEADER) != null);
        if (route.kind() == ChainStoreRoute.Kind.FORWARD) {
            String failure = forward(route.host(), request, response);
            if (failure == null) {
                return;
            }
            LOG.info("chain query {}: forwarding to {} failed ({}); trying the local copy", request.getRequestURI(),
                    route.host(), failure);
            route = ChainStoreRoute.afterFailedForward(runner.chainLocalLag(), props.maxStandbyLag(), failure);
        }
        String self = runner.queryHost().host() + ":" + runner.queryHost().port();
        switch (route.kind()) {
            case LOCAL -> {
                response.setHeader(STORE_HEADER, "active " + self);
                chain.doFilter(request, response);
            }
            case STANDBY -> {
                request.setAttribute(STALE_ATTRIBUTE, Boolean.TRUE);
                response.setHeader(STORE_HEADER, "standby " + self + " (" + route.why() + ")");
                chain.doFilter(request, response);
            }
            default -> {
                response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                response.setHeader("Retry-After", "5");
                response.setContentType("application/problem+json");
                response.getOutputStream()
                    .write(json.writeValueAsBytes(Map.of("type", "about:blank", "title", "Service Unavailable",
                            "status", 503, "detail", "the chain-state stores cannot be queried now: " + route.why())));
            }
        }
    }

    /**
     * Passes the request to the owner and copies its answer (status below 500).
     * @return null when the answer was copied, else what went wrong
     */
    private String forward(String host, HttpServletRequest request, HttpServletResponse response) throws IOException {
        String query = request.getQueryString();
        URI target = URI.create("http://" + host + request.getRequestURI() + (query == null ? "" : "?" + query));
        HttpResponse<byte[]> answer;
        try {
            answer = http.send(HttpRequest.newBuilder(target)
                .timeout(props.forwardTimeout())
                .header(FORWARDED_HEADER, runner.queryHost().host() + ":" + runner.queryHost().port())
                .GET()
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        catch (IOException e) {
            return e.toString();
        }
        if (answer.statusCode() >= 500) {
            return "HTTP " + answer.statusCode();
        }
        response.setStatus(answer.statusCode());
        for (String name : new String[] { "Content-Type", STORE_HEADER }) {
            answer.headers().firstValue(name).ifPresent(v -> response.setHeader(name, v));
        }
        response.getOutputStream().write(answer.body());
        return null;
    }

}
