package io.chainfeed.chain;

import static io.chainfeed.chain.ChainFixtures.layer;
import static io.chainfeed.chain.ChainFixtures.signal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.SignalCause;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The bounded inheritance rules of issue 37 item 1 (docs/chain-model-prereg.md), checked
 * on small worked examples and as properties over random books.
 */
class ChainInheritanceTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    private static ConstraintSignal tight(String id, String layer, int magnitude) {
        return signal(id, id, id, List.of(layer), Direction.TIGHTENING, magnitude, T0);
    }

    /**
     * a (own 4) supplies b (no signals), b and c (own 2) supply d (no signals). Tightest
     * supplier, A = 1/2: b inherits 2, d inherits half of max(2, 2) = 1 (the tie goes to
     * b, first in id order, which passes on a's share: 1/2 × 1/2 × 4). Damped average, A
     * = 1/2: b inherits 2, d inherits 1/2 × (2 + 2) / 2 = 1, half from a through b, half
     * from c. The sum rule would give d 4/4 + 2/2 (only tight layers squeeze, so c does
     * not): 1.
     */
    @Test
    void workedExample() {
        List<ChainLayer> layers = List.of(layer("a"), layer("b", "a"), layer("c"), layer("d", "b", "c"));
        List<ConstraintSignal> signals = List.of(tight("s1", "a", 4), tight("s2", "c", 2));
        Map<String, LayerState> max = new ChainModel(layers, List.of(), Inheritance.parse("max:0.5")).compute(signals);
        assertThat(max.get("b").getSqueezeReceived()).isEqualTo(2.0);
        assertThat(max.get("d").getSqueezeReceived()).isEqualTo(1.0);
        assertThat(max.get("d").getSqueezedBy()).extracting(s -> s.getLayerId()).containsExactly("a");
        assertThat(max.get("d").getCauses()).extracting(SignalCause::getSignalId).containsExactly("s1");
        assertThat(max.get("d").getCauses().get(0).getContribution()).isEqualTo(1.0);
        Map<String, LayerState> avg = new ChainModel(layers, List.of(), Inheritance.parse("avg:0.5")).compute(signals);
        assertThat(avg.get("d").getSqueezeReceived()).isEqualTo(1.0);
        assertThat(avg.get("d").getCauses()).extracting(SignalCause::getContribution).containsExactly(0.5, 0.5);
        assertThat(avg.get("b").getPressure()).isEqualTo(2.0);
    }

    @Test
    void onlyTighteningIsInheritedAndTheDampingIsBounded() {
        List<ChainLayer> layers = List.of(layer("a"), layer("b", "a"));
        Map<String, LayerState> s = new ChainModel(layers, List.of(), Inheritance.parse("max:0.5"))
            .compute(List.of(signal("s1", "s1", "s1", List.of("a"), Direction.EASING, 4, T0)));
        assertThat(s.get("a").getPressure()).isEqualTo(-4.0);
        assertThat(s.get("b").getPressure()).isZero();
        assertThatThrownBy(() -> Inheritance.parse("max:0.6")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Inheritance.parse("max:0.5")).isEqualTo(Inheritance.LIVE);
        assertThat(Inheritance.parse("sum").rule()).isEqualTo(Inheritance.Rule.SUM);
    }

    /**
     * Over random layer graphs and random books, for both bounded rules and every damping
     * of the pre-registered grid: inherited pressure never exceeds the largest own
     * pressure of any layer upstream (zero when none is positive); a layer with no own
     * signals is never tighter than its tightest supplier (nor than zero); and a layer's
     * causes still add up to its pressure.
     */
    @Test
    void inheritanceIsBoundedOnRandomBooks() {
        Random random = new Random(37);
        int checked = 0;
        for (int book = 0; book < 300; book++) {
            int n = 3 + random.nextInt(7);
            List<ChainLayer> layers = new ArrayList<>();
            Map<String, List<String>> ups = new HashMap<>();
            for (int i = 0; i < n; i++) {
                List<String> up = new ArrayList<>();
                for (int j = 0; j < i; j++) {
                    if (random.nextInt(3) == 0) {
                        up.add("l" + j);
                    }
                }
                ups.put("l" + i, up);
                layers.add(layer("l" + i, up.toArray(String[]::new)));
            }
            List<ConstraintSignal> signals = new ArrayList<>();
            int count = random.nextInt(16);
            for (int k = 0; k < count; k++) {
                List<String> named = new ArrayList<>(List.of("l" + random.nextInt(n)));
                if (random.nextInt(4) == 0) {
                    String other = "l" + random.nextInt(n);
                    if (!named.contains(other)) {
                        named.add(other);
                    }
                }
                signals.add(signal("s" + k, "headline " + k, "body", named,
                        random.nextInt(3) == 0 ? Direction.EASING : Direction.TIGHTENING, 1 + random.nextInt(5),
                        T0.plusSeconds(86_400L * random.nextInt(300))));
            }
            for (String v : List.of("max:0.25", "max:0.375", "max:0.5", "avg:0.25", "avg:0.375", "avg:0.5")) {
                Map<String, LayerState> s = new ChainModel(layers, List.of(), Inheritance.parse(v)).compute(signals);
                for (String id : ups.keySet()) {
                    LayerState l = s.get(id);
                    double largestUpstream = 0;
                    for (String u : upstreamOf(id, ups)) {
                        largestUpstream = Math.max(largestUpstream, s.get(u).getDirectPressure());
                    }
                    assertThat(l.getSqueezeReceived()).as("%s %s book %d", v, id, book)
                        .isLessThanOrEqualTo(largestUpstream + 1e-3);
                    if (l.getSignalCount() == 0) {
                        double tightest = 0;
                        for (String u : ups.get(id)) {
                            tightest = Math.max(tightest, s.get(u).getPressure());
                        }
                        assertThat(l.getPressure()).as("%s %s book %d, no own signals", v, id, book)
                            .isLessThanOrEqualTo(tightest + 1e-3);
                    }
                    double listed = l.getCauses().stream().mapToDouble(SignalCause::getContribution).sum();
                    assertThat(listed + l.getOtherCauseTotal()).as("%s %s causes", v, id)
                        .isCloseTo(l.getPressure(), within(1e-2));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(5_000);
    }

    private static Set<String> upstreamOf(String id, Map<String, List<String>> ups) {
        Set<String> seen = new HashSet<>();
        List<String> todo = new ArrayList<>(ups.get(id));
        while (!todo.isEmpty()) {
            String u = todo.remove(todo.size() - 1);
            if (seen.add(u)) {
                todo.addAll(ups.get(u));
            }
        }
        return seen;
    }

}
