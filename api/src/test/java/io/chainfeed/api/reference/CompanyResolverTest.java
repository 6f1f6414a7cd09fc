package io.chainfeed.api.reference;

import static io.chainfeed.schemas.SampleRecords.listing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.schemas.SampleRecords;
import java.util.List;
import org.junit.jupiter.api.Test;

public class CompanyResolverTest {

    static Company company(String id, String name, List<String> aliases, Listing... listings) {
        return SampleRecords.company(id, name, aliases, "foundry", listings);
    }

    /** TSMC, NVIDIA, Arista and onsemi as the corpus has them. */
    public static final CompanyDirectory DIRECTORY = CompanyDirectory.of(List.of(
            company("tsmc", "Taiwan Semiconductor Manufacturing Company", List.of("TSMC", "Taiwan Semiconductor"),
                    listing("2330", "XTAI", "2330.TW"), listing("TSM", "XNYS", "TSM")),
            company("nvidia", "NVIDIA", List.of("Nvidia Corporation"), listing("NVDA", "XNAS", "NVDA")),
            company("arista-networks", "Arista Networks", List.of("Arista"), listing("ANET", "XNYS", "ANET")),
            company("onsemi", "onsemi", List.of("ON Semiconductor"), listing("ON", "XNAS", "ON"))));

    private final CompanyResolver resolver = CompanyResolver.of(DIRECTORY);

    @Test
    void unknownCompanyNamesItselfAndOffersCloseMatches() {
        assertThat(resolver.require("tsm").getId()).isEqualTo("tsmc");
        assertThatThrownBy(() -> resolver.require("NVDAA")).isInstanceOfSatisfying(UnknownCompanyException.class, e -> {
            assertThat(e.company()).isEqualTo("NVDAA");
            assertThat(e.closeMatches()).first().isEqualTo("NVDA (NVIDIA)");
            assertThat(e.type()).isEqualTo("unknown-company");
            assertThat(e.getMessage()).contains("'NVDAA'").contains("NVDA (NVIDIA)");
        });
        // A prefix of a name or symbol is close; a nonsense word has no match.
        assertThat(resolver.closeMatches("aris")).containsExactly("ANET (Arista Networks)");
        assertThat(resolver.closeMatches("TSMX")).contains("2330.TW (Taiwan Semiconductor Manufacturing Company)");
        assertThat(resolver.closeMatches("NOPEXYZ")).isEmpty();
    }

    @Test
    void notReadyUntilTheReferenceDataIsLoaded() {
        assertThat(new CompanyResolver(() -> DIRECTORY, () -> false).ready()).isFalse();
        assertThat(new CompanyResolver(CompanyDirectory::empty, () -> true).ready()).isFalse();
        assertThat(resolver.ready()).isTrue();
    }

}
