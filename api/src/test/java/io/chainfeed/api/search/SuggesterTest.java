package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.reference.CompanyResolverTest;
import io.chainfeed.avro.ChainLayer;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuggesterTest {

    private final Suggester.Entries entries = Suggester.build(CompanyResolverTest.DIRECTORY,
            List.of(new SearchCatalog.TermNames("tsmc-cowos", "TSMC capacity", List.of()),
                    new SearchCatalog.TermNames("roce", "AI Ethernet (RoCE)",
                            List.of("RoCE", "RDMA over Converged Ethernet")),
                    new SearchCatalog.TermNames("cowos", "CoWoS", List.of("Chip on Wafer on Substrate"))),
            List.of(ChainLayer.newBuilder().setId("foundry").setName("Foundry").setSummary("").build()),
            List.of(new SearchCatalog.LayerName("network-fabric", "Network fabric", 3)));

    private List<Suggester.Suggestion> suggest(String text) {
        return Suggester.rank(entries, text, 10);
    }

    @Test
    void anExactTickerComesFirstThenExactNamesThenPrefixes() {
        List<Suggester.Suggestion> tsm = suggest("TSM");
        assertThat(tsm.get(0).id()).isEqualTo("tsmc");
        assertThat(tsm.get(0).rank()).isEqualTo(Suggester.EXACT_TICKER);
        assertThat(tsm.get(0).href()).isEqualTo("/companies/2330.TW");
        // "TSMC capacity" starts with "tsm" too, but a ticker beats a prefix.
        assertThat(tsm).extracting(Suggester.Suggestion::id).containsSubsequence("tsmc", "tsmc-cowos");

        List<Suggester.Suggestion> tsmc = suggest("tsmc");
        assertThat(tsmc.get(0).id()).isEqualTo("tsmc");
        assertThat(tsmc.get(0).rank()).isEqualTo(Suggester.EXACT);
        assertThat(tsmc.get(1).id()).isEqualTo("tsmc-cowos");
        assertThat(tsmc.get(1).rank()).isEqualTo(Suggester.PREFIX);

        assertThat(suggest("2330.tw").get(0).id()).isEqualTo("tsmc");
        assertThat(suggest("xnys:tsm").get(0).id()).isEqualTo("tsmc");
        assertThat(suggest("2330").get(0).rank()).isEqualTo(Suggester.EXACT_TICKER);
    }

    @Test
    void laterWordsAndTyposStillFindTheName() {
        List<Suggester.Suggestion> conv = suggest("converged");
        assertThat(conv).extracting(Suggester.Suggestion::id).containsExactly("roce");
        assertThat(conv.get(0).rank()).isEqualTo(Suggester.WORD_PREFIX);
        assertThat(conv.get(0).matched()).isEqualTo("RDMA over Converged Ethernet");

        List<Suggester.Suggestion> typo = suggest("semicondutor");
        assertThat(typo).extracting(Suggester.Suggestion::id).contains("tsmc", "onsemi");
        assertThat(typo.get(0).rank()).isGreaterThanOrEqualTo(Suggester.FUZZY);
        assertThat(suggest("aristq")).extracting(Suggester.Suggestion::id).containsExactly("arista-networks");
        // Short texts are never fuzzy: "cow" is a prefix of CoWoS only.
        assertThat(suggest("cow")).extracting(Suggester.Suggestion::id).containsExactly("cowos");
    }

    @Test
    void layersFromReferenceDataAndFromTagsAndNothingForNoWords() {
        assertThat(suggest("found")).extracting(Suggester.Suggestion::id).containsExactly("foundry");
        assertThat(suggest("network")).extracting(Suggester.Suggestion::id)
            .containsExactly("network-fabric", "arista-networks");
        assertThat(suggest("🙂\"/:")).isEmpty();
        assertThat(Suggester.rank(entries, "tsm", 1)).hasSize(1);
    }

}
