package io.chainfeed.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadChange;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.SignalPart;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermTag;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadDocumentsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

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
        ReadDocument doc = ReadDocuments.toDocument(read);
        assertThat(doc.layerIds()).isEqualTo(List.of("network-fabric", "memory"));
        assertThat(doc.primaryLayerIds()).isEqualTo(List.of("network-fabric"));
        assertThat(doc.companySymbols()).isEqualTo(List.of("ANET", "2345.TW"));
        assertThat(doc.primaryCompanySymbols()).isEqualTo(List.of("ANET"));
        assertThat(doc.termSlugs()).isEqualTo(List.of("infiniband"));
        assertThat(doc.companyRefs()).isEqualTo(List.of("ANET|Arista Networks", "2345.TW|Accton Technology"));
        assertThat(doc.layerRefs()).isEqualTo(List.of("network-fabric|Network fabric", "memory|Memory"));
        assertThat(doc.termRefs()).isEqualTo(List.of("infiniband|InfiniBand"));
        assertThat(doc.kind()).isEqualTo("term");
        assertThat(doc.disclaimer()).isEqualTo("Research, not advice.");
        assertThat(doc.updatedAt()).isEqualTo("1970-01-01T00:00:00.001Z");
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
        ReadDocument doc = ReadDocuments.toDocument(read, Instant.parse("2026-11-30T12:00:01Z"));
        assertThat(doc.version()).isEqualTo(3L);
        assertThat(doc.previousVersion()).isEqualTo(2L);
        assertThat(JSON.valueToTree(doc).toString()).doesNotContain("1796052572585", "1796052572584");
        assertThat(doc.publishedAt()).as("the read's own instant wins over the record timestamp")
            .isEqualTo("2026-11-30T12:00:00Z");
        assertThat(doc.observedAt()).isEqualTo("2026-11-20T08:00:00Z");

        ReadDocument first = ReadDocuments.toDocument(signalRead().setVersion(5).setSequence(1).build());
        assertThat(first.version()).isEqualTo(1L);
        assertThat(first.previousVersion()).isNull();
        assertThat(first.publishedAt()).isNull();
        assertThat(first.observedAt()).isNull();
    }

    @Test
    void aReadWrittenBeforeSequencesKeepsItsNumbersAndTakesTheRecordTimestamp() {
        Read legacy = signalRead().setVersion(7).setPreviousVersion(6L).build();
        ReadDocument doc = ReadDocuments.toDocument(legacy, Instant.parse("2026-11-30T12:00:01Z"));
        assertThat(doc.version()).isEqualTo(7L);
        assertThat(doc.previousVersion()).isEqualTo(6L);
        assertThat(doc.publishedAt()).isEqualTo("2026-11-30T12:00:01Z");
    }

    @Test
    void nestedRecordsSerialiseAsObjectsOfTheirAvroFields() throws Exception {
        Read read = signalRead().setVersion(1)
            .setSources(List.of(new Source("Example", "https://example.org/a")))
            .setCompanies(List.of(new CompanyTag("arista", "Arista Networks", "ANET", "XNYS", 0.9, true,
                    List.of(new Evidence("alias", "summary", 3, 9, "Arista")))))
            .setChanges(List.of(new ReadChange("tags", "added", "ANET", "Arista Networks")))
            .build();
        JsonNode doc = JSON.valueToTree(ReadDocuments.toDocument(read));
        assertThat(doc.get("sources")).isEqualTo(JSON.readTree("""
                [{"name":"Example","url":"https://example.org/a"}]"""));
        assertThat(doc.get("companies")).isEqualTo(JSON.readTree("""
                [{"id":"arista","name":"Arista Networks","symbol":"ANET","mic":"XNYS","confidence":0.9,
                  "primary":true,"evidence":[{"rule":"alias","field":"summary","start":3,"end":9,"text":"Arista"}]}]
                """));
        assertThat(doc.get("changes")).isEqualTo(JSON.readTree("""
                [{"field":"tags","change":"added","key":"ANET","detail":"Arista Networks"}]"""));
        assertThat(doc.get("sections")).isEqualTo(JSON.readTree("[]"));
        assertThat(JSON.treeToValue(doc, ReadDocument.class)).as("reads back as it was written")
            .isEqualTo(ReadDocuments.toDocument(read));
    }

    @Test
    void anEditorsSignalIsDecidedByTheEditorWithFullConfidence() {
        Read read = signalRead().setVersion(1)
            .setSignal(new SignalPart("TIGHTENING", 4, Instant.parse("2027-03-31T00:00:00Z"), null))
            .build();
        ReadDocument.Signal signal = ReadDocuments.toDocument(read).signal();
        assertThat(signal.direction()).isEqualTo("tightening");
        assertThat(signal.until()).isEqualTo("2027-03-31T00:00:00Z");
        assertThat(signal.decidedBy()).isEqualTo("editor");
        assertThat(signal.confidence()).isEqualTo(1.0);
        assertThat(signal.decided()).containsOnlyKeys("direction", "magnitude", "layers", "until");
        assertThat(signal.review()).isNull();
    }

}
