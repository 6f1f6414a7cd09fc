package io.chainfeed.api.widget;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.readlog.LogPosition;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamStartTest {

    @Test
    void theLiveStreamStartsAPageBackOnEveryPartitionNeverBeforeTheStart() {
        LogPosition end = LogPosition.of(Map.of(0, 120L, 1, 3L, 2, 0L));
        assertThat(WidgetDataController.back(end, 5).offsets()).containsExactly(Map.entry(0, 115L), Map.entry(1, 0L),
                Map.entry(2, 0L));
        assertThat(LogPosition.parse(WidgetDataController.back(end, 5).text()).offsets())
            .isEqualTo(WidgetDataController.back(end, 5).offsets());
    }

}
