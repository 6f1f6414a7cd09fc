package io.chainfeed.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@link PrometheusScrape} reads the samples of an exposition text. */
class PrometheusScrapeTest {

    private static final PrometheusScrape SCRAPE = new PrometheusScrape("api", """
            # HELP http_server_requests_seconds time
            # TYPE http_server_requests_seconds histogram
            http_server_requests_seconds_bucket{method="GET",status="200",uri="/embed/term/{slug}",le="0.01"} 12
            http_server_requests_seconds_bucket{method="GET",status="200",uri="/embed/term/{slug}",le="+Inf"} 13
            http_server_requests_seconds_bucket_extra{uri="/x",le="0.01"} 99
            http_server_requests_seconds_bucket{error="a \\"quoted\\", comma",le="0.05"} 1.5E1
            process_uptime_seconds 4.2
            """);

    @Test
    void samplesAreEveryLineOfThatNameWithItsLabelsAndValue() {
        assertThat(SCRAPE.samples("http_server_requests_seconds_bucket")).containsExactly(
                new PrometheusScrape.Sample(
                        Map.of("method", "GET", "status", "200", "uri", "/embed/term/{slug}", "le", "0.01"), 12),
                new PrometheusScrape.Sample(
                        Map.of("method", "GET", "status", "200", "uri", "/embed/term/{slug}", "le", "+Inf"), 13),
                new PrometheusScrape.Sample(Map.of("error", "a \\\"quoted\\\", comma", "le", "0.05"), 15));
        assertThat(SCRAPE.samples("process_uptime_seconds"))
            .containsExactly(new PrometheusScrape.Sample(Map.of(), 4.2));
        assertThat(SCRAPE.samples("absent")).isEmpty();
    }

}
