package io.chainfeed.api.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.ChainCause;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SqueezeSource;
import io.chainfeed.avro.Trend;
import io.chainfeed.chain.ChainDecay;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChainCauseIndexTest {

    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    // never started: fed by hand
    private final ChainCauseIndex index = new ChainCauseIndex(new KafkaConnectionProperties("127.0.0.1:1"),
            new SimpleMeterRegistry());

    private static ChainCause cause(String layer, String id, Direction d, int magnitude, Instant at) {
        return ChainCause.newBuilder()
            .setLayerId(layer)
            .setSignalId(id)
            .setHeadline("headline " + id)
            .setDirection(d)
            .setMagnitude(magnitude)
            .setObservedAt(at)
            .setWeight(ChainDecay.weight(magnitude, at.toEpochMilli()))
            .build();
    }

    private static LayerState state(String id, Instant asOf, SqueezeSource... by) {
        return LayerState.newBuilder()
            .setId(id)
            .setName(id)
            .setPressure(0)
            .setStatus(LayerStatus.BALANCED)
            .setTrend(Trend.STEADY)
            .setDirectPressure(0)
            .setSqueezeReceived(0)
            .setSqueezedBy(List.of(by))
            .setAsOf(asOf)
            .setVersion(asOf.toEpochMilli())
            .build();
    }

    @Test
    void pagesMergeTheLayersOwnSignalsWithThoseOfSqueezingLayersInContributionOrder() {
        Random random = new Random(3);
        Instant asOf = T0.plus(Duration.ofDays(30));
        for (int i = 0; i < 120; i++) {
            String layer = i % 3 == 0 ? "memory" : i % 3 == 1 ? "advanced-packaging" : "foundry";
            index.changed(layer + "/s" + i,
                    cause(layer, "s" + i, random.nextBoolean() ? Direction.TIGHTENING : Direction.EASING,
                            1 + random.nextInt(5), T0.plus(Duration.ofHours(random.nextInt(700)))));
        }
        // replaced and removed ones leave the lists
        index.changed("memory/s0", cause("memory", "s0", Direction.TIGHTENING, 5, asOf));
        index.changed("memory/s3", null);
        LayerState packaging = state("advanced-packaging", asOf, new SqueezeSource("memory", 1.0, 1, 1.0));

        List<ChainCauseIndex.Cause> all = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            ChainCauseIndex.Page page = index.page(packaging, cursor, 7);
            assertThat(page.causes()).hasSizeLessThanOrEqualTo(7);
            all.addAll(page.causes());
            cursor = page.nextCursor();
            pages++;
        }
        while (cursor != null);

        assertThat(pages).isEqualTo((int) Math.ceil(79 / 7.0));
        // packaging's own 40, memory's 40 less the removed one; foundry's none
        assertThat(all).hasSize(40 + 39);
        assertThat(all).extracting(c -> c.cause().getSignalId()).doesNotHaveDuplicates().doesNotContain("s3");
        assertThat(all).extracting(c -> Math.abs(c.contribution())).isSortedAccordingTo(Comparator.reverseOrder());
        List<ChainCauseIndex.Cause> fromMemory = all.stream().filter(c -> c.originLayer().equals("memory")).toList();
        assertThat(fromMemory).allSatisfy(c -> assertThat(c.hops()).isEqualTo(1));
        // the corrected one: newest, largest
        assertThat(fromMemory.get(0).cause().getSignalId()).isEqualTo("s0");
        // 5 at asOf, halved one hop on
        assertThat(fromMemory.get(0).contribution()).isEqualTo(2.5);
    }

    @Test
    void contributionsCarryTheSoftCapFactorOfTheLayerTheSignalNamed() {
        index.changed("memory/m1", cause("memory", "m1", Direction.TIGHTENING, 4, T0));
        index.changed("advanced-packaging/p1", cause("advanced-packaging", "p1", Direction.TIGHTENING, 2, T0));
        LayerState packaging = LayerState
            .newBuilder(state("advanced-packaging", T0, new SqueezeSource("memory", 1.6, 1, 0.8)))
            .setDirectScale(0.5)
            .build();
        List<ChainCauseIndex.Cause> page = index.page(packaging, null, 10).causes();
        assertThat(page).extracting(c -> c.cause().getSignalId(), ChainCauseIndex.Cause::contribution)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("m1", 4 * 0.5 * 0.8),
                    org.assertj.core.groups.Tuple.tuple("p1", 2 * 0.5));
    }

    @Test
    void aSegmentedCauseCountsWithItsShareInItsOrderAndItsContribution() {
        // HBM sold out (5, share 0.15: 0.75) against conventional DRAM easing (2, share
        // 0.85: -1.7) and a whole-layer signal (1)
        index.changed("memory/hbm",
                ChainCause.newBuilder(cause("memory", "hbm", Direction.TIGHTENING, 5, T0))
                    .setShare(0.15)
                    .setWeight(ChainDecay.weight(5, T0.toEpochMilli(), 0.15))
                    .build());
        index.changed("memory/dram",
                ChainCause.newBuilder(cause("memory", "dram", Direction.EASING, 2, T0))
                    .setShare(0.85)
                    .setWeight(ChainDecay.weight(2, T0.toEpochMilli(), 0.85))
                    .build());
        index.changed("memory/all", cause("memory", "all", Direction.TIGHTENING, 1, T0));
        List<ChainCauseIndex.Cause> page = index.page(state("memory", T0), null, 10).causes();
        assertThat(page).extracting(c -> c.cause().getSignalId(), ChainCauseIndex.Cause::contribution)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("dram", -2 * 0.85),
                    org.assertj.core.groups.Tuple.tuple("all", 1.0),
                    org.assertj.core.groups.Tuple.tuple("hbm", 5 * 0.15));
    }

    @Test
    void aCursorFromElsewhereIsRefused() {
        assertThatThrownBy(() -> index.page(state("memory", T0), "not-a-cursor", 5))
            .isInstanceOf(IllegalArgumentException.class);
    }

}
