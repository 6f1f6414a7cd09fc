package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.Topics;
import io.chainfeed.testsupport.PrometheusScrape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openapitools.openapidiff.core.OpenApiCompare;
import org.openapitools.openapidiff.core.model.ChangedOpenApi;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * Writes the api's OpenAPI description, as {@code /v3/api-docs} serves it, to
 * {@code target/openapi/openapi.json}, where the build lints it ({@code build/api-lint}:
 * Spectral with the OWASP ruleset, Redocly) and the generated client is made from it; and
 * checks that every JSON answer of {@code /api/v1} and {@code /widget/v1} has a named
 * schema, and that nothing of {@code /api/v1} broke against the released description
 * ({@code src/test/resources/openapi/released.json}, openapi-diff).
 */
@PipelineTest
@AutoConfigureObservability
class OpenApiDescriptionIT {

    /** Where the description is written, relative to the module. */
    static final Path FILE = Path.of("target", "openapi", "openapi.json");

    /**
     * The description of the released API, which the current one must stay compatible
     * with.
     */
    static final Path RELEASED = Path.of("src", "test", "resources", "openapi", "released.json");

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("openapi-it");

    @Autowired
    TestRestTemplate http;

    @Test
    void theDescriptionIsWrittenAndEveryJsonAnswerHasANamedSchema() throws Exception {
        ResponseEntity<String> docs = http.getForEntity("/v3/api-docs", String.class);
        assertThat(docs.getStatusCode()).isEqualTo(HttpStatus.OK);
        ObjectMapper json = new ObjectMapper();
        JsonNode api = json.readTree(docs.getBody());
        Files.createDirectories(FILE.getParent());
        Files.writeString(FILE, json.writerWithDefaultPrettyPrinter().writeValueAsString(api));

        assertThat(api.path("openapi").asText()).startsWith("3.0");
        List<String> untyped = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : api.path("paths").properties()) {
            if (!path.getKey().startsWith("/api/v1/") && !path.getKey().startsWith("/widget/v1/")) {
                continue;
            }
            for (Map.Entry<String, JsonNode> op : path.getValue().properties()) {
                for (Map.Entry<String, JsonNode> answer : op.getValue().path("responses").properties()) {
                    for (Map.Entry<String, JsonNode> media : answer.getValue().path("content").properties()) {
                        if (media.getKey().contains("json") && !named(media.getValue().path("schema"))) {
                            untyped
                                .add(op.getKey() + " " + path.getKey() + " " + answer.getKey() + " " + media.getKey());
                        }
                    }
                }
            }
        }
        assertThat(untyped).as("JSON answers without a named schema").isEmpty();
        assertThat(api.path("components").path("securitySchemes").fieldNames()).toIterable()
            .contains("readerKey", "editorKey", "adminKey", "partnerKey");

        // No breaking change to /api/v1 against the released description.
        ChangedOpenApi diff = OpenApiCompare.fromContents(Files.readString(RELEASED), Files.readString(FILE));
        List<String> breaking = new ArrayList<>();
        diff.getMissingEndpoints()
            .stream()
            .filter(e -> e.getPathUrl().startsWith("/api/v1/"))
            .forEach(e -> breaking.add("removed: " + e.getMethod() + " " + e.getPathUrl()));
        diff.getChangedOperations()
            .stream()
            .filter(o -> o.getPathUrl().startsWith("/api/v1/") && o.isIncompatible())
            .forEach(o -> breaking.add("incompatible: " + o.getHttpMethod() + " " + o.getPathUrl()));
        assertThat(breaking)
            .as("breaking changes to /api/v1 against " + RELEASED
                    + " (a new major version of the API, or a compatible change)")
            .isEmpty();
    }

    /**
     * Right after start, the api's {@code chainfeed_*} series are there (at zero), the
     * dead-letter counters of its Kafka readers included, and Prometheus's linter
     * ({@code promtool check metrics}, Debian's {@code prometheus} package, which
     * {@code .ci/run} installs) finds nothing on them ({@link PrometheusScrape}). Without
     * promtool the lint is skipped, unless {@code CI=true}.
     */
    @Test
    void theChainfeedSeriesAreThereAtStartAndPassPromtool() {
        PrometheusScrape metrics = new PrometheusScrape("api", http.getForObject("/actuator/prometheus", String.class));
        for (String outcome : List.of("delivered", "retry", "dead_letter", "disabled")) {
            metrics.assertZero("chainfeed_webhook_deliveries_total", "application=\"chainfeed-api\"",
                    "outcome=\"" + outcome + "\"");
        }
        Map<String, String> readers = Map.of("api-read-log", Topics.READS, "chainfeed-api-reference-layers",
                Topics.LAYERS, "chainfeed-api-reference-companies", Topics.COMPANIES, "chainfeed-api-chain-state",
                Topics.CHAIN_STATE, "chainfeed-api-chain-causes", Topics.CHAIN_CAUSES, "chainfeed-api-keys",
                Topics.API_KEYS, "chainfeed-api-webhook-subscriptions", Topics.WEBHOOK_SUBSCRIPTIONS,
                "chainfeed-api-webhook-deliveries", Topics.WEBHOOK_DELIVERIES);
        readers.forEach((reader, topic) -> {
            for (DeadLetters.Reason reason : DeadLetters.Reason.values()) {
                metrics.assertZero("chainfeed_dead_letters_total", "application=\"chainfeed-api\"",
                        "reader=\"" + reader + "\"", "reason=\"" + reason.tag() + "\"", "topic=\"" + topic + "\"");
            }
        });
        metrics.assertChainfeedSeriesPassPromtool();
    }

    private static boolean named(JsonNode schema) {
        return schema.has("$ref") || schema.path("items").has("$ref");
    }

}
