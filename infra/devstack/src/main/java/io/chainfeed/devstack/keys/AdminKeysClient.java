package io.chainfeed.devstack.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A client of the api's key administration ({@code /api/v1/admin/keys}, under
 * {@code Authorization: Bearer <admin key>}), for the {@code keys} CLI and the launcher's
 * demo page.
 */
public final class AdminKeysClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI keys;

    private final String adminKey;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * The api refused a call: its status and the problem detail's {@code detail} (or the
     * raw body).
     */
    public static final class Refused extends IOException {

        private final int status;

        Refused(int status, String detail) {
            super("the api answered " + status + ": " + detail);
            this.status = status;
        }

        /**
         * @return the HTTP status
         */
        public int status() {
            return status;
        }

    }

    /**
     * @param api the api's base URL, e.g. {@code http://localhost:8080}
     * @param adminKey an admin key (the key itself; the api holds only its SHA-256)
     */
    public AdminKeysClient(URI api, String adminKey) {
        this.keys = api.resolve("/api/v1/admin/keys");
        this.adminKey = adminKey;
    }

    /**
     * Issues a key.
     * @param kind {@code READER} or {@code PARTNER} (any case)
     * @param label who or what it is for
     * @param allowedOrigins browser origins ({@code scheme://host[:port]}); required for
     * PARTNER keys
     * @param ratePerMinute requests a minute, or null for the api's default
     * @return the api's answer: {@code id}, {@code token} (shown only now), {@code kind},
     * {@code label}, {@code allowedOrigins}, {@code ratePerMinute} ...
     * @throws Refused on a 4xx/5xx answer
     * @throws IOException when the api cannot be reached
     */
    public JsonNode create(String kind, String label, List<String> allowedOrigins, Integer ratePerMinute)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("kind", kind.toUpperCase(Locale.ROOT));
        body.put("label", label);
        body.putPOJO("allowedOrigins", allowedOrigins);
        if (ratePerMinute != null) {
            body.put("ratePerMinute", ratePerMinute);
        }
        return send(request(keys).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
            .build());
    }

    /**
     * @return the keys that are not revoked (never their tokens)
     */
    public JsonNode list() throws IOException, InterruptedException {
        return send(request(keys).GET().build());
    }

    /**
     * @param id a key id
     * @throws Refused (404) when no such key exists
     */
    public void revoke(String id) throws IOException, InterruptedException {
        send(request(keys.resolve("keys/" + URLEncoder.encode(id, StandardCharsets.UTF_8))).DELETE().build());
    }

    private HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30))
            .header("Accept", "application/json")
            .header("Authorization", "Bearer " + adminKey);
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode body = r.body() == null || r.body().isBlank() ? JSON.nullNode() : parse(r.body());
        if (r.statusCode() >= 400) {
            throw new Refused(r.statusCode(), body.hasNonNull("detail") ? body.get("detail").asText() : r.body());
        }
        return body;
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        }
        catch (IOException e) {
            return JSON.getNodeFactory().textNode(text);
        }
    }

}
