package io.chainfeed.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.avro.Direction;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ChainSegmentsTest {

    @Test
    void theSharesOfEachSegmentedLayerAddUpToOne() {
        Map<String, Double> byLayer = new TreeMap<>();
        ChainSegments.ALL.forEach(s -> {
            assertThat(s.share()).isGreaterThan(0).isLessThanOrEqualTo(1);
            byLayer.merge(s.layer(), s.share(), Double::sum);
        });
        assertThat(byLayer).containsOnlyKeys("foundry", "memory");
        byLayer.values().forEach(total -> assertThat(total).isCloseTo(1.0, within(1e-12)));
        assertThat(ChainSegments.ids()).containsExactly("conventional", "hbm", "leading-edge", "mature");
    }

    @Test
    void aSegmentWeighsInItsOwnLayerOnlyAndAWholeLayerSignalInFull() {
        assertThat(ChainSegments.share("hbm", "memory")).isEqualTo(0.15);
        assertThat(ChainSegments.share("conventional", "memory")).isEqualTo(0.85);
        assertThat(ChainSegments.share("hbm", "accelerators")).isEqualTo(1.0);
        assertThat(ChainSegments.share("mature", "foundry")).isEqualTo(0.5);
        assertThat(ChainSegments.share(null, "memory")).isEqualTo(1.0);
        assertThat(ChainSegments.share("nope", "memory")).isEqualTo(1.0);
        assertThat(ChainSegments.of("leading-edge").layer()).isEqualTo("foundry");
        assertThat(ChainSegments.of("nope")).isNull();
    }

    @Test
    void aSegmentIsRefusedWhenUnknownOrOfALayerTheSignalDoesNotName() {
        assertThat(ChainSegments.refusal(null, List.of("memory"))).isNull();
        assertThat(ChainSegments.refusal("hbm", List.of("memory", "accelerators"))).isNull();
        assertThat(ChainSegments.refusal("hbm", null)).isNull();
        assertThat(ChainSegments.refusal("dram", null))
            .isEqualTo("'dram' is not a segment (conventional, hbm, leading-edge, mature)");
        assertThat(ChainSegments.refusal("dram", List.of("memory"))).startsWith("'dram' is not a segment");
        assertThat(ChainSegments.refusal("mature", List.of("memory")))
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
