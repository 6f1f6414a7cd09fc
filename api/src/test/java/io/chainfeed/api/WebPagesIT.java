package io.chainfeed.api;

import static io.chainfeed.api.PipelineJson.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The web pages in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, driven by Selenium) over the real pipeline with the bundled
 * corpus: instant search with highlights and facets, a facet filter, a term page, then
 * (after a tightening signal through the real chain-state topology) company and layer
 * pages and the chain map coloured by state; the disclaimer and the sources on every
 * page; no Content-Security-Policy violation. Screenshots go to
 * {@code target/screenshots}. Without chromium and chromedriver the class is skipped, or
 * fails when {@code CI=true}.
 */
// The pages, not the outage guard (ResilienceIT keeps the api's 1 s socket timeout): a
// slow search on a busy
// 2-core machine must not turn into a 503 in the middle of the walk through the pages.
@PipelineTest
class WebPagesIT {

    @RegisterExtension
    static final TestPipeline pipeline = new TestPipeline("web-pages-it", TestPipeline.Streams.TAGGING,
            TestPipeline.Streams.CHAIN_STATE);

    @RegisterExtension
    static final BrowserSession browser = new BrowserSession("1280,1000");

    @Autowired
    TestRestTemplate http;

    /**
     * The footer of every page: the disclaimer, and a non-empty sources list once the
     * page has loaded.
     */
    private void assertDisclaimerAndSources(String page) {
        browser.waiting().until(d -> !d.findElement(By.id("sources")).getText().contains("Loading"));
        assertThat(browser.driver().findElement(By.id("disclaimer")).getText()).as(page)
            .containsIgnoringCase("research, not advice");
        List<WebElement> sources = browser.driver().findElements(By.cssSelector("#sources li"));
        assertThat(sources).as(page + " sources").isNotEmpty();
        assertThat(browser.driver().findElement(By.tagName("html")).getAttribute("lang")).isEqualTo("en");
        assertThat(browser.driver().findElements(By.cssSelector("main#main"))).as(page + " main landmark").hasSize(1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void searchFacetsTermCompanyLayerAndChainPagesInChromium() throws Exception {
        pipeline.start();
        pipeline.loadCorpus();
        // The layers endpoint carries the upstream edges the map is drawn from (read from
        // the reference topic).
        List<Map<String, Object>> layers = await().atMost(Duration.ofSeconds(30))
            .until(() -> (List<Map<String, Object>>) http.exchange("/api/v1/layers", HttpMethod.GET, null, JSON)
                .getBody()
                .get("layers"), l -> l.stream()
                    .anyMatch(x -> x.get("id").equals("network-fabric") && !((List<?>) x.get("upstream")).isEmpty()));

        // One tightening signal: the memory layer turns tight, and the layers downstream
        // are squeezed.
        pipeline.publishSignals("""
                {"id": "web-hbm-sold-out", "headline": "SK hynix says its HBM supply is sold out for next year",
                 "body": "Samsung Electronics and Micron report the same: HBM allocation is fully booked.",
                 "layers": ["HBM"], "direction": "tightening", "magnitude": 4,
                 "observedAt": "2026-03-02T09:00:00+09:00",
                 "source": {"name": "Example wire", "url": "https://example.com/news/hbm-sold-out"}}
                """);
        pipeline.awaitLayerStatus("memory", "tight");

        ResponseEntity<String> home = http.getForEntity("/", String.class);
        assertThat(home.getStatusCode()).isEqualTo(HttpStatus.OK);
        String csp = home.getHeaders().getFirst("Content-Security-Policy");
        assertThat(csp).contains("default-src 'self'", "script-src 'self'").doesNotContain("unsafe-inline");
        assertThat(home.getBody()).doesNotContain("<script>").contains("<html lang=\"en\">");
        for (String page : List.of("/terms/hbm", "/companies/2345.TW", "/layers/memory", "/chain")) {
            ResponseEntity<String> r = http.getForEntity(page, String.class);
            assertThat(r.getStatusCode()).as(page).isEqualTo(HttpStatus.OK);
            assertThat(r.getHeaders().getFirst("Content-Security-Policy")).as(page).isEqualTo(csp);
        }

        WebDriver d = browser.driver();
        // Search: results appear while typing (no submit), with highlights and facets.
        d.get(browser.url("/"));
        assertThat(d.switchTo().activeElement().getAttribute("id")).isEqualTo("q");
        d.findElement(By.id("q")).sendKeys("memory");
        browser.waiting()
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#results .result .snippet mark")));
        browser.waiting()
            .until(ExpectedConditions
                .presenceOfElementLocated(By.cssSelector("#facets fieldset[data-facet=layer] input")));
        assertThat(d.findElement(By.id("status")).getText()).contains("match");
        assertThat(d.getCurrentUrl()).contains("q=memory");
        // Suggestions opened while typing; Escape closes them (they would cover the
        // facets).
        d.findElement(By.id("q")).sendKeys(Keys.ESCAPE);
        browser.waiting().until(x -> "false".equals(x.findElement(By.id("q")).getAttribute("aria-expanded")));
        // Highlights: only <mark> elements inside snippets, never other markup from data.
        List<String> tags = (List<String>) ((JavascriptExecutor) d)
            .executeScript("return [...document.querySelectorAll('.snippet *')].map(e => e.tagName)");
        assertThat(tags).isNotEmpty().containsOnly("MARK");
        assertThat(d.findElements(By.cssSelector("#results .result details.sources li"))).isNotEmpty();
        HeadlessChromium.screenshot(browser.driver(), "search");

        // A facet filters the results: every result then carries that layer.
        WebElement facet = d.findElement(By.cssSelector("#facets fieldset[data-facet=layer] input"));
        String layerId = facet.getAttribute("value");
        String before = d.findElement(By.id("status")).getText();
        facet.click();
        browser.waiting()
            .until(x -> x.getCurrentUrl().contains("layer=" + layerId)
                    && !x.findElement(By.id("status")).getText().equals(before)
                    && !x.findElement(By.id("status")).getText().startsWith("Searching"));
        List<WebElement> results = d.findElements(By.cssSelector("#results .result"));
        assertThat(results).isNotEmpty()
            .allSatisfy(
                    r -> assertThat(r.findElements(By.cssSelector("a[href='/layers/" + layerId + "']"))).isNotEmpty());
        assertThat(d.findElement(By.cssSelector("#facets fieldset[data-facet=layer] input[value='" + layerId + "']"))
            .isSelected()).isTrue();

        // The highlight renderer builds <mark> elements and nothing else, whatever the
        // snippet holds.
        Map<String, Object> rendered = (Map<String, Object>) ((JavascriptExecutor) d).executeAsyncScript(
                """
                        const done = arguments[arguments.length - 1];
                        import('/js/common.js').then(m => {
                          const box = document.createElement('p');
                          box.append(m.highlight('<mark>HBM</mark> &lt;b&gt;x&lt;/b&gt; &amp; <img src=x onerror=alert(1)><mark>y</mark><script>z</script>'));
                          done({tags: [...box.querySelectorAll('*')].map(e => e.tagName), text: box.textContent});
                        });""");
        assertThat((List<String>) rendered.get("tags")).containsExactly("MARK", "MARK");
        assertThat(rendered.get("text")).isEqualTo("HBM <b>x</b> & <img src=x onerror=alert(1)>y<script>z</script>");

        // Untrusted text renders as text.
        WebElement q = d.findElement(By.id("q"));
        q.sendKeys(Keys.chord(Keys.CONTROL, "a"), "<img src=x id=injected> memory");
        browser.waiting().until(x -> x.findElement(By.id("status")).getText().contains("<img src=x id=injected>"));
        assertThat(d.findElements(By.id("injected"))).isEmpty();

        // The phone layout: one column, still usable.
        d.manage().window().setSize(new Dimension(390, 844));
        d.get(browser
            .url("/?q=" + java.net.URLEncoder.encode("through-silicon vias", java.nio.charset.StandardCharsets.UTF_8)));
        browser.waiting()
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#results .result .snippet mark")));
        Long scrollWidth = (Long) ((JavascriptExecutor) d).executeScript("return document.documentElement.scrollWidth");
        assertThat(scrollWidth).as("no horizontal scrolling on a phone").isLessThanOrEqualTo(390L);
        HeadlessChromium.screenshot(browser.driver(), "search-mobile");
        d.manage().window().setSize(new Dimension(1280, 1000));

        // A term page, opened from a result.
        d.findElement(By.cssSelector("#results .result h3 a[href^='/terms/']")).click();
        browser.waiting().until(ExpectedConditions.urlContains("/terms/"));
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#term-title")));
        assertThat(d.findElement(By.id("term-title")).getText()).isEqualTo("HBM");
        assertThat(d.getTitle()).startsWith("HBM");
        assertThat(d.findElements(By.cssSelector("article section h2"))).isNotEmpty();
        assertDisclaimerAndSources("term page");
        assertThat(d.findElements(By.cssSelector("#sources li a[href^='http']"))).isNotEmpty();
        HeadlessChromium.screenshot(browser.driver(), "term");
        // The RDMA term's layers: its primary layer, and apart from it the layers it
        // touches through companies.
        d.get(browser.url("/terms/rdma"));
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("article .tags")));
        List<String> tagLines = d.findElements(By.cssSelector("article .panel .tags"))
            .stream()
            .map(WebElement::getText)
            .toList();
        assertThat(tagLines).contains("Layers: Network fabric").anyMatch(t -> t.startsWith("Also touches: "));
        d.get(browser.url("/terms/no-such-term"));
        browser.waiting().until(x -> x.findElement(By.id("content")).getText().contains("no glossary term"));

        // Company and layer pages, from the live chain model.
        d.get(browser.url("/companies/MU"));
        browser.waiting().until(x -> !x.findElements(By.tagName("h1")).isEmpty());
        assertThat(d.findElement(By.tagName("h1")).getText()).contains("Micron", "MU");
        browser.waiting()
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main a[href='/layers/memory']")));
        assertThat(d.findElement(By.cssSelector("main .status-badge")).getText()).isEqualTo("Tight");
        assertDisclaimerAndSources("company page");
        HeadlessChromium.screenshot(browser.driver(), "company");
        // A company the reference data does not know: a clear message with close matches.
        d.get(browser.url("/companies/NOPE.XX"));
        browser.waiting().until(x -> !x.findElements(By.tagName("h1")).isEmpty());
        assertThat(d.findElement(By.cssSelector("main .notice")).getText()).contains("knows no company", "NOPE.XX");
        // Any listing, the id or the name opens the company's page.
        d.get(browser.url("/companies/tsm"));
        browser.waiting()
            .until(x -> x.findElements(By.tagName("h1")).stream().anyMatch(h -> h.getText().contains("2330.TW")));
        assertThat(d.findElement(By.tagName("h1")).getText()).contains("Taiwan Semiconductor");
        assertThat(d.findElement(By.cssSelector("main .listings")).getText()).contains("TSM (XNYS)");

        d.get(browser.url("/layers/memory"));
        browser.waiting().until(x -> !x.findElements(By.tagName("h1")).isEmpty());
        assertThat(d.findElement(By.tagName("h1")).getText()).isEqualTo("Memory and storage");
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("main .status-badge")));
        assertThat(d.findElement(By.cssSelector("main .status-badge")).getText()).isEqualTo("Tight");
        assertThat(d.findElement(By.tagName("main")).getText()).contains("SK hynix says its HBM supply is sold out");
        // Reads whose primary layer is memory, and apart from them the reads that only
        // touch it.
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("passing-reads")));
        List<String> primaryReads = d.findElements(By.xpath("//h2[@id='primary-reads']/following-sibling::ul[1]/li"))
            .stream()
            .map(WebElement::getText)
            .toList();
        assertThat(primaryReads).anyMatch(t -> t.startsWith("HBM"))
            .noneMatch(t -> t.startsWith("EUV lithography") || t.startsWith("Foundry model")
                    || t.startsWith("Process node"));
        assertThat(d.findElements(By.xpath("//h2[@id='passing-reads']/following-sibling::ul[1]/li"))).isNotEmpty();
        assertThat(d.findElements(By.cssSelector("main a[href^='/layers/']"))).isNotEmpty();
        assertDisclaimerAndSources("layer page");
        assertThat(d.findElement(By.id("sources")).getText()).contains("Signal: SK hynix says");
        HeadlessChromium.screenshot(browser.driver(), "layer");

        // The chain map: every layer a node, upstream to the left of downstream, named
        // for screen readers.
        d.manage().window().setSize(new Dimension(1400, 1100));
        d.get(browser.url("/chain"));
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("svg#chain-map a.node")));
        assertThat(d.findElements(By.cssSelector("svg#chain-map a.node"))).hasSize(layers.size());
        assertThat(d.findElement(By.cssSelector("svg#chain-map title")).getAttribute("textContent"))
            .contains("Chain map");
        assertThat(d.findElement(By.cssSelector("svg#chain-map desc")).getAttribute("textContent")).contains("layers");
        List<Map<String, Object>> misplaced = (List<Map<String, Object>>) ((JavascriptExecutor) d).executeScript(
                """
                        const x = id => +document.querySelector(`a.node[data-layer="${id}"] rect`).getAttribute('x');
                        return [...document.querySelectorAll('path.edge')]
                          .filter(e => x(e.dataset.from) >= x(e.dataset.to)).map(e => ({from: e.dataset.from, to: e.dataset.to}));""");
        assertThat(misplaced).isEmpty();
        assertThat(d.findElements(By.cssSelector("path.edge"))).hasSizeGreaterThanOrEqualTo(layers.size() - 4);
        List<Map<String, Object>> states = (List<Map<String, Object>>) http
            .exchange("/api/v1/chain", HttpMethod.GET, null, JSON)
            .getBody()
            .get("layers");
        assertThat(states).hasSize(layers.size());
        for (Map<String, Object> s : states) {
            assertThat(d.findElement(By.cssSelector("a.node[data-layer='" + s.get("id") + "']"))
                .getAttribute("data-status")).isEqualTo(s.get("status"));
        }
        assertThat(d.findElement(By.cssSelector("a.node[data-layer='memory']")).getAttribute("aria-label"))
            .isEqualTo("Memory and storage: Tight");
        assertThat(d.findElement(By.cssSelector("a.node[data-layer='advanced-packaging']")).getAttribute("aria-label"))
            .endsWith("squeezed");
        assertThat(d.findElement(By.id("chain-status")).getText()).contains("Live state as of");
        assertThat(d.findElements(By.cssSelector("#layer-table tbody tr"))).hasSize(layers.size());
        assertDisclaimerAndSources("chain map");
        HeadlessChromium.screenshot(browser.driver(), "chain");
        // Keyboard: the nodes are links reachable with Tab.
        assertThat((Boolean) ((JavascriptExecutor) d).executeScript(
                "const a = document.querySelector('svg#chain-map a.node'); a.focus(); return document.activeElement === a"))
            .isTrue();

        // Suggestions as you type: the ARIA combobox pattern, driven by the keyboard
        // alone.
        d.get(browser.url("/"));
        WebElement box = d.findElement(By.id("q"));
        assertThat(box.getAttribute("role")).isEqualTo("combobox");
        assertThat(box.getAttribute("aria-autocomplete")).isEqualTo("list");
        assertThat(box.getAttribute("aria-controls")).isEqualTo("q-suggestions");
        assertThat(box.getAttribute("aria-expanded")).isEqualTo("false");
        assertThat(d.findElement(By.id("q-suggestions")).getAttribute("role")).isEqualTo("listbox");
        box.sendKeys("TSM");
        browser.waiting().until(x -> "true".equals(x.findElement(By.id("q")).getAttribute("aria-expanded")));
        List<WebElement> options = d.findElements(By.cssSelector("#q-suggestions [role=option]"));
        assertThat(options).isNotEmpty();
        assertThat(options.get(0).getText()).contains("Taiwan Semiconductor", "2330.TW");
        assertThat(d.findElement(By.id("q-suggestions-status")).getAttribute("textContent")).contains("suggestion");
        HeadlessChromium.screenshot(browser.driver(), "search-suggestions");
        box.sendKeys(Keys.ARROW_DOWN);
        assertThat(box.getAttribute("aria-activedescendant")).isEqualTo(options.get(0).getAttribute("id"));
        assertThat(options.get(0).getAttribute("aria-selected")).isEqualTo("true");
        box.sendKeys(Keys.ARROW_UP);
        assertThat(box.getAttribute("aria-activedescendant"))
            .isEqualTo(options.get(options.size() - 1).getAttribute("id"));
        box.sendKeys(Keys.ESCAPE);
        assertThat(box.getAttribute("aria-expanded")).isEqualTo("false");
        assertThat(d.findElement(By.id("q-suggestions")).isDisplayed()).isFalse();
        assertThat(box.getAttribute("aria-activedescendant")).isNull();
        box.sendKeys(Keys.ARROW_DOWN);
        assertThat(box.getAttribute("aria-expanded")).isEqualTo("true");
        box.sendKeys(Keys.ENTER);
        browser.waiting().until(x -> x.getCurrentUrl().endsWith("/companies/2330.TW"));
        browser.waiting()
            .until(x -> x.findElements(By.tagName("h1")).stream().anyMatch(h -> h.getText().contains("Taiwan")));

        assertThat(HeadlessChromium.consoleProblems(browser.driver()))
            .as("CSP violations or script errors in the console")
            .isEmpty();
    }

}
