package io.chainfeed.api.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.TermTag;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadDocuments;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SelectorTest {

    static Read read(ReadKind kind, String slug, List<String> layers, List<String[]> companies, List<String> terms) {
        return Read.newBuilder()
            .setId(kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + slug)
            .setKind(kind)
            .setSlug(slug)
            .setTitle(slug)
            .setSummary("s")
            .setDisclaimer("research, not advice")
            .setVersion(1)
            .setUpdatedAt(Instant.parse("2026-11-29T00:00:00Z"))
            .setLayers(layers.stream()
                .map(l -> LayerTag.newBuilder().setId(l).setName(l).setConfidence(1).build())
                .toList())
            .setCompanies(companies.stream()
                .map(c -> CompanyTag.newBuilder()
                    .setId(c[0])
                    .setName(c[0])
                    .setSymbol(c[1])
                    .setMic("XNYS")
                    .setConfidence(1)
                    .build())
                .toList())
            .setTerms(terms.stream()
                .map(t -> TermTag.newBuilder().setSlug(t).setTitle(t).setConfidence(1).build())
                .toList())
            .build();
    }

    /** The document the indexer writes for the read. */
    static ReadDocument doc(Read r) {
        return ReadDocuments.toDocument(r);
    }

    static final Read RDMA = read(ReadKind.TERM, "rdma", List.of("network-fabric"),
            List.<String[]>of(new String[] { "arista", "ANET" }, new String[] { "wiwynn", "6669.TW" }),
            List.of("infiniband", "roce"));
    static final Read HBM_SIGNAL = read(ReadKind.SIGNAL, "sig-1", List.of("memory", "advanced-packaging"),
            List.<String[]>of(new String[] { "sk-hynix", "000660.KS" }), List.of("hbm"));
    static final Read INFINIBAND = read(ReadKind.TERM, "infiniband", List.of("network-fabric"),
            List.<String[]>of(new String[] { "nvidia", "NVDA" }), List.of("rdma"));

    @ParameterizedTest
    @CsvSource(delimiter = '|',
            value = { "all                                               | true  | true  | true",
                    "layer:network-fabric                              | true  | false | true",
                    "LAYER:Network-Fabric                              | true  | false | true",
                    "company:anet                                      | true  | false | false",
                    "company:6669.tw                                   | true  | false | false",
                    "company:sk-hynix                                  | false | true  | false",
                    "term:rdma                                         | true  | false | true",
                    "term:hbm                                          | false | true  | false",
                    "kind:signal                                       | false | true  | false",
                    "layer:network-fabric AND NOT kind:signal          | true  | false | true",
                    "layer:network-fabric not company:NVDA             | true  | false | false",
                    "company:NVDA OR term:hbm                          | false | true  | true",
                    "(layer:memory OR layer:network-fabric) kind:term  | true  | false | true",
                    "NOT (company:ANET OR kind:signal)                 | false | false | true",
                    "NOT NOT term:roce                                 | true  | false | false",
                    "layer:memory and layer:advanced-packaging         | false | true  | false", })
    void matchesReadsAndIndexedDocumentsAlike(String text, boolean rdma, boolean signal, boolean infiniband) {
        Selector s = Selector.parse(text);
        assertThat(List.of(s.matches(RDMA), s.matches(HBM_SIGNAL), s.matches(INFINIBAND))).as(text)
            .containsExactly(rdma, signal, infiniband);
        assertThat(List.of(s.matches(doc(RDMA)), s.matches(doc(HBM_SIGNAL)), s.matches(doc(INFINIBAND))))
            .as(text + " on documents")
            .containsExactly(rdma, signal, infiniband);
        // The canonical form selects the same reads and is a fixed point.
        Selector again = Selector.parse(s.canonical());
        assertThat(again).isEqualTo(s);
        assertThat(again.canonical()).isEqualTo(s.canonical());
        assertThat(List.of(again.matches(RDMA), again.matches(HBM_SIGNAL), again.matches(INFINIBAND)))
            .containsExactly(rdma, signal, infiniband);
    }

    static final Read MEMORY_STATE = read(ReadKind.STATE, "memory", List.of("memory"),
            List.<String[]>of(new String[] { "sk-hynix", "000660.KS" }, new String[] { "nvidia", "NVDA" }), List.of());

    @ParameterizedTest
    @CsvSource(delimiter = '|',
            value = { "kind:state                         | true", "KIND:State AND layer:memory        | true",
                    "kind:state AND layer:accelerators  | false", "kind:state AND company:NVDA        | true",
                    "NOT kind:state                     | false", "kind:signal OR kind:term           | false",
                    "term:memory                        | false", })
    void selectsStateReadsByKindLayerAndCompany(String text, boolean matches) {
        Selector s = Selector.parse(text);
        assertThat(s.matches(MEMORY_STATE)).as(text).isEqualTo(matches);
        assertThat(s.matches(doc(MEMORY_STATE))).as(text + " on documents").isEqualTo(matches);
    }

    @Test
    void canonicalFormIgnoresOrderCaseAndDuplicates() {
        assertThat(Selector.parse("company:anet OR layer:memory OR COMPANY:ANET").canonical())
            .isEqualTo(Selector.parse("layer:memory or company:ANET").canonical())
            .isEqualTo("company:ANET OR layer:memory");
        assertThat(Selector.parse("a:b".replace("a:b", "term:rdma AND (kind:term)")).canonical())
            .isEqualTo("kind:term AND term:rdma");
    }

    @Test
    void listsItsTests() {
        assertThat(Selector.parse("layer:memory OR NOT company:anet").tests()).containsExactlyInAnyOrder(
                Map.entry(Selector.Field.LAYER, "memory"), Map.entry(Selector.Field.COMPANY, "ANET"));
    }

    @Test
    void esQueryMirrorsTheStructure() {
        String q = Selector.parse("(layer:memory OR company:anet) AND NOT kind:signal").toQuery().toString();
        assertThat(q).contains("layerIds")
            .contains("companySymbols")
            .contains("companies.id")
            .contains("must_not")
            .contains("\"minimum_should_match\":\"1\"");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = { "''                        | empty", "'   '                     | empty",
            "layer:                    | has no value",
            "sector:memory             | unknown field 'sector' at position 1",
            "layer:Network_Fabric      | is not a layer id", "company:'ANET;drop'       | is not a company",
            "kind:rumour               | kind 'rumour' at position 1 is unknown: the kinds are term, signal and state",
            "(layer:memory             | '(' at position 1 is never closed",
            "layer:memory)             | unbalanced ')' at position 13",
            "layer:memory AND          | ends where a test was expected (position 17)",
            "OR layer:memory           | 'OR' at position 1 needs a test on its left",
            "memory                    | 'memory' at position 1 is not a test",
            "()                        | unexpected ')' at position 2",
            "NOT                       | ends where a test was expected", })
    void badSelectorsNameTheProblem(String text, String message) {
        assertThatThrownBy(() -> Selector.parse(text)).isInstanceOf(SelectorException.class)
            .hasMessageContaining(message)
            .satisfies(e -> assertThat(((SelectorException) e).type()).isEqualTo("invalid-selector"));
    }

    @Test
    void limitsLengthTestsAndDepth() {
        assertThatThrownBy(() -> Selector.parse("layer:" + "a".repeat(Selector.MAX_LENGTH)))
            .hasMessageContaining("at most " + Selector.MAX_LENGTH);
        List<String> many = new ArrayList<>();
        for (int i = 0; i <= Selector.MAX_TESTS; i++) {
            many.add("term:t" + i);
        }
        assertThatThrownBy(() -> Selector.parse(String.join(" OR ", many))).hasMessageContaining("more than");
        assertThatThrownBy(() -> Selector.parse("(".repeat(40) + "all" + ")".repeat(40)))
            .hasMessageContaining("deeper than");
        assertThatThrownBy(() -> Selector.parse("NOT ".repeat(40) + "all")).hasMessageContaining("deeper than");
    }

    @ParameterizedTest
    @ValueSource(strings = { "all", "ALL", "(all)", "all OR kind:term" })
    void allMatchesEverything(String text) {
        assertThat(Selector.parse(text).matches(HBM_SIGNAL)).isTrue();
    }

}
