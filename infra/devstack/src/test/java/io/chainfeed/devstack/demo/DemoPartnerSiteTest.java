package io.chainfeed.devstack.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class DemoPartnerSiteTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesThePageWithTheKeyAndOnlyTheDocumentedPolicyLines() throws Exception {
        try (DemoPartnerSite site = DemoPartnerSite.start(InetAddress.getLoopbackAddress(), 0,
                URI.create("http://localhost:8080/"), "cf_abc\"<x>", "http://localhost:8090")) {
            HttpResponse<String> page = get(site.port(), "/");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
            assertThat(page.headers().firstValue("Content-Security-Policy")).contains(
                    "default-src 'self'; script-src 'self' http://localhost:8080; connect-src http://localhost:8080; "
                            + "frame-src http://localhost:8080; style-src 'self'; img-src 'self'; object-src 'none'; "
                            + "base-uri 'none'; form-action 'none'");
            String html = page.body();
            assertThat(html).contains("<script src=\"http://localhost:8080/widget/v1/chainfeed.js\" async></script>",
                    "<chainfeed-term id=\"term-rdma\" term=\"rdma\" key=\"cf_abc&quot;&lt;x&gt;\"",
                    "<chainfeed-feed id=\"feed-fabric\" topic=\"layer:network-fabric\" limit=\"5\" live",
                    "<chainfeed-chain",
                    "src=\"http://localhost:8080/embed/term/cowos?key=cf_abc&quot;&lt;x&gt;&amp;theme=auto\"",
                    "title=\"chainfeed: glossary term CoWoS\"");
            assertThat(html).doesNotContain("{{", "cf_abc\"<x>", "<style", "style=");
            assertThat(get(site.port(), "/demo.css").headers().firstValue("Content-Type"))
                .contains("text/css; charset=utf-8");
            assertThat(get(site.port(), "/demo.js").body()).contains("data-theme-choice");
            assertThat(get(site.port(), "/nothing").statusCode()).isEqualTo(404);
        }
    }

}
