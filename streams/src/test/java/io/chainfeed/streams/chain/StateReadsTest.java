package io.chainfeed.streams.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.LayerStatus;
import org.junit.jupiter.api.Test;

class StateReadsTest {

    @Test
    void aChangeIsAnnouncedOnlyOnceThePressureIsAMarginPastTheThreshold() {
        assertThat(StateReads.announce(3.0, LayerStatus.BALANCED)).isEqualTo(LayerStatus.BALANCED);
        assertThat(StateReads.announce(3.2499, LayerStatus.BALANCED)).isEqualTo(LayerStatus.BALANCED);
        assertThat(StateReads.announce(3.25, LayerStatus.BALANCED)).isEqualTo(LayerStatus.TIGHT);
        assertThat(StateReads.announce(2.9, LayerStatus.TIGHT)).isEqualTo(LayerStatus.TIGHT);
        assertThat(StateReads.announce(2.75, LayerStatus.TIGHT)).isEqualTo(LayerStatus.TIGHT);
        assertThat(StateReads.announce(2.7499, LayerStatus.TIGHT)).isEqualTo(LayerStatus.BALANCED);
        // a jump over two thresholds is one change
        assertThat(StateReads.announce(7.0, LayerStatus.BALANCED)).isEqualTo(LayerStatus.CRITICAL);
        assertThat(StateReads.announce(6.1, LayerStatus.BALANCED)).isEqualTo(LayerStatus.TIGHT);
        assertThat(StateReads.announce(-1.25, LayerStatus.BALANCED)).isEqualTo(LayerStatus.LOOSE);
        assertThat(StateReads.announce(-1.1, LayerStatus.BALANCED)).isEqualTo(LayerStatus.BALANCED);
        assertThat(StateReads.announce(-0.76, LayerStatus.LOOSE)).isEqualTo(LayerStatus.LOOSE);
        assertThat(StateReads.announce(-0.7, LayerStatus.LOOSE)).isEqualTo(LayerStatus.BALANCED);
        assertThat(StateReads.announce(0.0, LayerStatus.CRITICAL)).isEqualTo(LayerStatus.BALANCED);
    }

    @Test
    void aWobbleAroundAThresholdAnnouncesOneChange() {
        LayerStatus announced = LayerStatus.BALANCED;
        int changes = 0;
        for (int i = 0; i < 200; i++) {
            double pressure = 3.0 + 0.24 * Math.sin(i) + (i == 100 ? 0.6 : 0);
            LayerStatus next = StateReads.announce(pressure, announced);
            if (next != announced) {
                changes++;
                announced = next;
            }
        }
        assertThat(changes).isEqualTo(1);
        assertThat(announced).isEqualTo(LayerStatus.TIGHT);
    }

    @Test
    void theAnnouncedStateRoundTripsThroughItsStoreForm() {
        StateReads.Announced a = new StateReads.Announced(LayerStatus.CRITICAL, 12);
        assertThat(StateReads.Announced.parse(a.encode())).isEqualTo(a);
        assertThat(StateReads.Announced.parse(null)).isEqualTo(StateReads.Announced.NONE);
        assertThatThrownBy(() -> StateReads.Announced.parse("TIGHT")).isInstanceOf(IllegalArgumentException.class);
        assertThat(StateReads.readId("memory", 3)).isEqualTo("state:memory:3");
    }

}
