package io.chainfeed.chain.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.avro.Direction;
import io.chainfeed.chain.ChainDecay;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ChainSegmentsTest {

    /** The bundled layers.yaml's segments, which these figures are about. */
    private static final ChainSegments S = ChainSegments.bundled();

    private static final String COMPANIES = "companies:\n  - {id: acme, name: Acme, primaryLayer: memory}\n";

    private static ChainReference layers(String segments) {
        String yaml = "layers:\n  - id: memory\n    name: Memory\n    summary: Chips.\n" + segments;
        return ChainReference.parse(new TextFiles.NamedText("layers.yaml", "layers.yaml", yaml),
                new TextFiles.NamedText("companies.yaml", "companies.yaml", COMPANIES));
    }

    @Test
    void segmentsAreReadFromTheLayersFileAndChecked() {
        ChainReference ok = layers("    segments:\n      - {id: hbm, share: 0.25}\n      - {id: rest, share: 0.75}\n");
        assertThat(ok.segments().all()).containsExactly(new ChainSegments.Segment("memory", "hbm", 0.25),
                new ChainSegments.Segment("memory", "rest", 0.75));
        assertThat(layers("").segments().all()).isEmpty();
        assertThatThrownBy(
                () -> layers("    segments:\n      - {id: hbm, share: 0.25}\n      - {id: rest, share: 0.5}\n"))
            .isInstanceOf(CorpusException.class)
            .hasMessageContaining("add up to 0.75, not 1");
        assertThatThrownBy(() -> layers("    segments:\n      - {id: hbm, share: 1.5}\n"))
            .isInstanceOf(CorpusException.class)
            .hasMessageContaining("segments[0].share")
            .hasMessageContaining("must be in (0, 1]");
        assertThatThrownBy(
                () -> layers("    segments:\n      - {id: hbm, share: \"0.5\"}\n      - {id: b, share: 0.5}\n"))
            .isInstanceOf(CorpusException.class)
            .hasMessageContaining("must be a number");
        assertThatThrownBy(
                () -> layers("    segments:\n      - {id: hbm, share: 0.5}\n      - {id: hbm, share: 0.5}\n"))
            .isInstanceOf(CorpusException.class)
            .hasMessageContaining("segment id 'hbm' is already used");
        assertThatThrownBy(() -> layers("    segments:\n      - {id: HBM, share: 1}\n"))
            .isInstanceOf(CorpusException.class)
            .hasMessageContaining("is not a slug");
    }

    @Test
    void theSharesOfEachSegmentedLayerAddUpToOne() {
        Map<String, Double> byLayer = new TreeMap<>();
        S.all().forEach(s -> {
            assertThat(s.share()).isGreaterThan(0).isLessThanOrEqualTo(1);
            byLayer.merge(s.layer(), s.share(), Double::sum);
        });
        assertThat(byLayer).containsOnlyKeys("foundry", "memory");
        byLayer.values().forEach(total -> assertThat(total).isCloseTo(1.0, within(1e-12)));
        assertThat(S.ids()).containsExactly("conventional", "hbm", "leading-edge", "mature");
    }

    @Test
    void aSegmentWeighsInItsOwnLayerOnlyAndAWholeLayerSignalInFull() {
        assertThat(S.share("hbm", "memory")).isEqualTo(0.15);
        assertThat(S.share("conventional", "memory")).isEqualTo(0.85);
        assertThat(S.share("hbm", "accelerators")).isEqualTo(1.0);
        assertThat(S.share("mature", "foundry")).isEqualTo(0.5);
        assertThat(S.share(null, "memory")).isEqualTo(1.0);
        assertThat(S.share("nope", "memory")).isEqualTo(1.0);
        assertThat(S.segment("leading-edge").layer()).isEqualTo("foundry");
        assertThat(S.segment("nope")).isNull();
    }

    @Test
    void aSegmentIsRefusedWhenUnknownOrOfALayerTheSignalDoesNotName() {
        assertThat(S.refusal(null, List.of("memory"))).isNull();
        assertThat(S.refusal("hbm", List.of("memory", "accelerators"))).isNull();
        assertThat(S.refusal("hbm", null)).isNull();
        assertThat(S.refusal("dram", null))
            .isEqualTo("'dram' is not a segment (conventional, hbm, leading-edge, mature)");
        assertThat(S.refusal("dram", List.of("memory"))).startsWith("'dram' is not a segment");
        assertThat(S.refusal("mature", List.of("memory")))
            .isEqualTo("'mature' is a segment of foundry, which is not among the layers named [memory]");
    }

    @Test
    void aShareScalesTheContributionAndShiftsTheSortKeyByItsLogarithm() {
        long start = 1_700_000_000_000L;
        long later = start + 40L * 86_400_000;
        assertThat(ChainDecay.contribution(Direction.EASING, 4, start, later, 1, 0.15))
            .isCloseTo(0.15 * ChainDecay.contribution(Direction.EASING, 4, start, later, 1), within(1e-15));
        assertThat(ChainDecay.weight(4, start, 1.0)).isEqualTo(ChainDecay.weight(4, start));
        // a 0.5 share weighs as half the magnitude: the same key as magnitude 2
        assertThat(ChainDecay.weight(4, start, 0.5)).isCloseTo(ChainDecay.weight(2, start), within(1e-12));
    }

}
