package io.chainfeed.streams.tagging;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.Read;
import io.chainfeed.streams.bench.TaggerBenchmark;
import java.util.List;
import java.util.stream.Collectors;
import org.ahocorasick.trie.Trie;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Rule-level checks of the tagger over the bundled reference data. */
class TaggerTest {

    private static Tagger tagger;

    @BeforeAll
    static void setUp() {
        ReferenceData data = ReferenceData.bundled();
        tagger = Tagger.build(data.layers, data.companies, data.terms);
    }

    private static Read tag(String text) {
        return TaggerEvaluationTest.tag(tagger, text, 1);
    }

    private static CompanyTag company(Read read, String id) {
        return read.getCompanies().stream().filter(c -> c.getId().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void theLibrarysWholeWordOptionIsNotEnoughForTheseNames() {
        // Why the tagger checks boundaries itself: onlyWholeWords looks at alphabetic
        // neighbours only.
        Trie trie = Trie.builder().onlyWholeWords().addKeywords("HBM", "台積電", "AT").build();
        assertThat(trie.parseText("HBM3E")).as("HBM inside HBM3E").hasSize(1);
        assertThat(trie.parseText("AT&T")).as("AT inside AT&T").hasSize(1);
        assertThat(trie.parseText("台積電的產能")).as("台積電 before a Han particle").isEmpty();

        assertThat(tag("HBM3E ships.").getTerms()).extracting(t -> t.getSlug()).containsExactly("hbm3e");
        assertThat(tag("台積電的產能").getCompanies()).extracting(CompanyTag::getId).containsExactly("tsmc");
    }

    @Test
    void oneTagPerCompanyWithEveryPieceOfEvidence() {
        String text = "Taiwan Semiconductor Manufacturing Company (NYSE: TSM), or TSMC, also trades as 2330.TW; "
                + "TSMC’s CoWoS is sold out.";
        Read read = tag(text);
        assertThat(read.getCompanies()).extracting(CompanyTag::getId).containsExactly("tsmc");
        CompanyTag tsmc = read.getCompanies().get(0);
        assertThat(tsmc.getEvidence()).extracting(Evidence::getRule)
            .contains("company-name", "company-alias", "ticker-exchange", "ticker-suffixed");
        for (Evidence e : tsmc.getEvidence()) {
            assertThat(text.substring(e.getStart(), e.getEnd())).isEqualTo(e.getText());
        }
        assertThat(tsmc.getConfidence()).isEqualTo(0.95);
        assertThat(tsmc.getPrimary()).as("named three times or more").isTrue();
    }

    @Test
    void passingMentionsAreNotPrimary() {
        Read read = tag("Nvidia leads; Nvidia's GPUs and NVDA dominate, and Cisco appears once.");
        assertThat(company(read, "nvidia").getPrimary()).isTrue();
        assertThat(company(read, "cisco").getPrimary()).isFalse();
    }

    @Test
    void tickersResolveOnTheirExchange() {
        assertThat(tag("(EPA: AI) and $AI").getCompanies()).extracting(CompanyTag::getId)
            .containsExactlyInAnyOrder("air-liquide", "c3-ai");
        assertThat(tag("(NASDAQ: ASML)").getCompanies().get(0).getSymbol()).isEqualTo("ASML");
        // Whichever listing the text names, the tag carries the company's canonical
        // (first) listing; the
        // evidence keeps what was written.
        CompanyTag amsterdam = tag("ASML.AS").getCompanies().get(0);
        assertThat(amsterdam.getId()).isEqualTo("asml");
        assertThat(amsterdam.getSymbol()).isEqualTo("ASML");
        assertThat(amsterdam.getMic()).isEqualTo("XNAS");
        assertThat(amsterdam.getEvidence()).extracting(e -> e.getText()).contains("ASML.AS");
        assertThat(tag("2345 and (2345) and NT$2345").getCompanies()).isEmpty();
    }

    @Test
    void benchmarkReadIsAboutTwoKilobytes() {
        TaggerBenchmark bench = new TaggerBenchmark();
        bench.setUp();
        assertThat(bench.textBytes()).isBetween(1900, 2600);
        Read read = bench.tag();
        assertThat(read.getCompanies().stream().map(CompanyTag::getId).collect(Collectors.toList()))
            .contains("nvidia", "sk-hynix", "micron", "tsmc", "accton-technology", "arista-networks",
                    "samsung-electronics")
            .doesNotContain("agilent");
        assertThat(bench.scanOnly()).isPositive();
        assertThat(List.of(read.getTerms().size())).allSatisfy(n -> assertThat(n).isGreaterThan(5));
    }

}
