package io.chainfeed.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ChainDecayTest {

    @Test
    void theSoftCapLeavesPressureUpToTheKneeAsItIs() {
        for (double x = -ChainDecay.SOFT_CAP_KNEE; x <= ChainDecay.SOFT_CAP_KNEE; x += 0.37) {
            assertThat(ChainDecay.softCap(x)).isEqualTo(x);
            assertThat(ChainDecay.softCapScale(x)).isEqualTo(1.0);
        }
    }

    @Test
    void theSoftCapBendsSmoothlyTowardsItsBoundAndIsOdd() {
        assertThat(ChainDecay.softCap(7)).isCloseTo(6 + 4 * Math.tanh(0.25), within(1e-12));
        assertThat(ChainDecay.softCap(-7)).isEqualTo(-ChainDecay.softCap(7));
        double previous = ChainDecay.softCap(ChainDecay.SOFT_CAP_KNEE);
        for (double x = ChainDecay.SOFT_CAP_KNEE + 0.5; x < 60; x += 0.5) {
            double y = ChainDecay.softCap(x);
            assertThat(y).isGreaterThan(previous).isLessThan(ChainDecay.SOFT_CAP);
            previous = y;
        }
        assertThat(ChainDecay.softCap(6543)).isLessThanOrEqualTo(ChainDecay.SOFT_CAP);
        // slope 1 at the knee: no kink
        double h = 1e-6;
        assertThat(
                (ChainDecay.softCap(ChainDecay.SOFT_CAP_KNEE + h) - ChainDecay.softCap(ChainDecay.SOFT_CAP_KNEE)) / h)
            .isCloseTo(1.0, within(1e-5));
        assertThat(ChainDecay.softCapScale(15) * 15).isCloseTo(ChainDecay.softCap(15), within(1e-12));
    }

}
