package io.chainfeed.streams.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.Trend;
import io.chainfeed.chain.ChainBook;
import io.chainfeed.chain.ChainDecay;
import io.chainfeed.chain.ChainFixtures;
import io.chainfeed.chain.ChainModel;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.TopologyTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Time travel: the chain as of an instant and the history series, computed by
 * {@link ChainQueries} over the chain-state topology's own stores (filled by the topology
 * in a TopologyTestDriver), checked against the model's definition summed signal by
 * signal and against the live publication.
 */
class ChainTimeTravelTest extends TopologyTest {

    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    private static final long DAY = Duration.ofDays(1).toMillis();

    private static final double H = ChainDecay.HALF_LIFE_MS;

    /** Thirty half-lives, in days: older signals are forgotten by the live book. */
    private static final long FORGET_DAYS = (long) (30 * ChainDecay.HALF_LIFE_DAYS);

    private static final String[] LAYERS = { "semiconductor-equipment", "memory", "advanced-packaging", "accelerators",
            "servers-systems" };

    /**
     * Fewest hops downstream from each layer of the test graph (docs/chain-model.md,
     * Propagation).
     */
    private static final Map<String, Map<String, Integer>> HOPS = Map.of("semiconductor-equipment",
            Map.of("memory", 1, "advanced-packaging", 2, "accelerators", 2, "servers-systems", 3), "memory",
            Map.of("advanced-packaging", 1, "accelerators", 1, "servers-systems", 2), "advanced-packaging",
            Map.of("accelerators", 1, "servers-systems", 2), "accelerators", Map.of("servers-systems", 1),
            "servers-systems", Map.of());

    private TestInputTopic<String, ConstraintSignal> signals;

    private TestOutputTopic<String, LayerState> states;

    private ChainQueries queries;

    @BeforeEach
    void setUp() {
        open("time-travel-test", ChainStateTopology::buildTopology, null);
        signals = topology.input(Topics.SIGNALS, ConstraintSignal.class);
        states = topology.output(Topics.CHAIN_STATE, LayerState.class);
        layers.pipeInput("semiconductor-equipment", layer("semiconductor-equipment"));
        layers.pipeInput("memory", layer("memory", "semiconductor-equipment"));
        layers.pipeInput("advanced-packaging", layer("advanced-packaging", "memory"));
        layers.pipeInput("accelerators", layer("accelerators", "memory", "advanced-packaging"));
        layers.pipeInput("servers-systems", layer("servers-systems", "accelerators"));
        companies.pipeInput("sk-hynix",
                ChainFixtures.company("sk-hynix", "SK hynix", "memory", "000660", "XKRX", "000660.KS"));
        companies.pipeInput("nvidia",
                ChainFixtures.company("nvidia", "Nvidia", "accelerators", "NVDA", "XNAS", "NVDA"));
        queries = new ChainQueries(new ChainQueries.Stores() {
            @Override
            public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
                return topology.store(name);
            }
        });
    }

    private static ChainLayer layer(String id, String... upstream) {
        return ChainFixtures.layer(id, upstream);
    }

    private static ConstraintSignal signal(String id, List<String> layers, Direction direction, int magnitude,
            Instant at) {
        return ChainFixtures.signal(id, "Headline " + id, "Body " + id, layers, direction, magnitude, at);
    }

    private void put(ConstraintSignal s) {
        signals.pipeInput(s.getId(), s);
    }

    /**
     * The definition (docs/chain-model.md), summed signal by signal: direct pressure per
     * layer as of t.
     */
    private static Map<String, Double> directByDefinition(List<ConstraintSignal> all, long t) {
        Map<String, Double> direct = new HashMap<>();
        for (String l : LAYERS) {
            direct.put(l, 0.0);
        }
        for (ConstraintSignal s : all) {
            long age = t - s.getObservedAt().toEpochMilli();
            if (age < 0 || age > 30 * H) {
                continue; // not observed by then, or forgotten
            }
            double c = (s.getDirection() == Direction.TIGHTENING ? 1 : -1) * s.getMagnitude() * Math.pow(2, -age / H);
            for (String l : new java.util.TreeSet<>(s.getLayerHints())) {
                direct.computeIfPresent(l, (k, v) -> v + c);
            }
        }
        direct.replaceAll((l, raw) -> ChainDecay.softCap(raw)); // the soft cap
        return direct;
    }

    /**
     * The live inheritance (issue 37): pressure(l) = direct(l) + 0.5 × the largest
     * positive pressure among l's suppliers (the layers one hop upstream), computed
     * upstream first ({@link #LAYERS} is in that order).
     */
    private static Map<String, Double> pressureByDefinition(List<ConstraintSignal> all, long t) {
        Map<String, Double> direct = directByDefinition(all, t);
        Map<String, Double> pressure = new HashMap<>();
        for (String l : LAYERS) {
            double tightest = 0;
            for (String up : LAYERS) {
                if (HOPS.get(up).getOrDefault(l, 0) == 1) {
                    tightest = Math.max(tightest, pressure.get(up));
                }
            }
            pressure.put(l, direct.get(l) + 0.5 * tightest);
        }
        return pressure;
    }

    @Test
    void theChainAsOfAnInstantLeavesOutLaterSignalsAndDecaysAtThatInstant() {
        ConstraintSignal early = signal("early", List.of("memory"), Direction.TIGHTENING, 2, T0);
        ConstraintSignal late = signal("late", List.of("memory"), Direction.TIGHTENING, 5,
                T0.plus(Duration.ofDays(10)));
        put(early);
        put(late);

        Map<String, LayerState> before = queries.at(T0.toEpochMilli() + 8 * DAY);
        assertThat(before.get("memory").getDirectPressure())
            .isEqualTo(ChainModel.round(2 * Math.pow(2, -8.0 / ChainDecay.HALF_LIFE_DAYS)));
        assertThat(before.get("memory").getSignalCount()).isEqualTo(1);
        assertThat(before.get("memory").getAsOf()).isEqualTo(T0.plus(Duration.ofDays(8)));
        // memory (1.82) is balanced; packaging, with no signals of its own, inherits half
        // of it (the bounded rule of issue 37; before it, only a tight layer passed any
        // on)
        assertThat(before.get("advanced-packaging").getPressure())
            .isEqualTo(ChainModel.round(Math.pow(2, -8.0 / ChainDecay.HALF_LIFE_DAYS)));
        assertThat(before.get("memory").getCauses()).extracting(c -> c.getSignalId()).containsExactly("early");

        Map<String, LayerState> after = queries.at(T0.toEpochMilli() + 10 * DAY);
        assertThat(after.get("memory").getPressure())
            .isEqualTo(ChainModel.round(ChainDecay.softCap(5 + 2 * Math.pow(2, -10.0 / ChainDecay.HALF_LIFE_DAYS))));
        assertThat(after.get("advanced-packaging").getPressure()).isEqualTo(
                ChainModel.round(ChainDecay.softCap(5 + 2 * Math.pow(2, -10.0 / ChainDecay.HALF_LIFE_DAYS)) / 2));
        assertThat(after.get("memory").getStatus()).isEqualTo(LayerStatus.CRITICAL);

        Map<String, LayerState> none = queries.at(T0.toEpochMilli() - 1);
        assertThat(none.values()).allSatisfy(s -> {
            assertThat(s.getPressure()).isZero();
            assertThat(s.getSignalCount()).isZero();
            assertThat(s.getAsOf()).isEqualTo(T0.minusMillis(1));
        });
    }

    @Test
    void aMagnitudeFiveSignalObservedNowIsAbsentTwoDaysEarlierAndWeighsFiveNow() {
        Instant now = T0.plus(Duration.ofDays(40));
        // magnitude 1 (0.90 now): with the new signal memory stays under the soft cap's
        // knee, where a signal adds its weight
        put(signal("older", List.of("memory"), Direction.TIGHTENING, 1, now.minus(Duration.ofDays(9))));
        Map<String, LayerState> withoutAt2 = queries.at(now.toEpochMilli() - 2 * DAY);
        Map<String, LayerState> withoutNow = queries.at(now.toEpochMilli());
        put(signal("now", List.of("memory"), Direction.TIGHTENING, 5, now));

        assertThat(queries.at(now.toEpochMilli() - 2 * DAY)).as("two days earlier: as if it did not exist")
            .isEqualTo(withoutAt2);
        assertThat(queries.at(now.toEpochMilli()).get("memory").getPressure() - withoutNow.get("memory").getPressure())
            .isCloseTo(5.0, within(0.00011));
    }

    @Test
    void asOfTheNewestSignalItEqualsTheLiveStateAndAtRandomInstantsTheDefinition() {
        Random random = new Random(18);
        List<ConstraintSignal> all = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            List<String> hints = new ArrayList<>();
            for (int h = 0; h <= random.nextInt(2); h++) {
                hints.add(random.nextInt(8) == 0 ? "unknown-layer" : LAYERS[random.nextInt(LAYERS.length)]);
            }
            ConstraintSignal s = signal("s" + i, hints, random.nextBoolean() ? Direction.TIGHTENING : Direction.EASING,
                    1 + random.nextInt(5), T0.plus(Duration.ofMinutes(random.nextInt(60 * 24 * 120))));
            all.add(s);
            put(s);
        }
        topology.advanceWallClockTime(ChainStateTopology.PUBLISH_INTERVAL);
        Map<String, LayerState> live = states.readKeyValuesToMap();
        long newest = all.stream().mapToLong(s -> s.getObservedAt().toEpochMilli()).max().orElseThrow();
        assertThat(queries.at(newest)).as("as of the newest signal = the live state").isEqualTo(live);

        for (int k = 0; k < 12; k++) {
            long t = T0.toEpochMilli() - 5 * DAY + (long) (random.nextDouble() * 140 * DAY);
            Map<String, LayerState> at = queries.at(t);
            Map<String, Double> direct = directByDefinition(all, t);
            Map<String, Double> pressure = pressureByDefinition(all, t);
            Map<String, Double> weekEarlier = pressureByDefinition(all, t - 7 * DAY);
            for (String l : LAYERS) {
                LayerState s = at.get(l);
                assertThat(s.getDirectPressure()).as("direct %s at %s", l, t).isCloseTo(direct.get(l), within(0.00011));
                assertThat(s.getPressure()).as("pressure %s at %s", l, t).isCloseTo(pressure.get(l), within(0.00011));
                assertThat(s.getStatus()).isEqualTo(ChainModel.status(pressure.get(l)));
                double delta = pressure.get(l) - weekEarlier.get(l);
                if (Math.abs(Math.abs(delta) - ChainModel.TREND_EPSILON) > 0.001) {
                    assertThat(s.getTrend()).as("trend %s at %s", l, t)
                        .isEqualTo(delta > ChainModel.TREND_EPSILON ? Trend.RISING
                                : delta < -ChainModel.TREND_EPSILON ? Trend.FALLING : Trend.STEADY);
                }
            }
        }
    }

    @Test
    void aLayersSignalsInAPeriodAreListedInTimeOrderAndTheOldOnesStayForTheirDay() {
        put(signal("a", List.of("memory"), Direction.TIGHTENING, 4, T0));
        put(signal("c", List.of("accelerators"), Direction.EASING, 2, T0.plus(Duration.ofDays(5))));
        put(signal("b", List.of("accelerators", "memory"), Direction.EASING, 1, T0.plus(Duration.ofDays(10))));
        // thirty half-lives and more on: the live book forgets a, b and c; the store
        // keeps them for time travel
        put(signal("d", List.of("memory"), Direction.TIGHTENING, 3, T0.plus(Duration.ofDays(FORGET_DAYS + 20))));

        assertThat(queries.signalsOn("memory", T0.toEpochMilli(), T0.toEpochMilli() + (FORGET_DAYS + 100) * DAY))
            .extracting(ConstraintSignal::getId)
            .containsExactly("a", "b", "d");
        assertThat(queries.signalsOn("memory", T0.toEpochMilli() + DAY, T0.toEpochMilli() + 100 * DAY))
            .extracting(ConstraintSignal::getId)
            .containsExactly("b");
        assertThat(queries.signalsOn("accelerators", T0.toEpochMilli(), T0.toEpochMilli() + (FORGET_DAYS + 100) * DAY))
            .extracting(ConstraintSignal::getId)
            .containsExactly("c", "b");
        assertThat(queries.at(T0.toEpochMilli() + DAY).get("memory").getDirectPressure())
            .isCloseTo(4 * Math.pow(2, -1.0 / ChainDecay.HALF_LIFE_DAYS), within(0.0001));
        assertThat(queries.at(T0.toEpochMilli() + (FORGET_DAYS + 20) * DAY).get("memory").getSignalCount())
            .isEqualTo(1);
    }

    @Test
    void signalsThirtyHalfLivesOlderThanTheInstantAreForgotten() {
        put(signal("old", List.of("memory"), Direction.TIGHTENING, 5, T0));
        assertThat(queries.at(T0.toEpochMilli() + (FORGET_DAYS - 1) * DAY).get("memory").getSignalCount()).isEqualTo(1);
        Map<String, LayerState> later = queries.at(T0.toEpochMilli() + (FORGET_DAYS + 1) * DAY);
        assertThat(later.get("memory").getSignalCount()).isZero();
        assertThat(later.get("memory").getDirectPressure()).isZero();
        assertThat(later.get("memory").getAsOf()).isEqualTo(T0.plus(Duration.ofDays(FORGET_DAYS + 1)));
    }

    @Test
    void theHistoryIsTheChainAsOfEachInstantComputedInOnePass() {
        Random random = new Random(5);
        List<ConstraintSignal> all = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            ConstraintSignal s = signal("h" + i, List.of(LAYERS[random.nextInt(LAYERS.length)]),
                    random.nextInt(3) == 0 ? Direction.EASING : Direction.TIGHTENING, 1 + random.nextInt(5),
                    T0.plus(Duration.ofHours(random.nextInt(24 * 60))));
            all.add(s);
            put(s);
        }
        long from = T0.toEpochMilli() - 3 * DAY;
        long step = 3 * DAY / 2;
        Map<Long, Map<String, LayerState>> series = new TreeMap<>();
        queries.history(from, step, 48, series::put);

        assertThat(series).hasSize(48);
        assertThat(series.keySet()).first().isEqualTo(from);
        assertThat(series.keySet()).last().isEqualTo(from + 47 * step);
        series.forEach((t, chain) -> {
            Map<String, LayerState> scratch = queries.at(t);
            Map<String, Double> pressure = pressureByDefinition(all, t);
            for (String l : LAYERS) {
                assertThat(chain.get(l).getPressure()).as("%s at %s", l, t)
                    .isCloseTo(scratch.get(l).getPressure(), within(0.00011))
                    .isCloseTo(pressure.get(l), within(0.00011));
                assertThat(chain.get(l).getSignalCount()).isEqualTo(scratch.get(l).getSignalCount());
                assertThat(chain.get(l).getAsOf().toEpochMilli()).isEqualTo(t);
            }
        });
    }

    @Test
    void aHistoryIsBoundedInPoints() {
        assertThatThrownBy(() -> queries.history(0, DAY, ChainQueries.MAX_POINTS + 1, (t, s) -> {
        })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 500");
        assertThatThrownBy(() -> queries.history(0, 0, 2, (t, s) -> {
        })).isInstanceOf(IllegalArgumentException.class);
        List<Long> seen = new ArrayList<>();
        queries.history(0, DAY, ChainQueries.MAX_POINTS, (t, s) -> seen.add(t));
        assertThat(seen).hasSize(ChainQueries.MAX_POINTS);
    }

    @Test
    void aBookCannotBeMovedBackByAdvanceTo() {
        ChainBook book = new ChainBook(List.of("memory"));
        book.put(signal("x", List.of("memory"), Direction.TIGHTENING, 1, T0));
        assertThatThrownBy(() -> book.advanceTo(T0.toEpochMilli() - 1)).isInstanceOf(IllegalArgumentException.class);
        book.advanceTo(T0.toEpochMilli() + DAY);
        book.remove("x");
        assertThat(book.asOf()).as("an emptied book stays at the instant it was advanced to")
            .isEqualTo(T0.toEpochMilli() + DAY);
    }

}
