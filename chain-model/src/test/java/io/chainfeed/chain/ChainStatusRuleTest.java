package io.chainfeed.chain;

import static io.chainfeed.chain.ChainFixtures.layer;
import static io.chainfeed.chain.ChainFixtures.signal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SignalCause;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The status rules of issue 37 item 2 (docs/chain-model-prereg.md): coverage
 * normalisation, the layer's normal (fixed base period or trailing window) and thresholds
 * as percentiles or z-scores of it, on examples worked by hand.
 */
class ChainStatusRuleTest {

    private static final Instant T0 = Instant.parse("2024-03-01T00:00:00Z");

    private static final double[] TEN = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

    @Test
    void parsesEveryPreRegisteredVariantAndRefusesOthers() {
        for (String n : List.of("none", "k1", "k3")) {
            for (String m : List.of("fixed", "trailing")) {
                for (String t : List.of("p20-70-95", "p25-75-95", "p30-80-97", "z0.5-2", "z1-2")) {
                    String v = n + "/" + m + "/" + t;
                    assertThat(StatusRule.parse(v)).hasToString(v);
                }
            }
        }
        assertThat(StatusRule.parse("absolute")).isEqualTo(StatusRule.ABSOLUTE).hasToString("absolute");
        assertThat(StatusRule.parse("k1/fixed/p25-75-95").coverageK()).isEqualTo(1.0);
        assertThat(StatusRule.parse("none/fixed/p25-75-95").normalised()).isFalse();
        assertThatThrownBy(() -> StatusRule.parse("k0/fixed/p25-75-95")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StatusRule.parse("none/absolute/p25-75-95"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StatusRule.parse("none/fixed/q1")).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Ten samples 0..9, thresholds 20/70/95 percent: q is the share of samples strictly
     * below the pressure.
     */
    @Test
    void percentilesOfTheLayersOwnNormal() {
        StatusRule r = StatusRule.parse("none/fixed/p20-70-95");
        assertThat(r.status(1, TEN)).as("q 0.1").isEqualTo(LayerStatus.LOOSE);
        assertThat(r.status(1.5, TEN)).as("q 0.2").isEqualTo(LayerStatus.BALANCED);
        assertThat(r.status(6.5, TEN)).as("q 0.7").isEqualTo(LayerStatus.TIGHT);
        assertThat(r.status(9, TEN)).as("q 0.9").isEqualTo(LayerStatus.TIGHT);
        assertThat(r.status(9.5, TEN)).as("q 1.0").isEqualTo(LayerStatus.CRITICAL);
        assertThat(r.status(100, new double[0])).as("no normal yet").isEqualTo(LayerStatus.BALANCED);
        assertThat(r.status(100, null)).isEqualTo(LayerStatus.BALANCED);
        double[] shifted = new double[10];
        for (int i = 0; i < 10; i++) {
            shifted[i] = TEN[i] + 20;
        }
        assertThat(r.status(9.5, shifted)).as("the same pressure against a busier layer's normal")
            .isEqualTo(LayerStatus.LOOSE);
    }

    /** Mean 0, sd 1 (population); and a flat normal, whose sd is floored at 0.25. */
    @Test
    void zScoresWithAFlooredSd() {
        StatusRule z1 = StatusRule.parse("none/trailing/z1-2");
        double[] plusMinusOne = { -1, 1 };
        assertThat(z1.status(1, plusMinusOne)).isEqualTo(LayerStatus.TIGHT);
        assertThat(z1.status(0.9, plusMinusOne)).isEqualTo(LayerStatus.BALANCED);
        assertThat(z1.status(-1, plusMinusOne)).isEqualTo(LayerStatus.LOOSE);
        assertThat(z1.status(2, plusMinusOne)).isEqualTo(LayerStatus.CRITICAL);
        StatusRule z05 = StatusRule.parse("none/trailing/z0.5-2");
        double[] flat = { 0, 0, 0, 0 };
        assertThat(z05.status(0.125, flat)).as("z 0.5").isEqualTo(LayerStatus.TIGHT);
        assertThat(z05.status(0.1, flat)).as("z 0.4").isEqualTo(LayerStatus.BALANCED);
        assertThat(z05.status(-0.125, flat)).as("z -0.5").isEqualTo(LayerStatus.LOOSE);
        assertThat(z05.status(0.5, flat)).as("z 2").isEqualTo(LayerStatus.CRITICAL);
    }

    @Test
    void absoluteThresholdsAreTodays() {
        for (double p : new double[] { -1.0, -0.99, 0, 2.99, 3, 5.99, 6, 9 }) {
            assertThat(StatusRule.ABSOLUTE.status(p, null)).isEqualTo(ChainModel.status(p));
        }
    }

    /**
     * One tightening signal of magnitude 4, fresh: raw 4, coverage 1, so own pressure 4 /
     * (1 + 1) = 2 at k = 1 and 4 / (3 + 1) = 1 at k = 3; two such signals on another
     * layer, 8 / (1 + 2). Causes still add up to the pressure.
     */
    @Test
    void coverageNormalisation() {
        List<ChainLayer> layers = List.of(layer("a"), layer("b"));
        List<ConstraintSignal> signals = List.of(signal("s1", "s1", "s1", List.of("a"), Direction.TIGHTENING, 4, T0),
                signal("s2", "s2", "s2", List.of("b"), Direction.TIGHTENING, 4, T0),
                signal("s3", "s3", "s3", List.of("b"), Direction.TIGHTENING, 4, T0));
        Map<String, LayerState> k1 = model("k1/fixed/p25-75-95").compute(signals);
        assertThat(k1.get("a").getDirectPressure()).isEqualTo(2.0);
        assertThat(k1.get("a").getRawDirectPressure()).isEqualTo(4.0);
        assertThat(k1.get("a").getCauses()).extracting(SignalCause::getContribution).containsExactly(2.0);
        assertThat(k1.get("b").getDirectPressure()).isEqualTo(ChainModel.round(8.0 / 3));
        assertThat(model("k3/fixed/p25-75-95").compute(signals).get("a").getDirectPressure()).isEqualTo(1.0);
        assertThat(model("none/fixed/p25-75-95").compute(signals).get("a").getDirectPressure()).isEqualTo(4.0);
        // Sixty days later: raw 2, coverage 1/2.
        Instant later = T0.plus(Duration.ofDays(60));
        Map<String, LayerState> aged = model("k1/fixed/p25-75-95").statesAt(signals, later.toEpochMilli());
        assertThat(aged.get("a").getDirectPressure()).isEqualTo(ChainModel.round(2 / 1.5));
    }

    /**
     * The weekly samples are the pressures {@link ChainModel#statesAt} gives at the end
     * of each Sunday (UTC), from the first signal's week on; the fixed normal is the
     * samples of 2023-2024 whatever the instant, the trailing one those of the 730 days
     * up to it.
     */
    @Test
    void weeklySamplesAndNormals() {
        List<ChainLayer> layers = List.of(layer("a"), layer("b", "a"));
        Random random = new Random(37);
        List<ConstraintSignal> signals = new ArrayList<>();
        Instant start = Instant.parse("2023-02-15T12:00:00Z");
        signals.add(signal("first", "first", "first", List.of("a"), Direction.TIGHTENING, 2, start));
        for (int i = 0; i < 60; i++) {
            Instant at = start.plus(Duration.ofHours(random.nextInt(24 * 900)));
            signals.add(signal("s" + i, "h" + i, "b" + i, List.of(random.nextBoolean() ? "a" : "b"),
                    random.nextInt(3) == 0 ? Direction.EASING : Direction.TIGHTENING, 1 + random.nextInt(5), at));
        }
        for (String v : List.of("none/fixed/p25-75-95", "k1/trailing/z1-2")) {
            ChainModel model = new ChainModel(layers, List.of(), Inheritance.parse("max:0.5"), StatusRule.parse(v));
            long until = Instant.parse("2025-09-30T23:59:59.999Z").toEpochMilli();
            ChainModel.Weekly weekly = model.weekly(signals, until);
            assertThat(Instant.ofEpochMilli(weekly.at()[0])).isEqualTo(Instant.parse("2023-02-19T23:59:59.999Z"));
            for (int i = 0; i < weekly.at().length; i++) {
                Instant t = Instant.ofEpochMilli(weekly.at()[i]);
                assertThat(t.atZone(ZoneOffset.UTC).getDayOfWeek()).isEqualTo(DayOfWeek.SUNDAY);
                if (i % 10 == 0) {
                    Map<String, LayerState> s = model.statesAt(signals, weekly.at()[i]);
                    for (String l : List.of("a", "b")) {
                        assertThat(weekly.pressure().get(l)[i]).as(v + " " + l + " " + t)
                            .isEqualTo(s.get(l).getPressure());
                    }
                }
            }
            long early = Instant.parse("2023-06-30T23:59:59.999Z").toEpochMilli();
            double[] normal = model.normal(weekly, early).get("a");
            if (v.contains("fixed")) {
                // 2023-02-19 .. 2024-12-29: 98 Sundays, later ones included.
                assertThat(normal).hasSize(98);
                assertThat(model.normal(weekly, until).get("a")).isEqualTo(normal);
            }
            else {
                // 2023-02-19 .. 2023-06-25: 19 Sundays, none after the instant.
                assertThat(normal).hasSize(19);
                // The 730 days after 2023-10-01T23:59:59.999 (a Sunday's sample, left
                // out): 2023-10-08 .. 2025-09-28, 104 Sundays.
                assertThat(model.normal(weekly, until).get("a")).hasSize(104);
            }
        }
    }

    private static ChainModel model(String rule) {
        return new ChainModel(List.of(layer("a"), layer("b")), List.of(), Inheritance.parse("max:0.5"),
                StatusRule.parse(rule));
    }

}
