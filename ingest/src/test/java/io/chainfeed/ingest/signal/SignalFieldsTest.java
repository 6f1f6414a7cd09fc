package io.chainfeed.ingest.signal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SignalFields}: the accepted spellings of a raw signal's field names. */
class SignalFieldsTest {

    @Test
    void namesMatchIgnoringCaseUnderscoresHyphensAndSpaces() {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("HEADLINE", "h");
        raw.put("observed_at", "2026-03-01");
        raw.put("Observed-At-Basis", "first-seen");
        raw.put("layer hints", "memory");
        raw.put("Source", Map.of("name", "n", "url", "https://example.com/a"));
        SignalFields f = SignalFields.bind(raw);
        assertThat(f.headline()).isEqualTo("h");
        assertThat(f.observedAt()).isEqualTo("2026-03-01");
        assertThat(f.observedAtBasis()).isEqualTo("first-seen");
        assertThat(f.layers()).isEqualTo("memory");
        assertThat(f.source()).isEqualTo(Map.of("name", "n", "url", "https://example.com/a"));
        assertThat(f.id()).isNull();
        assertThat(f.untilGiven()).isFalse();
    }

    @Test
    void layersWinOverLayerHintsAndObservedAtOverObservedWhenPresentAtAll() {
        Map<String, Object> raw = new HashMap<>();
        raw.put("layers", null);
        raw.put("layerHints", List.of("memory"));
        raw.put("observedAt", null);
        raw.put("observed", "2026-03-01");
        SignalFields f = SignalFields.bind(raw);
        assertThat(f.layers()).isNull();
        assertThat(f.observedAt()).isNull();
        SignalFields hints = SignalFields.bind(Map.of("layerHints", List.of("memory"), "observed", "2026-03-01"));
        assertThat(hints.layers()).isEqualTo(List.of("memory"));
        assertThat(hints.observedAt()).isEqualTo("2026-03-01");
    }

    @Test
    void untilGivenEvenAsNull() {
        Map<String, Object> raw = new HashMap<>();
        raw.put("until", null);
        assertThat(SignalFields.bind(raw).untilGiven()).isTrue();
        assertThat(SignalFields.bind(raw).until()).isNull();
    }

    @Test
    void theLaterOfTwoSpellingsWins() {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("magnitude", 2);
        raw.put("MAGNITUDE", 3);
        assertThat(SignalFields.bind(raw).magnitude()).isEqualTo(3);
    }

    @Test
    void aReadInputIsBoundWhereItIsRead() {
        SignalInput in = SignalReader.json("{\"Layer_Hints\": \"memory;foundry\"}").get(0);
        assertThat(in.bound().layers()).isEqualTo("memory;foundry");
        assertThat(new SignalInput(0, 0, null, "unreadable").bound()).isNull();
    }

}
