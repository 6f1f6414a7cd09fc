package io.chainfeed.streams.tagging;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermTag;
import io.chainfeed.schemas.SampleRecords;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadChangesTest {

    private static final Evidence DECLARED = new Evidence("declared-related", "metadata", -1, -1, "x");

    private static final Evidence MENTIONED = new Evidence("term-title", "definition", 0, 4, "x");

    private static Read.Builder read() {
        return SampleRecords.read("term:hbm", ReadKind.TERM, "HBM", "Stacked DRAM.")
            .setAliases(List.of("high-bandwidth memory"))
            .setSections(List.of(new Section("a", "What it means", "one"), new Section("b", "Why", "two")))
            .setTerms(List.of(new TermTag("cowos", "CoWoS", "", 1.0, List.of(DECLARED)),
                    new TermTag("dram", "DRAM", "", 0.9, List.of(MENTIONED))))
            .setSources(List.of(new Source("JEDEC", "https://www.jedec.org/")))
            .setDisclaimer("Research, not advice.")
            .setVersion(1)
            .setUpdatedAt(Instant.EPOCH);
    }

    private static List<String> lines(Read before, Read after) {
        return ReadChanges.between(before, after)
            .stream()
            .map(c -> c.getField() + " " + c.getChange() + " " + c.getKey() + " " + c.getDetail())
            .toList();
    }

    @Test
    void nothingBeforeMeansNoChanges() {
        assertThat(ReadChanges.between(null, read().build())).isEmpty();
    }

    @Test
    void reorderingAndTagConfidenceAreNotChanges() {
        Read before = read().build();
        Read after = read().setVersion(2)
            .setSections(List.of(new Section("b", "Why", "two"), new Section("a", "What it means", "one")))
            .setTerms(List.of(new TermTag("dram", "DRAM", "", 0.5, List.of(MENTIONED)),
                    new TermTag("cowos", "CoWoS", "", 1.0, List.of(DECLARED))))
            .build();
        assertThat(ReadChanges.between(before, after)).isEmpty();
    }

    @Test
    void namesEachChangeByItsStableKeyAndReadableLabel() {
        Read before = read().build();
        Read after = read().setTitle("HBM3E")
            .setAliases(List.of("HBM3E stacks"))
            .setSections(List.of(new Section("a", "What it is", "one"), new Section("b", "Why", "two!")))
            .setTerms(List.of(new TermTag("dram", "DRAM", "", 1.0, List.of(DECLARED)),
                    new TermTag("tsv", "Through-silicon via", "", 0.9, List.of(MENTIONED))))
            .setSources(List.of())
            .setDisclaimer("Research only.")
            .build();
        assertThat(lines(before, after)).containsExactly("title changed  HBM3E",
                "aliases removed high-bandwidth memory high-bandwidth memory",
                "aliases added HBM3E stacks HBM3E stacks", "sections changed a What it is", "sections changed b Why",
                "related removed cowos CoWoS", "related added dram DRAM", "terms removed dram DRAM",
                "terms added tsv Through-silicon via", "sources removed https://www.jedec.org/ JEDEC",
                "disclaimer changed  Research only.");
    }

}
