package io.chainfeed.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A webhook endpoint on 127.0.0.1 (JDK HTTP server) that answers every delivery 204 and
 * records its {@code webhook-id} header and the read id in the body's {@code data.id}.
 * Deliveries are at least once (a delivery whose answer a crash cut off is sent again,
 * under the same {@code webhook-id}), so the ledger counts distinct webhook ids per read
 * and reports repeats of one id separately.
 */
public final class WebhookReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One delivery as received. */
    public record Delivery(String webhookId, String readId) {
    }

    private final HttpServer server;

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    private WebhookReceiver(HttpServer server) {
        this.server = server;
    }

    /**
     * Listens on a free port of 127.0.0.1.
     * @return the started receiver
     * @throws IOException when it cannot bind
     */
    public static WebhookReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        WebhookReceiver receiver = new WebhookReceiver(server);
        server.createContext("/hook", exchange -> {
            try (exchange) {
                JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
                receiver.deliveries.add(new Delivery(exchange.getRequestHeaders().getFirst("webhook-id"),
                        body.path("data").path("id").asText()));
                exchange.sendResponseHeaders(204, -1);
            }
        });
        server.start();
        return receiver;
    }

    /** The URL to subscribe. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    /**
     * Subscribes this receiver to a topic through the api ({@code POST
     * /api/v1/subscriptions}).
     * @param http the client that sends the request
     * @param api the api's base URI
     * @param readerKey the READER key that owns the subscription
     * @param topic the subscription's selector
     * @param description the subscription's description
     * @return the api's answer: 201 with the subscription, or a problem detail
     * @throws IOException when the api cannot be reached
     * @throws InterruptedException when interrupted while waiting for the answer
     */
    public HttpResponse<String> subscribe(HttpClient http, URI api, String readerKey, String topic, String description)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(api.resolve("/api/v1/subscriptions"))
            .header("Authorization", "Bearer " + readerKey)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JSON
                .writeValueAsString(Map.of("topic", topic, "url", url().toString(), "description", description))))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Every delivery received, with repeats, in arrival order. */
    public List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /**
     * Per read id, the number of distinct {@code webhook-id}s it arrived under (1 when
     * exactly once).
     */
    public Map<String, Integer> distinctDeliveriesPerRead() {
        Map<String, Set<String>> ids = new ConcurrentHashMap<>();
        deliveries.forEach(d -> ids.computeIfAbsent(d.readId(), k -> ConcurrentHashMap.newKeySet()).add(d.webhookId()));
        return ids.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size()));
    }

    /**
     * How many deliveries repeated a {@code webhook-id} already received (at-least-once
     * redeliveries).
     */
    public long redeliveries() {
        return deliveries.size() - deliveries.stream().map(Delivery::webhookId).distinct().count();
    }

    @Override
    public void close() {
        server.stop(0);
    }

}
