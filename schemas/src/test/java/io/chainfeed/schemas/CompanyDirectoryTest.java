package io.chainfeed.schemas;

import static io.chainfeed.schemas.SampleRecords.listing;
import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompanyDirectoryTest {

    static Company company(String id, String name, List<String> aliases, Listing... listings) {
        return SampleRecords.company(id, name, aliases, "foundry", listings);
    }

    static final Company TSMC = company("tsmc", "Taiwan Semiconductor Manufacturing Company",
            List.of("TSMC", "Taiwan Semiconductor", "台積電"), listing("2330", "XTAI", "2330.TW"),
            listing("TSM", "XNYS", "TSM"));
    static final Company ON = company("onsemi", "onsemi", List.of("ON Semiconductor"), listing("ON", "XNAS", "ON"));
    static final Company SKH = company("sk-hynix", "SK hynix", List.of("Hynix"),
            listing("000660", "XKRX", "000660.KS"));
    static final Company ACME_A = company("acme-a", "Acme A", List.of("Acme"), listing("ACA", "XNYS", "ACA"));
    static final Company ACME_B = company("acme-b", "Acme B", List.of("Acme"), listing("ACB", "XNAS", "ACB"));

    private final CompanyDirectory dir = CompanyDirectory.of(List.of(TSMC, ON, SKH, ACME_A, ACME_B));

    @Test
    void everyListingIdNameAndAliasResolvesInAnyCase() {
        for (String id : List.of("TSM", "tsm", "2330.TW", "2330.tw", "XNYS:TSM", "xtai:2330", "XTAI:2330.TW", "tsmc",
                "TSMC", "Taiwan Semiconductor Manufacturing Company", "taiwan  semiconductor", "台積電", "2330")) {
            assertThat(dir.resolve(id)).as(id).map(Company::getId).contains("tsmc");
        }
        assertThat(dir.resolve("000660.ks")).map(Company::getId).contains("sk-hynix");
        assertThat(dir.via("XNYS:TSM")).contains(CompanyDirectory.Via.MIC_SYMBOL);
        assertThat(dir.via("TSM")).contains(CompanyDirectory.Via.DISPLAY_SYMBOL);
    }

    @Test
    void unknownBlankAndAmbiguousTextsResolveToNothing() {
        assertThat(dir.resolve("NOPEXYZ")).isEmpty();
        assertThat(dir.resolve("")).isEmpty();
        assertThat(dir.resolve(null)).isEmpty();
        assertThat(dir.resolve("XNAS:TSM")).isEmpty(); // TSM is not listed on Nasdaq
        assertThat(dir.resolve("acme")).isEmpty(); // an alias of two companies
        assertThat(dir.resolve("acme a")).map(Company::getId).contains("acme-a");
    }

    @Test
    void canonicalListingIsTheFirst() {
        assertThat(CompanyDirectory.canonicalSymbol(TSMC)).isEqualTo("2330.TW");
        assertThat(CompanyDirectory.displaySymbols(TSMC)).containsExactly("2330.TW", "TSM");
        Company unlisted = company("private-co", "Private Co", List.of());
        assertThat(CompanyDirectory.canonicalSymbol(unlisted)).isEqualTo("private-co");
        assertThat(CompanyDirectory.canonicalListing(unlisted)).isEmpty();
    }

    @Test
    void theLastRecordOfAnIdWins() {
        Company renamed = company("tsmc", "TSMC Limited", List.of(), listing("TSM", "XNYS", "TSM"));
        CompanyDirectory d = CompanyDirectory.of(List.of(TSMC, renamed));
        assertThat(d.companies()).hasSize(1);
        assertThat(d.resolve("2330.TW")).isEmpty();
        assertThat(d.resolve("tsm")).map(Company::getName).contains("TSMC Limited");
    }

}
