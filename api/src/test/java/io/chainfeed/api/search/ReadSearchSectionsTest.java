package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.StoredDocuments;
import io.chainfeed.schemas.ReadDocument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sections of a page that fell back to some of the words come from its matches. */
class ReadSearchSectionsTest {

    private static ReadSearch.Match term(String id) {
        return new ReadSearch.Match(StoredDocuments.doc(Map.of("id", id, "kind", "term")), 1, List.of(), null);
    }

    private static ReadSearch.Match signal(String id, String observedAt) {
        return new ReadSearch.Match(StoredDocuments.doc(Map.of("id", id, "kind", "signal", "observedAt", observedAt)),
                1, List.of(), null);
    }

    @Test
    void theBestTermsInPageOrderAndThePagesSignalsNewestFirst() {
        List<ReadSearch.Match> page = new ArrayList<>(List.of(term("term:euv"),
                signal("signal:q1-miss", "2024-04-17T00:00:00Z"), term("term:high-na"),
                signal("signal:q3-fall", "2023-10-18T00:00:00Z"), term("term:third"),
                signal("signal:record", "2026-01-28T00:00:00Z"), signal("signal:same-day-b", "2024-04-17T00:00:00Z")));
        for (int i = 0; i < 4; i++) {
            page.add(signal("signal:old-" + i, "2023-0" + (i + 1) + "-01T00:00:00Z"));
        }
        ReadSearch.Sections s = PageSections.sectionsOf(page, ReadSearch.Filters.NONE);
        assertThat(s.terms()).extracting(ReadDocument::id).containsExactly("term:euv", "term:high-na");
        assertThat(s.signals()).extracting(ReadDocument::id)
            .containsExactly("signal:record", "signal:q1-miss", "signal:same-day-b", "signal:q3-fall", "signal:old-3");
    }

    @Test
    void aKindFilterLeavesTheOtherSectionEmpty() {
        List<ReadSearch.Match> page = List.of(term("term:euv"), signal("signal:a", "2024-01-01T00:00:00Z"));
        ReadSearch.Filters signalsOnly = new ReadSearch.Filters(List.of(), List.of(), false, List.of(),
                List.of("signal"), null, Instant.parse("2026-01-01T00:00:00Z"));
        ReadSearch.Sections s = PageSections.sectionsOf(page, signalsOnly);
        assertThat(s.terms()).isEmpty();
        assertThat(s.signals()).hasSize(1);
        assertThat(PageSections.sectionsOf(List.of(), ReadSearch.Filters.NONE).signals()).isEmpty();
    }

}
