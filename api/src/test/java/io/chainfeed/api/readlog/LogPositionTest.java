package io.chainfeed.api.readlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LogPositionTest {

    @Test
    void textFormRoundTripsInPartitionOrder() {
        LogPosition p = LogPosition.of(Map.of(2, 22L, 0, 15L, 1, 7L));
        assertThat(p.text()).isEqualTo("0:15,1:7,2:22");
        assertThat(LogPosition.parse("0:15,1:7,2:22")).isEqualTo(p);
        assertThat(LogPosition.parse("2:22,0:15,1:7")).isEqualTo(p);
        assertThat(LogPosition.parse(p.text()).text()).isEqualTo(p.text());
        assertThat(p.toString()).isEqualTo(p.text());
        assertThat(p.partitionLimit()).isEqualTo(3);
    }

    @Test
    void aPartitionNotNamedIsReadFromItsBeginning() {
        LogPosition p = LogPosition.parse("1:9");
        assertThat(p.next(0)).isZero();
        assertThat(p.names(0)).isFalse();
        assertThat(p.next(1)).isEqualTo(9);
        assertThat(p.names(1)).isTrue();
        assertThat(p.next(7)).isZero();
        assertThat(p.offsets()).containsExactly(Map.entry(1, 9L));
        assertThat(LogPosition.start().text()).isEmpty();
        assertThat(LogPosition.start().partitionLimit()).isZero();
    }

    @Test
    void equalWhenTheSamePartitionsHaveTheSameOffsets() {
        LogPosition p = LogPosition.parse("0:15,1:7,2:22");
        assertThat(LogPosition.ofArray(new long[] { 15, 7, 22 })).isEqualTo(p).hasSameHashCodeAs(p);
        assertThat(LogPosition.ofArray(new long[] { 15, 7, 23 })).isNotEqualTo(p);
        assertThat(LogPosition.parse("0:15,1:7")).isNotEqualTo(p);
        assertThat(p).isNotEqualTo(LogPosition.parse("0:15,1:7"));
        assertThat(LogPosition.parse("1:9")).isEqualTo(LogPosition.of(Map.of(1, 9L)))
            .isNotEqualTo(LogPosition.parse("0:0,1:9"));
        assertThat(LogPosition.start()).isEqualTo(LogPosition.of(Map.of())).isNotEqualTo(p);
    }

    @Test
    void largestOffsetsParse() {
        assertThat(LogPosition.parse("0:" + Long.MAX_VALUE).next(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(LogPosition.parse("1023:0").partitionLimit()).isEqualTo(1024);
    }

    @Test
    void atOrPastComparesEveryPartition() {
        LogPosition a = LogPosition.parse("0:5,1:5,2:5");
        assertThat(a.atOrPast(LogPosition.parse("0:5,1:5,2:5"))).isTrue();
        assertThat(a.atOrPast(LogPosition.parse("0:4,1:5"))).isTrue();
        assertThat(a.atOrPast(LogPosition.parse("0:5,1:6,2:5"))).isFalse();
        assertThat(a.atOrPast(LogPosition.parse("3:1"))).isFalse();
        assertThat(a.atOrPast(LogPosition.start())).isTrue();
        assertThat(LogPosition.start().atOrPast(a)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "0", "0:", ":1", "0:1,", ",0:1", "0:1;1:2", "0:-1", "-1:0", "0:1,0:2", "a:1", "0:1 ",
            " 0:1", "0:1\n", "0:99999999999999999999", "0:9223372036854775808", "1024:0", "0::1", "0:1:2", "0:1,,1:2",
            "０:1" })
    void malformedIdsAreRefusedWithTheirPosition(String text) {
        assertThatThrownBy(() -> LogPosition.parse(text)).isInstanceOf(InvalidEventIdException.class)
            .satisfies(e -> assertThat(((InvalidEventIdException) e).type()).isEqualTo("invalid-event-id"))
            .satisfies(e -> assertThat(e.getMessage()).matches(text.isEmpty() ? ".*empty.*" : ".*position \\d+.*"));
    }

    @Test
    void theFaultIsNamedWhereItIs() {
        assertThatThrownBy(() -> LogPosition.parse("0:15,1:x")).hasMessageContaining("position 8")
            .hasMessageContaining("expected an offset")
            .hasMessageContaining("'x'");
        assertThatThrownBy(() -> LogPosition.parse("0:1,0:2")).hasMessageContaining("position 5")
            .hasMessageContaining("named twice");
        assertThatThrownBy(() -> LogPosition.parse("0:1\u0000")).hasMessageContaining("\\u0000");
    }

    @Test
    void overlongIdsAreRefusedBeforeParsing() {
        String text = "0:1," + "1:1".repeat(2000);
        assertThatThrownBy(() -> LogPosition.parse(text)).isInstanceOf(InvalidEventIdException.class)
            .hasMessageContaining("at most " + LogPosition.MAX_TEXT_LENGTH);
    }

    @Test
    void badPositionsCannotBeBuilt() {
        assertThatThrownBy(() -> LogPosition.of(Map.of(0, -1L))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LogPosition.of(Map.of(-1, 0L))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LogPosition.ofArray(new long[] { 1, -2 }))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ofArrayCopies() {
        long[] next = { 1, 2 };
        LogPosition p = LogPosition.ofArray(next);
        next[0] = 99;
        assertThat(p.next(0)).isEqualTo(1);
    }

}
