package io.chainfeed.api.reads;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.AnswerJson;
import io.chainfeed.api.StoredDocuments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadViewsTest {

    @Test
    @SuppressWarnings("unchecked")
    void aStoredSignalObjectGetsItsNullMembersBack() {
        Map<String, Object> doc = Map.of("id", "signal:x", "kind", "signal", "signal",
                Map.of("direction", "easing", "magnitude", 1, "decidedBy", "text", "held", true));
        Map<String, Object> signal = (Map<String, Object>) AnswerJson
            .of(ReadViews.view(StoredDocuments.doc(doc), false))
            .get("signal");
        assertThat(signal).containsEntry("held", true).containsEntry("until", null).containsEntry("review", null);
        assertThat(AnswerJson.of(ReadViews.view(StoredDocuments.doc(Map.of("id", "term:x", "kind", "term")), false)))
            .doesNotContainKey("signal");
    }

    @Test
    void eachChangeReadsAsASentence() {
        assertThat(ReadViews.changeText("title", "changed", "", "HBM3E")).isEqualTo("Title changed to “HBM3E”");
        assertThat(ReadViews.changeText("summary", "changed", "", "long new text")).isEqualTo("Summary changed");
        assertThat(ReadViews.changeText("sections", "added", "how", "How it works"))
            .isEqualTo("Section “How it works” added");
        assertThat(ReadViews.changeText("companies", "removed", "arista", "Arista Networks (ANET)"))
            .isEqualTo("Company “Arista Networks (ANET)” removed");
        assertThat(ReadViews.changeText("related", "added", "roce", "RoCE")).isEqualTo("Related term “RoCE” added");
        assertThat(ReadViews.changeText("terms", "removed", "dram", "DRAM")).isEqualTo("Mentioned term “DRAM” removed");
        assertThat(ReadViews.changeText("sources", "added", "https://www.jedec.org/", "JEDEC"))
            .isEqualTo("Source “JEDEC” added (https://www.jedec.org/)");
        assertThat(ReadViews.changeText("layers", "added", "memory", "Memory")).isEqualTo("Layer “Memory” added");
    }

    @Test
    void theViewCarriesPreviousVersionAndChangesAndToleratesDocumentsWithout() {
        Map<String, Object> withHistory = Map.of("id", "term:hbm", "version", 2L, "previousVersion", 1L, "changes",
                List.of(Map.of("field", "aliases", "change", "added", "key", "HBM3E", "detail", "HBM3E")));
        Map<String, Object> view = AnswerJson.of(ReadViews.view(StoredDocuments.doc(withHistory), false));
        assertThat(view.get("previousVersion")).isEqualTo(1L);
        assertThat(view.get("changes")).isEqualTo(List.of(Map.of("field", "aliases", "change", "added", "key", "HBM3E",
                "detail", "HBM3E", "text", "Alias “HBM3E” added")));
        Map<String, Object> old = AnswerJson
            .of(ReadViews.view(StoredDocuments.doc(Map.of("id", "term:hbm", "version", 1L)), false));
        assertThat(old.get("previousVersion")).isNull();
        assertThat(old.get("changes")).isEqualTo(List.of());
    }

}
