package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.testsupport.PrometheusScrape;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The rate-limit fields the OpenAPI description declares against the ones the api sends,
 * answer by answer: a public path, the webhook subscriptions (401 and 403 before the
 * key's bucket, answers after it, the key's 429), the admin key paths (their own
 * per-client quota up to its 429), the widget's paths and the public quota's 429, each
 * from a client behind the trusted loopback proxy. Every 2xx and 4xx answer must carry
 * exactly the rate-limit fields its status declares (the draft-10 {@code RateLimit} and
 * {@code RateLimit-Policy}, no other style), with values matching the declared patterns
 * and the policies that applied, and every 429 {@code Retry-After}. The public quota's
 * 429 is held for the refusal delay before it is sent, and counted on
 * {@code /actuator/prometheus}.
 */
@PipelineTest
@AutoConfigureObservability
class RateLimitFieldsIT {

    private static final String ADMIN_KEY = "ratelimit-it-admin-" + UUID.randomUUID();

    /** The public paths' quota per client here: small, so one client spends it fast. */
    private static final int CLIENT_RATE = 20;

    /** The admin key paths' quota per client here. */
    private static final int ADMIN_RATE = 3;

    private static final String ORIGIN = "https://partner.example";

    /** Any rate-limit field of any style: the draft's, the older trio, X-RateLimit-*. */
    private static final Pattern ANY_RATE_FIELD = Pattern.compile("^(x-)?rate-?limit.*", Pattern.CASE_INSENSITIVE);

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final HttpClient HTTP = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("ratelimit-it");

    @DynamicPropertySource
    static void limits(DynamicPropertyRegistry registry) {
        registry.add("chainfeed.api.admin-key-hashes", () -> HashedKeys.hash(ADMIN_KEY));
        registry.add("chainfeed.api.client-limits.per-minute", () -> CLIENT_RATE);
        registry.add("chainfeed.api.client-limits.admin-per-minute", () -> ADMIN_RATE);
    }

    @LocalServerPort
    int port;

    private JsonNode description;

    private int clients;

    private final List<String> checked = new ArrayList<>();

    /**
     * One request: where it goes, as whom, and the path template it is described under.
     */
    private record Call(String method, String template, String path, String client, String bearer, String origin,
            String body) {
    }

    @Test
    void everyLimitedAnswerCarriesExactlyTheFieldsItsDescriptionDeclares() throws Exception {
        pipeline.start();
        description = JSON.readTree(send(new Call("GET", null, "/v3/api-docs", null, null, null, null)).body());

        // A public path: the client's policy alone.
        String reader = client();
        answer(new Call("GET", "/api/v1/layers", "/api/v1/layers", reader, null, null, null), 200, "client");
        answer(new Call("GET", "/api/v1/search", "/api/v1/search?q=memory&size=0", reader, null, null, null), 400,
                "client");

        // The admin key paths: their own quota per client, up to its 429.
        String operator = client();
        String readerKey = issue(operator,
                "{\"kind\":\"READER\",\"label\":\"ratelimit-it reader\",\"ratePerMinute\":3}");
        String partnerKey = issue(operator, "{\"kind\":\"PARTNER\",\"label\":\"ratelimit-it partner\","
                + "\"allowedOrigins\":[\"" + ORIGIN + "\"]}");
        answer(new Call("GET", "/api/v1/admin/keys", "/api/v1/admin/keys", operator, "not-the-admin-key", null, null),
                401, "admin");
        HttpResponse<String> adminRefused = answer(
                new Call("GET", "/api/v1/admin/keys", "/api/v1/admin/keys", operator, ADMIN_KEY, null, null), 429,
                "admin");
        assertThat(adminRefused.body()).contains("too-many-requests").contains("admin key paths");
        String other = client();
        answer(new Call("DELETE", "/api/v1/admin/keys/{id}", "/api/v1/admin/keys/nosuchkey001", other, ADMIN_KEY, null,
                null), 404, "admin");
        // the admin quota is its own: the same address still has the public one whole
        answer(new Call("GET", "/api/v1/layers", "/api/v1/layers", operator, null, null, null), 200, "client");

        // Subscriptions: 401 and 403 are answered before the key's bucket, under the
        // client's limit alone; the rest draw on both, up to the key's 429.
        String subscriber = client();
        answer(new Call("GET", "/api/v1/subscriptions", "/api/v1/subscriptions", subscriber, null, null, null), 401,
                "client");
        answer(new Call("GET", "/api/v1/subscriptions", "/api/v1/subscriptions", subscriber, partnerKey, null, null),
                403, "client");
        answer(new Call("GET", "/api/v1/subscriptions", "/api/v1/subscriptions", subscriber, readerKey, null, null),
                200, "client", "key");
        answer(new Call("GET", "/api/v1/subscriptions/{id}", "/api/v1/subscriptions/nosuch", subscriber, readerKey,
                null, null), 404, "client", "key");
        answer(new Call("DELETE", "/api/v1/subscriptions/{id}", "/api/v1/subscriptions/nosuch", subscriber, readerKey,
                null, null), 404, "client", "key");
        answer(new Call("GET", "/api/v1/subscriptions", "/api/v1/subscriptions", subscriber, readerKey, null, null),
                429, "client", "key");

        // The widget's paths: the same split between the client's and the key's limit.
        String visitor = client();
        String k = "&key=" + partnerKey;
        answer(new Call("GET", "/widget/v1/data/feed", "/widget/v1/data/feed?topic=all", visitor, null, ORIGIN, null),
                401, "client");
        answer(new Call("GET", "/widget/v1/data/feed", "/widget/v1/data/feed?topic=all&key=" + readerKey, visitor, null,
                ORIGIN, null), 403, "client");
        answer(new Call("GET", "/widget/v1/data/feed", "/widget/v1/data/feed?topic=all" + k, visitor, null,
                "https://elsewhere.example", null), 403, "client");
        answer(new Call("GET", "/widget/v1/data/feed", "/widget/v1/data/feed?topic=layer:" + k, visitor, null, ORIGIN,
                null), 400, "client", "key");
        answer(new Call("GET", "/oembed", "/oembed?url=" + enc("https://elsewhere.example/terms/x") + k, visitor, null,
                null, null), 404, "client", "key");
        answer(new Call("GET", "/embed/chain", "/embed/chain", visitor, null, null, null), 401, "client");

        // The public quota spent: a 429 under the client's policy alone, held for the
        // refusal delay (1 s by default, under this policy's Retry-After) before it is
        // sent.
        HttpResponse<String> refused = null;
        long refusedNanos = 0;
        for (int i = 0; i < 3 * CLIENT_RATE && refused == null; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = send(new Call("GET", null, "/api/v1/layers", visitor, null, null, null));
            if (r.statusCode() == 429) {
                refused = r;
                refusedNanos = System.nanoTime() - start;
            }
        }
        assertThat(refused).as("the client's quota runs out").isNotNull();
        assertThat(refusedNanos).as("the refusal was held").isGreaterThanOrEqualTo(1_000_000_000L);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(JSON.readTree(refused.body()).path("status").asInt()).isEqualTo(429);
        HttpResponse<String> scrape = send(new Call("GET", null, "/actuator/prometheus", null, null, null, null));
        assertThat(new PrometheusScrape("api", scrape.body()).value("chainfeed_refusals_total", "answered=\"delayed\""))
            .as("held refusals are counted")
            .hasValueSatisfying(n -> assertThat(n).isPositive());
        check(new Call("GET", "/api/v1/layers", "/api/v1/layers", visitor, null, null, null), refused, "client");

        // Straight from the trusted proxy: no per-client limit, so no field at all.
        HttpResponse<String> own = send(new Call("GET", null, "/api/v1/layers", null, null, null, null));
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(rateFields(own)).isEmpty();

        assertThat(checked).hasSize(21);
    }

    /** A client address of its own (TEST-NET-2), with buckets no other step touches. */
    private String client() {
        return "198.51.100." + (++clients);
    }

    private String issue(String client, String body) throws Exception {
        HttpResponse<String> r = answer(
                new Call("POST", "/api/v1/admin/keys", "/api/v1/admin/keys", client, ADMIN_KEY, null, body), 201,
                "admin");
        return JSON.readTree(r.body()).path("token").asText();
    }

    /** Sends the call, checks its status and then its fields against the description. */
    private HttpResponse<String> answer(Call call, int status, String... policies) throws Exception {
        HttpResponse<String> r = send(call);
        assertThat(r.statusCode()).as(call.method() + " " + call.path() + ": " + r.body()).isEqualTo(status);
        check(call, r, policies);
        return r;
    }

    /**
     * The answer's rate-limit fields are exactly the ones its operation declares for its
     * status, their values match the declared patterns and name the policies given, in
     * that order.
     */
    private void check(Call call, HttpResponse<String> r, String... policies) {
        String what = call.method() + " " + call.path() + " " + r.statusCode();
        JsonNode declared = description.path("paths")
            .path(call.template())
            .path(call.method().toLowerCase(Locale.ROOT))
            .path("responses")
            .path(Integer.toString(r.statusCode()));
        assertThat(declared.isMissingNode()).as(what + " is a declared answer").isFalse();
        Set<String> declaredFields = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        declared.path("headers").fieldNames().forEachRemaining(h -> {
            if (ANY_RATE_FIELD.matcher(h).matches()) {
                declaredFields.add(h);
            }
        });
        assertThat(declaredFields).as(what + ": declared").containsExactlyInAnyOrder("RateLimit", "RateLimit-Policy");
        assertThat(rateFields(r)).as(what + ": sent").containsExactlyInAnyOrderElementsOf(declaredFields);
        List<String> named = new ArrayList<>();
        for (String field : declaredFields) {
            List<String> values = r.headers().allValues(field);
            assertThat(values).as(what + ": one " + field + " field").hasSize(1);
            String pattern = description.path("components")
                .path("headers")
                .path(field)
                .path("schema")
                .path("pattern")
                .asText();
            assertThat(values.get(0)).as(what + ": " + field).matches(pattern);
            if (field.equals("RateLimit-Policy")) {
                for (String item : values.get(0).split(", ")) {
                    named.add(item.substring(1, item.indexOf('"', 1)));
                }
            }
        }
        assertThat(named).as(what + ": policies").containsExactly(policies);
        if (r.statusCode() == 429) {
            assertThat(declared.path("headers").has("Retry-After")).as(what + ": Retry-After declared").isTrue();
            assertThat(r.headers().firstValue("Retry-After")).as(what + ": Retry-After sent").isPresent();
        }
        checked.add(what);
    }

    private static Set<String> rateFields(HttpResponse<String> r) {
        Set<String> sent = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        r.headers().map().keySet().stream().filter(h -> ANY_RATE_FIELD.matcher(h).matches()).forEach(sent::add);
        return sent;
    }

    private HttpResponse<String> send(Call call) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + call.path()))
            .timeout(Duration.ofSeconds(30))
            .method(call.method(), call.body() == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(call.body()));
        if (call.body() != null) {
            b.header("Content-Type", "application/json");
        }
        if (call.client() != null) {
            b.header("X-Forwarded-For", call.client());
        }
        if (call.bearer() != null) {
            b.header("Authorization", "Bearer " + call.bearer());
        }
        if (call.origin() != null) {
            b.header("Origin", call.origin());
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

}
