package io.chainfeed.api;

import static io.chainfeed.api.PipelineJson.JSON;
import static io.chainfeed.api.PipelineJson.layer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chainfeed.avro.ConstraintSignal;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The pages of issue 24 in a real headless Chromium over the real pipeline with the
 * bundled corpus and the bundled history since 2023, the chain state and its time travel
 * computed by a real streams service (tagging, chain state, indexer and the interactive
 * queries): the chain map's timeline (quarter ends, the slider, the day buttons, live) in
 * the URL and in step with {@code /api/v1/chain?asOf=}; a layer page charting its
 * pressure since 2023 with the signals that named it marked and linked to their sources
 * and reads; term and company pages with their layers' status now; the glossary index A
 * to Z filtered by layer and the companies by layer. Screenshots:
 * {@code target/screenshots/history-*.png}. Without chromium and chromedriver the class
 * is skipped, or fails when {@code CI=true}.
 */
@PipelineTest
class WebHistoryPagesIT {

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("web-history-it").withStreamsService("20s");

    @RegisterExtension
    static final BrowserSession browser = new BrowserSession("1400,1100");

    @Autowired
    TestRestTemplate http;

    private Map<String, Object> get(String path) {
        ResponseEntity<Map<String, Object>> r = http.exchange(URI.create(path), HttpMethod.GET, null, JSON);
        assertThat(r.getStatusCode()).as(path).isEqualTo(HttpStatus.OK);
        return r.getBody();
    }

    private void assertDisclaimerAndSources(String page) {
        browser.waiting().until(d -> !d.findElement(By.id("sources")).getText().contains("Loading"));
        assertThat(browser.driver().findElement(By.id("disclaimer")).getText()).as(page)
            .containsIgnoringCase("research, not advice");
        assertThat(browser.driver().findElements(By.cssSelector("#sources li"))).as(page + " sources").isNotEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theHistorySince2023OnTheChainMapLayerTermCompanyAndIndexPages() throws Exception {
        pipeline.publishReference();
        pipeline.startStreamsService();
        pipeline.loadCorpus();
        List<ConstraintSignal> history = pipeline.loadHistory();
        String newest = history.stream()
            .map(s -> s.getObservedAt())
            .max(Comparator.naturalOrder())
            .orElseThrow()
            .toString();
        // The live chain is as of the newest signal of the history, and the history makes
        // layers tight.
        // (and it has settled: two answers 1.5 s apart are equal, every signal processed)
        Object[] previous = { null };
        Map<String, Object> live = await().atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofMillis(1500))
            .until(() -> {
                Map<String, Object> c = http.exchange("/api/v1/chain", HttpMethod.GET, null, JSON).getBody();
                boolean settled = c != null && newest.equals(c.get("asOf")) && c.equals(previous[0]);
                previous[0] = c;
                return settled ? c : null;
            }, c -> c != null);
        List<Map<String, Object>> states = (List<Map<String, Object>>) live.get("layers");
        assertThat(states).anyMatch(l -> List.of("tight", "critical").contains(l.get("status")));
        Map<String, Object> tightest = states.get(0);
        assertThat((List<Map<String, Object>>) tightest.get("causes")).isNotEmpty()
            .allSatisfy(c -> assertThat((String) ((Map<String, Object>) c.get("source")).get("url"))
                .startsWith("https://"));

        // The API: the layer's history since 2023 in one answer (the step chosen to fit),
        // with its signals.
        Map<String, Object> memoryHistory = get("/api/v1/layers/memory/history?from=2023-01-01T00:00:00Z");
        List<Map<String, Object>> points = (List<Map<String, Object>>) memoryHistory.get("points");
        assertThat(points.size()).isBetween(2, 500);
        List<Map<String, Object>> marks = (List<Map<String, Object>>) memoryHistory.get("signals");
        long onMemory = history.stream().filter(s -> s.getLayerHints().contains("memory")).count();
        assertThat(marks).hasSize((int) onMemory);
        assertThat(marks).allSatisfy(m -> assertThat((String) m.get("readId")).isEqualTo("signal:" + m.get("id")));
        // a signal of 2023 (older than the model's forgetting horizon before the newest)
        // still moves 2023's chain
        Map<String, Object> first = marks.get(0);
        assertThat((String) first.get("observedAt")).startsWith("2023-");
        assertThat(points.stream()
            .filter(p -> ((String) p.get("at")).startsWith("2023-"))
            .anyMatch(p -> ((Number) p.get("pressure")).doubleValue() != 0)).isTrue();

        // The indexes' API: every term A to Z, a layer's terms, companies by layer.
        Map<String, Object> terms = get("/api/v1/terms");
        List<Map<String, Object>> termList = (List<Map<String, Object>>) terms.get("terms");
        assertThat(termList).hasSize(pipeline.loadCorpus().terms().size());
        List<String> titles = termList.stream().map(t -> ((String) t.get("title")).toLowerCase(Locale.ROOT)).toList();
        assertThat(titles).isSorted();
        Map<String, Object> memoryTerms = get("/api/v1/terms?layer=memory");
        assertThat((List<Map<String, Object>>) memoryTerms.get("terms")).isNotEmpty()
            .allSatisfy(t -> assertThat((List<Map<String, Object>>) t.get("layers"))
                .anyMatch(l -> "memory".equals(l.get("id"))));
        Map<String, Object> companies = get("/api/v1/companies");
        assertThat((List<Map<String, Object>>) companies.get("layers")).hasSize(pipeline.loadCorpus().layers().size());
        assertThat(layer(companies, "memory").get("companies").toString()).contains("Micron");

        WebDriver d = browser.driver();

        // The chain map opens on the live state, with the timeline since 2023 behind it.
        d.get(browser.url("/chain"));
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("svg#chain-map a.node")));
        browser.waiting().until(x -> x.findElement(By.id("chain-status")).getText().contains("Live state as of"));
        browser.waiting()
            .until(x -> states.stream()
                .allMatch(s -> String.valueOf(s.get("status"))
                    .equals(x.findElement(By.cssSelector("a.node[data-layer='" + s.get("id") + "']"))
                        .getAttribute("data-status"))));
        WebElement slider = d.findElement(By.id("timeline"));
        long days = ChronoUnit.DAYS.between(LocalDate.parse("2023-01-01"), LocalDate.now(ZoneOffset.UTC));
        assertThat(slider.getAttribute("max")).isEqualTo(String.valueOf(days));
        assertThat(slider.getAttribute("value")).isEqualTo(String.valueOf(days));
        assertThat(d.findElement(By.id("timeline-day")).getText()).startsWith("Live");
        // the largest cause of each layer links to its real source
        assertThat(d.findElements(By.cssSelector("#layer-table td.cause a[href^='https://']"))).isNotEmpty();
        HeadlessChromium.screenshot(browser.driver(), "history-chain-live");

        // A quarter end: the map and the URL follow, and the map shows the chain as of
        // that day.
        d.findElement(By.cssSelector(".quarters button[data-day='2023-06-30']")).click();
        String q2 = "2023-06-30T23:59:59Z";
        browser.waiting()
            .until(x -> x.getCurrentUrl().contains("asOf=" + URLEncoder.encode(q2, StandardCharsets.UTF_8))
                    && x.findElement(By.id("chain-status")).getText().contains("Replay: the chain as of " + q2));
        Map<String, Object> then = get("/api/v1/chain?asOf=" + q2);
        for (Map<String, Object> s : (List<Map<String, Object>>) then.get("layers")) {
            assertThat(d.findElement(By.cssSelector("a.node[data-layer='" + s.get("id") + "']"))
                .getAttribute("data-status")).as("%s as of %s", s.get("id"), q2).isEqualTo(s.get("status"));
        }
        assertThat(
                d.findElement(By.cssSelector(".quarters button[data-day='2023-06-30']")).getAttribute("aria-pressed"))
            .isEqualTo("true");
        assertThat(d.findElement(By.id("as-of")).getAttribute("value")).isEqualTo("2023-06-30");
        assertThat(slider.getAttribute("value")).isEqualTo(
                String.valueOf(ChronoUnit.DAYS.between(LocalDate.parse("2023-01-01"), LocalDate.parse("2023-06-30"))));
        HeadlessChromium.screenshot(browser.driver(), "history-chain-2023q2");
        // The day buttons stay: the day after moves the timeline too.
        d.findElement(By.xpath("//button[contains(., 'Day after')]")).click();
        browser.waiting().until(x -> x.findElement(By.id("chain-status")).getText().contains("2023-07-01T23:59:59Z"));
        assertThat(d.findElement(By.id("timeline-day")).getText()).startsWith("2023-07-01");
        // The URL is the state: opening it again shows the same day.
        d.get(browser.url("/chain?asOf=2024-03-31T23:59:59Z"));
        browser.waiting().until(x -> x.findElement(By.id("chain-status")).getText().contains("2024-03-31T23:59:59Z"));
        assertThat(
                d.findElement(By.cssSelector(".quarters button[data-day='2024-03-31']")).getAttribute("aria-pressed"))
            .isEqualTo("true");
        // The keyboard moves the slider; letting go shows that day.
        WebElement s2 = d.findElement(By.id("timeline"));
        s2.sendKeys(org.openqa.selenium.Keys.ARROW_RIGHT);
        browser.waiting().until(x -> x.findElement(By.id("chain-status")).getText().contains("2024-04-01T23:59:59Z"));
        d.findElement(By.id("live")).click();
        browser.waiting()
            .until(x -> !x.getCurrentUrl().contains("asOf")
                    && x.findElement(By.id("chain-status")).getText().contains("Live state as of"));
        assertDisclaimerAndSources("chain map");

        // The layer page: the pressure since 2023, every signal on the layer marked and
        // listed with its source.
        d.get(browser.url("/layers/memory"));
        browser.waiting()
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("svg.history-chart path.history-line")));
        assertThat(d.findElement(By.id("history-heading")).getText()).isEqualTo("Pressure since 2023");
        List<WebElement> drawn = d.findElements(By.cssSelector("svg.history-chart .history-marks a.mark"));
        assertThat(drawn).hasSize(marks.size());
        assertThat(d.findElements(By.cssSelector("svg.history-chart .history-marks a.mark-tightening")))
            .hasSize((int) marks.stream().filter(m -> "tightening".equals(m.get("direction"))).count());
        List<WebElement> listed = d.findElements(By.cssSelector("ol.marked-signals li"));
        assertThat(listed).hasSize(marks.size());
        // each mark links to its entry; each entry links to its source and its read
        String target = drawn.get(0).getDomAttribute("href");
        assertThat(target).endsWith("#signal-0");
        WebElement entry = d.findElement(By.id("signal-0"));
        assertThat(entry.getText()).contains((String) first.get("headline"),
                ((String) first.get("observedAt")).substring(0, 10));
        assertThat(entry.findElement(By.cssSelector("a[href^='https://']")).getDomAttribute("href"))
            .isEqualTo(((Map<String, Object>) first.get("source")).get("url"));
        assertThat(entry.findElement(By.xpath(".//a[.='read']")).getDomAttribute("href"))
            .endsWith("/api/v1/reads/" + URLEncoder.encode("signal:" + first.get("id"), StandardCharsets.UTF_8));
        Map<String, Object> withHorizon = marks.stream().filter(m -> m.get("until") != null).findFirst().orElse(null);
        if (withHorizon != null) {
            assertThat(d.findElement(By.tagName("main")).getText()).contains((String) withHorizon.get("headline"))
                .contains("holds until " + ((String) withHorizon.get("until")).substring(0, 10));
        }
        String desc = d.findElement(By.cssSelector("svg.history-chart desc")).getAttribute("textContent");
        assertThat(desc).contains(marks.size() + " signals marked");
        assertDisclaimerAndSources("layer page");
        HeadlessChromium.screenshot(browser.driver(), "history-layer");

        // A term page: its layers now, from the live chain, and the links the glossary
        // pages carry.
        Map<String, Object> memoryNow = layer(live, "memory");
        d.get(browser.url("/terms/hbm"));
        browser.waiting()
            .until(ExpectedConditions
                .presenceOfElementLocated(By.cssSelector("#layers-now li[data-layer='memory'] .status-badge")));
        WebElement memoryLine = d.findElement(By.cssSelector("#layers-now li[data-layer='memory']"));
        assertThat(memoryLine.findElement(By.cssSelector(".status-badge")).getText().toLowerCase(Locale.ROOT))
            .isEqualTo(memoryNow.get("status"));
        assertThat(memoryLine.getText())
            .contains(String.format(Locale.ROOT, "pressure %.2f", ((Number) memoryNow.get("pressure")).doubleValue()));
        assertThat(memoryLine.findElement(By.cssSelector("a[href='/layers/memory']"))).isNotNull();
        assertThat(d.findElement(By.cssSelector("#term-more a[href='/terms']")).getText())
            .isEqualTo("All glossary terms");
        HeadlessChromium.screenshot(browser.driver(), "history-term");

        // A company page: the layers it owns, with their status, pressure and trend now.
        d.get(browser.url("/companies/MU"));
        browser.waiting()
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#layers-now li[data-layer='memory']")));
        assertThat(d.findElement(By.cssSelector("#layers-now li[data-layer='memory']")).getText())
            .contains(String.format(Locale.ROOT, "pressure %.2f, %s",
                    ((Number) memoryNow.get("pressure")).doubleValue(), memoryNow.get("trend")));

        // The glossary index: A to Z, then only the terms of a layer, in the URL.
        d.get(browser.url("/terms"));
        browser.waiting()
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#terms-index li[data-term]")));
        assertThat(d.findElements(By.cssSelector("#terms-index li[data-term]"))).hasSize(termList.size());
        assertThat(d.findElement(By.id("terms-count")).getText()).startsWith(termList.size() + " terms");
        assertThat(d.findElements(By.cssSelector("header nav a[href='/terms']"))).hasSize(1);
        assertThat(d.findElements(By.cssSelector("header nav a[href='/companies']"))).hasSize(1);
        HeadlessChromium.screenshot(browser.driver(), "history-terms");
        new Select(d.findElement(By.id("layer-filter"))).selectByValue("memory");
        int memoryCount = ((List<?>) memoryTerms.get("terms")).size();
        browser.waiting()
            .until(x -> x.getCurrentUrl().endsWith("/terms?layer=memory")
                    && x.findElements(By.cssSelector("#terms-index li[data-term]")).size() == memoryCount);
        assertDisclaimerAndSources("glossary index");

        // The companies by layer, and one layer of them.
        d.get(browser.url("/companies"));
        browser.waiting()
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#companies-index section[data-layer]")));
        assertThat(d.findElements(By.cssSelector("#companies-index section[data-layer]")))
            .hasSize(pipeline.loadCorpus().layers().size());
        assertThat(d.findElement(By.cssSelector("#companies-index section[data-layer='memory']")).getText())
            .contains("Micron Technology (MU)");
        HeadlessChromium.screenshot(browser.driver(), "history-companies");
        new Select(d.findElement(By.id("layer-filter"))).selectByValue("memory");
        browser.waiting()
            .until(x -> x.findElements(By.cssSelector("#companies-index section[data-layer]")).size() == 1);
        assertThat(d.getCurrentUrl()).endsWith("/companies?layer=memory");
        assertDisclaimerAndSources("company index");

        assertThat(HeadlessChromium.consoleProblems(browser.driver()))
            .as("CSP violations or script errors in the console")
            .isEmpty();
    }

}
