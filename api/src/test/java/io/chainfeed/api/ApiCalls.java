package io.chainfeed.api;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Plain HTTP calls to an api instance under test, with an optional API key and JSON body.
 */
final class ApiCalls {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ApiCalls() {
    }

    /**
     * @param base the instance, {@code http://127.0.0.1:<port>}
     * @param method the HTTP method
     * @param path the path and query
     * @param token an API key sent as {@code Authorization: Bearer}, or null
     * @param json a JSON body, or null
     * @return the answer, its body as text (30 s timeout)
     */
    static HttpResponse<String> call(String base, String method, String path, String token, String json)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30))
            .method(method,
                    json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

}
