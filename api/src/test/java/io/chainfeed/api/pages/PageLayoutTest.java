package io.chainfeed.api.pages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

class PageLayoutTest {

    @Test
    void aPageGetsTheSharedFrameAroundItsOwnHeadContentAndSources() {
        Document doc = PageLayout.page("term.html");

        assertThat(doc.selectFirst("html").attr("lang")).isEqualTo("en");
        assertThat(doc.head().select("meta[charset=utf-8], meta[name=viewport]")).hasSize(2);
        assertThat(doc.head().select("link[rel=stylesheet]").attr("href")).isEqualTo("/css/app.css");
        assertThat(doc.title()).isEqualTo("Glossary term · chainfeed");
        assertThat(doc.head().select("script[type=module]").attr("src")).isEqualTo("/js/term.js");

        assertThat(doc.body().child(0).is("a.skip")).isTrue();
        assertThat(doc.body().child(0).attr("href")).isEqualTo("#main");
        assertThat(doc.select("header.site nav a").eachAttr("href")).containsExactly("/", "/chain", "/terms",
                "/companies");
        Element main = doc.getElementById("main");
        assertThat(doc.select("main")).hasSize(1);
        assertThat(main.attr("tabindex")).isEqualTo("-1");
        assertThat(main.getElementById("content").text()).isEqualTo("Loading…");
        assertThat(doc.getElementById("disclaimer").text()).contains("research, not advice");
        assertThat(doc.select("footer #sources li").eachText()).containsExactly("Loading…");
        assertThat(doc.select("body > ul")).as("the page's own sources list is not copied whole").isEmpty();
    }

    @Test
    void eachPageGetsItsOwnCopyOfTheLayout() {
        Document search = PageLayout.page("index.html");
        Document term = PageLayout.page("term.html");

        assertThat(search.title()).isEqualTo("Search the AI supply chain · chainfeed");
        assertThat(search.getElementById("search-form")).isNotNull();
        assertThat(search.select("footer #sources li").eachText())
            .containsExactly("Each result lists the sources of its read.");
        assertThat(search.getElementById("content")).as("the page's own main replaces the loading notice").isNull();
        assertThat(term.getElementById("search-form")).isNull();
        assertThat(term.select("script[type=module]")).hasSize(1);
    }

    @Test
    void theChainPageKeepsItsOwnContentAndItsFixedSourcesLine() {
        Document chain = PageLayout.page("chain.html");

        assertThat(chain.title()).isEqualTo("Chain map · chainfeed");
        assertThat(chain.select("#main > h1").text()).isEqualTo("Chain map");
        assertThat(chain.select("#main #map.map-wrap, #main #legend, #main #layer-table")).hasSize(3);
        assertThat(chain.select("footer #sources li").eachText())
            .containsExactly("Layer graph: the chainfeed reference data (chainfeed.reference.layers.v1).");
    }

    @Test
    void theCompanyAndLayerPagesKeepTheLayoutsLoadingNotices() {
        for (String name : new String[] { "company.html", "layer.html" }) {
            Document doc = PageLayout.page(name);
            assertThat(doc.select("script[type=module]").eachAttr("src")).as(name)
                .containsExactly("/js/" + name.replace(".html", ".js"));
            assertThat(doc.select("#main #content").text()).as(name).isEqualTo("Loading…");
            assertThat(doc.select("footer #sources li").eachText()).as(name).containsExactly("Loading…");
        }
    }

    @Test
    void theIndexPagesKeepTheirOwnContentAndScript() {
        Document terms = PageLayout.page("terms.html");
        assertThat(terms.title()).isEqualTo("Glossary terms A to Z · chainfeed");
        assertThat(terms.select("script[type=module]").eachAttr("src")).containsExactly("/js/terms-index.js");
        assertThat(terms.select("#main > h1").text()).isEqualTo("Glossary terms A to Z");
        assertThat(terms.select("#main #terms-filter, #main #terms-index")).hasSize(2);
        Document companies = PageLayout.page("companies.html");
        assertThat(companies.title()).isEqualTo("Companies by chain layer · chainfeed");
        assertThat(companies.select("script[type=module]").eachAttr("src")).containsExactly("/js/companies-index.js");
        assertThat(companies.select("#main #companies-filter, #main #companies-index")).hasSize(2);
        assertThat(companies.select("footer #sources li").eachText())
            .containsExactly("chainfeed reference data: companies and chain layers.");
    }

    @Test
    void aMissingPageIsAnError() {
        assertThatThrownBy(() -> PageLayout.page("nope.html")).isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining("/pages/nope.html");
    }

}
