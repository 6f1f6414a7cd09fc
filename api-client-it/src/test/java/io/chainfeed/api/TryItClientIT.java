package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chainfeed.client.ApiClient;
import io.chainfeed.client.api.ChainApi;
import io.chainfeed.client.api.KeysApi;
import io.chainfeed.client.api.SearchApi;
import io.chainfeed.client.api.SubscriptionsApi;
import io.chainfeed.client.model.ChainAnswer;
import io.chainfeed.client.model.CompanyAnswer;
import io.chainfeed.client.model.CreatedSubscription;
import io.chainfeed.client.model.IssuedApiKey;
import io.chainfeed.client.model.KeyRequest;
import io.chainfeed.client.model.SearchResults;
import io.chainfeed.client.model.SubscriptionRequest;
import io.chainfeed.platform.auth.HashedKeys;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * README's "Try it", through the Java client generated from the api's OpenAPI
 * description, against a real pipeline (an embedded KRaft broker, a real Elasticsearch,
 * the tagging and chain-state topologies, the real ingest service): search, a company by
 * any ticker, a page posted, a signal posted, the chain, a key and a webhook
 * subscription. Pages and signals go to ingest (not part of the api's description) over
 * plain HTTP; everything read comes back as the generated client's typed models.
 */
@PipelineTest(properties = { "chainfeed.webhooks.allow-loopback=true" })
class TryItClientIT {

    private static final String EDITOR_KEY = "try-it-editor-key";

    private static final String ADMIN_KEY = "try-it-admin-key";

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("try-it-client-it", TestPipeline.Streams.TAGGING,
            TestPipeline.Streams.CHAIN_STATE);

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void keys(DynamicPropertyRegistry registry) {
        byte[] master = new byte[32];
        new SecureRandom().nextBytes(master);
        registry.add("chainfeed.api.admin-key-hashes", () -> HashedKeys.hash(ADMIN_KEY));
        registry.add("chainfeed.webhooks.master-key", () -> Base64.getEncoder().encodeToString(master));
    }

    @Test
    void readmesTryItWorksThroughTheGeneratedClient() throws Exception {
        String ingest = pipeline.startWithIngestService(EDITOR_KEY);
        pipeline.loadCorpus();
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://127.0.0.1:" + port);
        SearchApi search = new SearchApi(client);
        ChainApi chain = new ChainApi(client);

        // Search, and a company by any of its tickers, its id or its name.
        SearchResults cowos = await().atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptions()
            .until(() -> search.search("cowos", null, null, List.of("TSM"), null, null, null, null, null, null, null),
                    r -> r.getTotal() > 0);
        assertThat(cowos.getResults()).isNotEmpty().allSatisfy(r -> assertThat(r.getId()).isNotBlank());
        for (String name : List.of("2330.TW", "TSM", "tsmc")) {
            CompanyAnswer tsmc = chain.getCompany(name, null);
            assertThat(tsmc.getId()).as(name).isEqualTo("tsmc");
            assertThat(tsmc.getSymbol()).isEqualTo("2330.TW");
        }
        assertThat(search.suggest("tsm", null).getSuggestions()).isNotEmpty();

        // A page posted to ingest, then found through the client.
        String page;
        try (InputStream in = TryItClientIT.class.getResourceAsStream("/pages/optical-circuit-switch.txt")) {
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(post(ingest + "/ingest/v1/pages?sourceUrl=https://example.org/glossary/optical-circuit-switch",
                "text/plain", page, null))
            .isEqualTo(202);
        await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptions()
            .until(() -> search.search("optical circuit switch", null, null, null, null, null, null, null, null, null,
                    null),
                    r -> r.getResults().stream().anyMatch(x -> x.getId().startsWith("term:optical-circuit-switch")));
        // Once the names catalog has reloaded (every 30 s), the new term is the top
        // result
        // for its name and for its acronym: the page's title "Optical circuit switch
        // (OCS)"
        // gives both as aliases.
        for (String name : List.of("optical circuit switch", "OCS")) {
            await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> search.search(name, null, null, null, null, null, null, null, null, null, null),
                        r -> r.getTop() != null && r.getTop().getId().startsWith("term:optical-circuit-switch"));
        }

        // A signal posted with the editor key, then the chain counts it.
        String signal;
        try (InputStream in = TryItClientIT.class.getResourceAsStream("/signal-hbm.json")) {
            signal = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(post(ingest + "/ingest/v1/signals", "application/json", signal, EDITOR_KEY)).isEqualTo(202);
        ChainAnswer now = await().atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptions()
            .until(() -> chain.getChain(null),
                    c -> c.getLayers().stream().anyMatch(l -> l.getSignalCount() != null && l.getSignalCount() > 0));
        assertThat(now.getDisclaimer()).isNotBlank();

        // A READER key from the admin endpoint, and a webhook subscription under it.
        KeyRequest request = new KeyRequest().kind(KeyRequest.KindEnum.READER).label("Try it").ratePerMinute(600);
        IssuedApiKey key = new KeysApi(client).issueKey(request, Map.of("Authorization", "Bearer " + ADMIN_KEY));
        assertThat(key.getToken()).startsWith("cf_");
        assertThat(key.getKind()).isEqualTo("READER");
        Map<String, String> reader = Map.of("Authorization", "Bearer " + key.getToken());
        SubscriptionsApi subscriptions = new SubscriptionsApi(client);
        CreatedSubscription created = subscriptions.createSubscription(
                new SubscriptionRequest().topic("layer:memory").url("http://127.0.0.1:9/hooks").description("Try it"),
                reader);
        assertThat(created.getSecret()).startsWith("whsec_");
        assertThat(subscriptions.listSubscriptions(reader).getSubscriptions()).extracting(s -> s.getId())
            .containsExactly(created.getId());
        assertThat(subscriptions.getSubscription(created.getId(), reader).getTopic()).isEqualTo("layer:memory");
    }

    private static int post(String url, String type, String body, String bearer) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            r.header("Authorization", "Bearer " + bearer);
        }
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

}
