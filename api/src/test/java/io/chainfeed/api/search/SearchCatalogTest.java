package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

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
}
