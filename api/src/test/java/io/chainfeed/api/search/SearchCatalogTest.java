package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
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
        List<SearchCatalog.NameMatch> names = catalog.names(QueryText.parse("high bandwidth memory for rdma over converged ethernet"));
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
    void suggestsTermsCompaniesAndLayersByPrefix() throws Exception {
        SearchCatalog.Suggestions s = catalog.suggest("me", 5);
        assertThat(s.terms()).extracting(m -> m.get("slug")).containsExactly("hbm");
        assertThat(s.layers()).extracting(m -> m.get("id")).containsExactly("memory");
        assertThat(catalog.suggest("anet", 5).companies()).extracting(m -> m.get("symbol")).containsExactly("ANET");
        assertThat(catalog.suggest("2345", 5).companies()).extracting(m -> m.get("symbol")).containsExactly("2345.TW");
        assertThat(catalog.suggest("roc", 5).terms()).extracting(m -> m.get("matched")).containsExactly("RoCE");
        assertThat(catalog.suggest("🙂", 5).terms()).isEmpty();
        Map<String, Object> first = catalog.suggest("net", 5).layers().get(0);
        assertThat(first.get("id")).isEqualTo("network-fabric");
    }
}
