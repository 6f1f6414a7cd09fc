package io.chainfeed.api;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * Test helper for the pipeline ITs that read the API's JSON answers as maps: the answer
 * type, a GET that tolerates a not-yet-ready API, and a layer of a chain answer.
 */
final class PipelineJson {

    /** A JSON object answer as a map. */
    static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    private PipelineJson() {
    }

    /**
     * @param http the client of the API under test
     * @param path the path and query to GET
     * @return the answer's body when it is a 200, else null (for polling)
     */
    static Map<String, Object> bodyIfOk(TestRestTemplate http, String path) {
        ResponseEntity<Map<String, Object>> r = http.exchange(URI.create(path), HttpMethod.GET, null, JSON);
        return r.getStatusCode() == HttpStatus.OK ? r.getBody() : null;
    }

    /**
     * @param chain a {@code /api/v1/chain} answer
     * @param id a layer id
     * @return that layer's entry in the answer
     * @throws java.util.NoSuchElementException if the answer has no such layer
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> layer(Map<String, Object> chain, String id) {
        return ((List<Map<String, Object>>) chain.get("layers")).stream()
            .filter(l -> id.equals(l.get("id")))
            .findFirst()
            .orElseThrow();
    }

}
