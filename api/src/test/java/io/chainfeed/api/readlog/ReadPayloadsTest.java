package io.chainfeed.api.readlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.api.AnswerJson;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.DecidedValue;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.SignalDecision;
import io.chainfeed.avro.SignalPart;
import io.chainfeed.avro.Source;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadPayloadsTest {

    private static final Read READ = Read.newBuilder()
        .setId("signal:hbm-1")
        .setKind(ReadKind.SIGNAL)
        .setSlug("hbm-1")
        .setTitle("HBM sold out\nfor 2027 <b>&</b>")
        .setSummary("Line one\r\nline two \u2028 end")
        .setSections(List.of(new Section("what_it_means", "What it means", "Tight.")))
        .setLayers(List.of(new LayerTag("memory", "Memory", 0.9, true,
                List.of(new Evidence("declared-layer", "metadata", -1, -1, "HBM")))))
        .setCompanies(List.of(new CompanyTag("sk-hynix", "SK hynix", "000660.KS", "XKRX", 0.9, true, List.of())))
        .setSources(List.of(new Source("Example wire", "https://example.com/a")))
        .setDisclaimer("Research, not advice.")
        .setVersion(3)
        .setUpdatedAt(Instant.parse("2026-03-02T00:00:00Z"))
        .build();

    @Test
    void theViewHasTheReadEndpointsFieldsWithoutEvidence() {
        Map<String, Object> v = AnswerJson.of(ReadPayloads.view(READ));
        assertThat(v.keySet()).containsExactly("id", "kind", "slug", "title", "aliases", "summary", "sections",
                "layers", "companies", "related", "terms", "sources", "disclaimer", "version", "updatedAt",
                "previousVersion", "publishedAt", "observedAt", "changes");
        assertThat(v.get("previousVersion")).isNull();
        assertThat(v.get("changes")).isEqualTo(List.of());
        assertThat(v.get("kind")).isEqualTo("signal");
        assertThat(v.get("updatedAt")).isEqualTo("2026-03-02T00:00:00Z");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> layers = (List<Map<String, Object>>) v.get("layers");
        assertThat(layers).singleElement().satisfies(l -> {
            assertThat(l).containsEntry("id", "memory").containsEntry("primary", true);
            assertThat(l).doesNotContainKey("evidence");
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSignalReadCarriesItsSignalObjectWithWhoDecidedWhatAndTheEvidence() {
        SignalDecision decision = SignalDecision.newBuilder()
            .setDecidedBy("text")
            .setConfidence(0.45)
            .setHeld(true)
            .setValues(List.of(
                    DecidedValue.newBuilder()
                        .setField("direction")
                        .setValue("tightening")
                        .setDecidedBy("text")
                        .setEvidence(List.of(new Evidence("tightening cue", "headline", 4, 12, "sold out")))
                        .build(),
                    DecidedValue.newBuilder()
                        .setField("magnitude")
                        .setValue("4")
                        .setDecidedBy("editor")
                        .setEvidence(List.of())
                        .build()))
            .build();
        Read read = Read.newBuilder(READ)
            .setSignal(SignalPart.newBuilder()
                .setDirection("tightening")
                .setMagnitude(4)
                .setUntil(Instant.parse("2028-01-01T00:00:00Z"))
                .setDecision(decision)
                .build())
            .build();
        Map<String, Object> signal = (Map<String, Object>) AnswerJson.of(ReadPayloads.view(read)).get("signal");
        assertThat(signal).containsEntry("direction", "tightening")
            .containsEntry("magnitude", 4)
            .containsEntry("until", "2028-01-01T00:00:00Z")
            .containsEntry("decidedBy", "text")
            .containsEntry("confidence", 0.45)
            .containsEntry("held", true)
            .containsEntry("decided", Map.of("direction", "text", "magnitude", "editor"));
        assertThat((List<Map<String, Object>>) ((Map<String, Object>) signal.get("evidence")).get("direction"))
            .singleElement()
            .isEqualTo(Map.of("field", "headline", "offset", 4, "length", 8, "text", "sold out", "rule",
                    "tightening cue"));
        assertThat(AnswerJson.of(ReadPayloads.view(READ))).as("a signal read written before v5")
            .doesNotContainKey("signal");
    }

    @Test
    void pushedReadsCarryTheVersionPeopleSeeThePublicationAndTheObservationInstant() {
        Read read = Read.newBuilder(READ)
            .setVersion(1_796_052_572_585L)
            .setPreviousVersion(1_796_052_572_000L)
            .setSequence(4)
            .setPublishedAt(Instant.parse("2026-11-30T12:00:00.125Z"))
            .setObservedAt(Instant.parse("2026-11-20T00:00:00Z"))
            .build();
        Map<String, Object> v = AnswerJson.of(ReadPayloads.view(read));
        assertThat(v).containsEntry("version", 4L)
            .containsEntry("previousVersion", 3L)
            .containsEntry("publishedAt", "2026-11-30T12:00:00.125Z")
            .containsEntry("observedAt", "2026-11-20T00:00:00Z");
        assertThat(v.values()).doesNotContain(1_796_052_572_585L, 1_796_052_572_000L);
    }

    @Test
    void theJsonIsOneLineEvenWhenTheTextHasLineBreaks() throws Exception {
        String json = new String(ReadPayloads.json(READ, READ.getId()), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("\n").doesNotContain("\r");
        Map<?, ?> back = new ObjectMapper().readValue(json, Map.class);
        assertThat(back.get("title")).isEqualTo("HBM sold out\nfor 2027 <b>&</b>");
        assertThat(back.get("summary")).isEqualTo("Line one\r\nline two \u2028 end");
    }

    @Test
    void anSseFrameIsBuiltOncePerPositionAndShared() {
        ReadEvent e = new ReadEvent(1, 8, READ.getId(), READ, 0L);
        LogPosition after = LogPosition.parse("0:3,1:9");
        byte[] frame = e.sseFrame(after);
        assertThat(new String(frame, StandardCharsets.UTF_8))
            .isEqualTo("id: 0:3,1:9\nevent: read\ndata: " + new String(e.json(), StandardCharsets.UTF_8) + "\n\n");
        assertThat(e.sseFrame(LogPosition.parse("1:9,0:3"))).isSameAs(frame);
        byte[] other = e.sseFrame(LogPosition.parse("0:4,1:9"));
        assertThat(new String(other, StandardCharsets.UTF_8)).startsWith("id: 0:4,1:9\nevent: read\ndata: {");
        ReadEvent gone = new ReadEvent(0, 2, "signal:gone", null, 0L);
        assertThat(new String(gone.sseFrame(after), StandardCharsets.UTF_8))
            .isEqualTo("id: 0:3,1:9\nevent: deleted\ndata: {\"id\":\"signal:gone\"}\n\n");
    }

    @Test
    void aDeletionCarriesOnlyTheId() {
        assertThat(new String(ReadPayloads.json(null, "signal:gone"), StandardCharsets.UTF_8))
            .isEqualTo("{\"id\":\"signal:gone\"}");
        ReadEvent e = new ReadEvent(1, 7, "signal:gone", null, 5);
        assertThat(e.deleted()).isTrue();
        assertThat(e.json()).isSameAs(e.json());
    }

}
