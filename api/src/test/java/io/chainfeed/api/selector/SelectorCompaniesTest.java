package io.chainfeed.api.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.CompanyResolverTest;
import io.chainfeed.api.reference.UnknownCompanyException;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.schemas.CompanyDirectory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Selector#resolveCompanies}: one topic per company, whichever identifier names
 * it.
 */
class SelectorCompaniesTest {

    private final CompanyResolver resolver = CompanyResolver.of(CompanyResolverTest.DIRECTORY);

    /** A read tagged before tags were canonical: TSMC under its US listing. */
    private static final Read VIA_ADR = SelectorTest.read(ReadKind.SIGNAL, "adr", List.of("foundry"),
            List.<String[]>of(new String[] { "tsmc", "TSM" }), List.of());

    /** A read tagged with TSMC's canonical listing. */
    private static final Read VIA_HOME = SelectorTest.read(ReadKind.TERM, "cowos", List.of("advanced-packaging"),
            List.<String[]>of(new String[] { "tsmc", "2330.TW" }), List.of());

    private static final Read OTHER = SelectorTest.read(ReadKind.TERM, "rdma", List.of("network-fabric"),
            List.<String[]>of(new String[] { "arista-networks", "ANET" }), List.of());

    @ParameterizedTest
    @ValueSource(strings = { "company:TSM", "company:tsm", "company:2330.TW", "company:2330.tw", "company:XNYS:TSM",
            "company:xtai:2330", "company:tsmc", "company:TSMC" })
    void everyIdentifierOfACompanyIsOneTopic(String text) {
        Selector s = Selector.parse(text).resolveCompanies(resolver, true);
        assertThat(s.canonical()).isEqualTo("company:2330.TW");
        assertThat(s).isEqualTo(Selector.parse("company:2330.TW").resolveCompanies(resolver, true));
        for (Read r : List.of(VIA_ADR, VIA_HOME)) {
            assertThat(s.matches(r)).as(text + " on " + r.getId()).isTrue();
            assertThat(s.matches(SelectorTest.doc(r))).isTrue();
        }
        assertThat(s.matches(OTHER)).isFalse();
        assertThat(s.matches(SelectorTest.doc(OTHER))).isFalse();
        // The Elasticsearch query asks for the company id or any of its listings.
        String query = s.toQuery().toString();
        assertThat(query).contains("companies.id").contains("tsmc").contains("TSM").contains("2330.TW");
    }

    @Test
    void resolutionKeepsTheRestOfTheExpression() {
        Selector s = Selector.parse("(company:TSM OR company:anet) AND NOT kind:signal")
            .resolveCompanies(resolver, true);
        assertThat(s.canonical()).isEqualTo("(company:2330.TW OR company:ANET) AND NOT kind:signal");
        assertThat(s.matches(VIA_HOME)).isTrue();
        assertThat(s.matches(OTHER)).isTrue();
        assertThat(s.matches(VIA_ADR)).isFalse();
        assertThat(Selector.parse(s.canonical()).resolveCompanies(resolver, true)).isEqualTo(s);
    }

    @Test
    void anUnknownCompanyIsRefusedWithCloseMatchesUnlessStoredEarlier() {
        assertThatThrownBy(() -> Selector.parse("layer:foundry OR company:NOPEXYZ").resolveCompanies(resolver, true))
            .isInstanceOfSatisfying(UnknownCompanyException.class, e -> assertThat(e.company()).isEqualTo("NOPEXYZ"));
        assertThatThrownBy(() -> Selector.parse("company:NVDAA").resolveCompanies(resolver, true))
            .isInstanceOfSatisfying(UnknownCompanyException.class,
                    e -> assertThat(e.closeMatches()).contains("NVDA (NVIDIA)"));
        // A stored topic is kept as written.
        assertThat(Selector.parse("company:NOPEXYZ").resolveCompanies(resolver, false).canonical())
            .isEqualTo("company:NOPEXYZ");
        // Before the reference data is loaded nothing can be called unknown.
        CompanyResolver loading = new CompanyResolver(CompanyDirectory::empty, () -> false);
        assertThat(Selector.parse("company:NOPEXYZ").resolveCompanies(loading, true).canonical())
            .isEqualTo("company:NOPEXYZ");
    }

}
