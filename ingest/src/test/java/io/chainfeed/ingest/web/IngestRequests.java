package io.chainfeed.ingest.web;

import java.util.Map;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * POSTs to the ingest service under test and reads its JSON answer (an RFC 9457 problem
 * detail on errors).
 */
final class IngestRequests {

    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    private IngestRequests() {
    }

    /**
     * @param http the test's client of the running service
     * @param path the path with its query, e.g. {@code /ingest/v1/pages?dryRun=true}
     * @param body the request body
     * @param type its Content-Type
     * @param bearer the editor key sent as {@code Authorization: Bearer}, or null for
     * none
     * @return the answer, its body parsed as a JSON object
     */
    static ResponseEntity<Map<String, Object>> post(TestRestTemplate http, String path, String body, MediaType type,
            String bearer) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(type);
        if (bearer != null) {
            headers.setBearerAuth(bearer);
        }
        return http.exchange(path, HttpMethod.POST, new HttpEntity<>(body, headers), JSON);
    }

}
