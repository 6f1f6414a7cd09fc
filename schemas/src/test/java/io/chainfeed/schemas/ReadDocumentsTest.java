package io.chainfeed.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadChange;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermTag;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadDocumentsTest {

    @Test
    void derivedFieldsFlattenTheTagsForFiltersAndFacets() {
        Read read = SampleRecords.read("term:rdma", ReadKind.TERM, "RDMA", "s")
            .setSources(List.of(new Source("x", "https://example.org/")))
            .setDisclaimer("Research, not advice.")
            .setVersion(1)
            .setUpdatedAt(Instant.ofEpochMilli(1))
            .setLayers(List.of(new LayerTag("network-fabric", "Network fabric", 0.9, true, List.of()),
                    new LayerTag("memory", "Memory", 0.4, false, List.of())))
            .setCompanies(List.of(new CompanyTag("arista", "Arista Networks", "ANET", "XNYS", 0.9, true, List.of()),
                    new CompanyTag("accton", "Accton Technology", "2345.TW", "XTAI", 0.5, false, List.of())))
            .setTerms(List.of(new TermTag("infiniband", "InfiniBand", "", 0.8, List.of())))
            .build();
        Map<String, Object> doc = ReadDocuments.toDocument(read);
        assertThat(doc.get("layerIds")).isEqualTo(List.of("network-fabric", "memory"));
        assertThat(doc.get("primaryLayerIds")).isEqualTo(List.of("network-fabric"));
        assertThat(doc.get("companySymbols")).isEqualTo(List.of("ANET", "2345.TW"));
        assertThat(doc.get("primaryCompanySymbols")).isEqualTo(List.of("ANET"));
        assertThat(doc.get("termSlugs")).isEqualTo(List.of("infiniband"));
        assertThat(doc.get("companyRefs")).isEqualTo(List.of("ANET|Arista Networks", "2345.TW|Accton Technology"));
        assertThat(doc.get("layerRefs")).isEqualTo(List.of("network-fabric|Network fabric", "memory|Memory"));
        assertThat(doc.get("termRefs")).isEqualTo(List.of("infiniband|InfiniBand"));
        assertThat(doc).containsKeys("id", "kind", "slug", "title", "aliases", "summary", "sections", "layers",
                "companies", "terms", "sources", "disclaimer", "version", "updatedAt");
    }

    private static Read.Builder signalRead() {
        return SampleRecords.read("signal:s1", ReadKind.SIGNAL, "HBM sold out", "s")
            .setDisclaimer("Research, not advice.")
            .setUpdatedAt(Instant.parse("2026-11-20T08:00:00Z"));
    }

    @Test
    void theVersionPeopleSeeIsTheSequenceAndTheOrderingKeyStaysOut() {
        Read read = signalRead().setVersion(1_796_052_572_585L)
            .setPreviousVersion(1_796_052_572_584L)
            .setSequence(3)
            .setPublishedAt(Instant.parse("2026-11-30T12:00:00Z"))
            .setObservedAt(Instant.parse("2026-11-20T08:00:00Z"))
            .build();
        Map<String, Object> doc = ReadDocuments.toDocument(read, Instant.parse("2026-11-30T12:00:01Z"));
        assertThat(doc.get("version")).isEqualTo(3L);
        assertThat(doc.get("previousVersion")).isEqualTo(2L);
        assertThat(doc.values()).doesNotContain(1_796_052_572_585L, 1_796_052_572_584L);
        assertThat(doc.get("publishedAt")).as("the read's own instant wins over the record timestamp")
            .isEqualTo("2026-11-30T12:00:00Z");
        assertThat(doc.get("observedAt")).isEqualTo("2026-11-20T08:00:00Z");

        Map<String, Object> first = ReadDocuments.toDocument(signalRead().setVersion(5).setSequence(1).build());
        assertThat(first.get("version")).isEqualTo(1L);
        assertThat(first.get("previousVersion")).isNull();
        assertThat(first.get("publishedAt")).isNull();
        assertThat(first.get("observedAt")).isNull();
    }

    @Test
    void aReadWrittenBeforeSequencesKeepsItsNumbersAndTakesTheRecordTimestamp() {
        Read legacy = signalRead().setVersion(7).setPreviousVersion(6L).build();
        Map<String, Object> doc = ReadDocuments.toDocument(legacy, Instant.parse("2026-11-30T12:00:01Z"));
        assertThat(doc.get("version")).isEqualTo(7L);
        assertThat(doc.get("previousVersion")).isEqualTo(6L);
        assertThat(doc.get("publishedAt")).isEqualTo("2026-11-30T12:00:01Z");
    }

    @Test
    void nestedRecordsBecomeMapsOfTheirAvroFieldsInSchemaOrder() {
        Read read = signalRead().setVersion(1)
            .setSources(List.of(new Source("Example", "https://example.org/a")))
            .setCompanies(List.of(new CompanyTag("arista", "Arista Networks", "ANET", "XNYS", 0.9, true,
                    List.of(new Evidence("alias", "summary", 3, 9, "Arista")))))
            .setChanges(List.of(new ReadChange("tags", "added", "ANET", "Arista Networks")))
            .build();
        Map<String, Object> doc = ReadDocuments.toDocument(read);
        assertThat(doc.get("sources")).isEqualTo(List.of(Map.of("name", "Example", "url", "https://example.org/a")));
        @SuppressWarnings("unchecked")
        Map<String, Object> company = ((List<Map<String, Object>>) doc.get("companies")).get(0);
        assertThat(company).containsExactly(Map.entry("id", "arista"), Map.entry("name", "Arista Networks"),
                Map.entry("symbol", "ANET"), Map.entry("mic", "XNYS"), Map.entry("confidence", 0.9),
                Map.entry("primary", true), Map.entry("evidence",
                        List.of(Map.of("rule", "alias", "field", "summary", "start", 3, "end", 9, "text", "Arista"))));
        assertThat(doc.get("changes"))
            .isEqualTo(List.of(Map.of("field", "tags", "change", "added", "key", "ANET", "detail", "Arista Networks")));
        assertThat(doc.get("sections")).isEqualTo(List.of());
    }

}
