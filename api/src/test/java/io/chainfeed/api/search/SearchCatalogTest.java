package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

class SearchCatalogTest {

    private final SearchCatalog catalog = SearchCatalog.of(
            List.of(new SearchCatalog.TermNames("hbm", "HBM", List.of("High-bandwidth memory", "HBM3E")),
                    new SearchCatalog.TermNames("roce", "AI Ethernet (RoCE)",
                            List.of("RoCE", "RDMA over Converged Ethernet"))),
            List.of(new SearchCatalog.CompanyName("ANET", "Arista Networks", 3),
                    new SearchCatalog.CompanyName("2345.TW", "Accton Technology", 2)),
            List.of(new SearchCatalog.LayerName("network-fabric", "Network fabric", 5),
                    new SearchCatalog.LayerName("memory", "Memory", 4)));

    @Test
    void runsOfWordsThatNameATermExpandToItsOtherNames() throws Exception {
        List<SearchCatalog.NameMatch> names = catalog
            .names(QueryText.parse("high bandwidth memory for rdma over converged ethernet"));
        assertThat(names).hasSize(2);
        assertThat(names.get(0).from()).isZero();
        assertThat(names.get(0).to()).isEqualTo(3);
        assertThat(names.get(0).names()).containsExactly("HBM", "High-bandwidth memory", "HBM3E");
        assertThat(names.get(1).term().slug()).isEqualTo("roce");
        assertThat(catalog.termNamed("rdma over converged ethernet").slug()).isEqualTo("roce");
        // A quoted phrase is taken as typed.
        assertThat(catalog.names(QueryText.parse("\"HBM\""))).isEmpty();
    }

    @Test
    void theMarketVocabularyExpandsLikeATermsNames() throws Exception {
        // "order intake" is three words of a line of search/synonyms.txt; "bookings"
        // meets
        // it without its plural s.
        List<SearchCatalog.NameMatch> names = catalog.names(QueryText.parse("ASML order intake falling"));
        assertThat(names).hasSize(1);
        assertThat(names.get(0).from()).isEqualTo(1);
        assertThat(names.get(0).to()).isEqualTo(3);
        assertThat(names.get(0).term()).isNull();
        assertThat(names.get(0).names()).contains("orders", "bookings", "order intake");
        assertThat(catalog.names(QueryText.parse("booking")).get(0).names()).contains("order intake");
        // A term's name wins over a synonym of the same words.
        SearchCatalog withTerm = SearchCatalog
            .of(List.of(new SearchCatalog.TermNames("fab", "Fab", List.of("Semiconductor fab"))), List.of(), List.of());
        assertThat(withTerm.names(QueryText.parse("fab")).get(0).term().slug()).isEqualTo("fab");
    }

    @Test
    void theSynonymsFileReadsSolrEquivalenceLinesAndRefusesTheRest() {
        var map = SearchCatalog.parseSynonyms(
                List.of("# market words", "", "revenue, sales  # same thing", "wafer fab, fabrication plant"));
        assertThat(map.get(List.of("sale"))).containsExactly("revenue", "sales");
        assertThat(map.get(List.of("wafer", "fab"))).containsExactly("wafer fab", "fabrication plant");
        assertThatIllegalArgumentException().isThrownBy(() -> SearchCatalog.parseSynonyms(List.of("a => b")))
            .withMessageContaining("line 1");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> SearchCatalog.parseSynonyms(List.of("revenue, sales", "sales, turnover")))
            .withMessageContaining("line 2")
            .withMessageContaining("another line");
        assertThatIllegalArgumentException().isThrownBy(() -> SearchCatalog.parseSynonyms(List.of("alone")))
            .withMessageContaining("two entries");
        assertThatIllegalArgumentException().isThrownBy(() -> SearchCatalog.parseSynonyms(List.of("a, , b")))
            .withMessageContaining("without words");
        // The bundled file loads (a broken line would fail the class's initialisation).
        assertThat(SearchCatalog.SYNONYMS).containsKey(List.of("throttling"));
    }

    /**
     * A state older than the TTL is still answered, at once, while a background reload
     * runs: here the reload fails (nothing listens on the client's port), and a search
     * must neither wait for it nor fail.
     */
    @Test
    void aStaleCatalogueIsAnsweredWhileItReloadsInTheBackground() throws Exception {
        java.util.concurrent.atomic.AtomicReference<java.time.Instant> now = new java.util.concurrent.atomic.AtomicReference<>(
                java.time.Instant.parse("2026-01-01T00:00:00Z"));
        java.time.Clock clock = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return now.get();
            }
        };
        try (org.elasticsearch.client.RestClient rest = org.elasticsearch.client.RestClient
            .builder(org.apache.http.HttpHost.create("http://127.0.0.1:9"))
            .build()) {
            SearchCatalog stale = new SearchCatalog(new co.elastic.clients.elasticsearch.ElasticsearchClient(
                    new co.elastic.clients.transport.rest_client.RestClientTransport(rest,
                            new co.elastic.clients.json.jackson.JacksonJsonpMapper())),
                    clock);
            stale.snapshot = SearchCatalog.build(
                    List.of(new SearchCatalog.TermNames("hbm", "HBM", List.of("High-bandwidth memory"))), List.of(),
                    List.of(), now.get());
            now.set(now.get().plus(SearchCatalog.TTL).plusSeconds(1));
            // No exception although every load fails: the old names answer.
            assertThat(stale.termNamed("high bandwidth memory").slug()).isEqualTo("hbm");
            assertThat(stale.names(QueryText.parse("hbm"))).hasSize(1);
            // After an invalidate there is nothing to answer with: the caller waits for
            // the load and sees it fail.
            stale.invalidate();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> stale.termNamed("hbm"))
                .isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void pluralsMeetTheirSingularNamesAndWordsEndingInSMeetThemselves() {
        assertThat(SearchCatalog.singular(List.of("contract", "manufacturers"))).containsExactly("contract",
                "manufacturer");
        assertThat(SearchCatalog.singular(List.of("cowos", "gpus", "gas", "glass", "status", "analysis")))
            .containsExactly("cowo", "gpu", "gas", "glass", "status", "analysis");
    }

}
