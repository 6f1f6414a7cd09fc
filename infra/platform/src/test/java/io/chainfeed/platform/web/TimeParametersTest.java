package io.chainfeed.platform.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TimeParametersTest {

    @ParameterizedTest
    @ValueSource(strings = { "1970-01-01T00:00:00Z", "2026-11-30T12:00:00+02:00", "9999-12-31T23:59:59.999Z" })
    void instantsInTheRangeAreRead(String text) {
        Instant t = TimeParameters.instant("asOf", text);
        assertThat(t).isBetween(TimeParameters.EARLIEST, TimeParameters.LATEST);
    }

    @ParameterizedTest
    @ValueSource(strings = { "1969-12-31T00:00:00Z", "1969-12-31T23:59:59.999Z", "+10000-01-01T00:00:00Z",
            "-0001-01-01T00:00:00Z", "+1000000000-01-01T00:00:00Z" })
    void instantsOutsideTheRangeNameTheParameterAndTheRange(String text) {
        assertThatThrownBy(() -> TimeParameters.instant("asOf", text)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("asOf must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z");
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "yesterday", "2026-02-30T00:00:00Z", "2026-11-30" })
    void textThatIsNoInstantIsRefused(String text) {
        assertThatThrownBy(() -> TimeParameters.instant("from", text)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("from must be an RFC 3339 instant");
    }

    @ParameterizedTest
    @ValueSource(strings = { "PT0S", "-PT6H", "PT0.0001S", "PT9223372036854775807S", "P106751991167300D" })
    void durationsThatAreNotPositiveOrLongerThanTheRangeAreRefused(String text) {
        assertThatThrownBy(() -> TimeParameters.positiveDuration("step", text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("step must be at");
    }

    @ParameterizedTest
    @ValueSource(strings = { "PT0.001S", "PT6H", "P1D", "P2932896D" })
    void positiveDurationsWithinTheRangeAreRead(String text) {
        assertThat(TimeParameters.positiveDuration("step", text)).isPositive()
            .isLessThanOrEqualTo(TimeParameters.LONGEST);
    }

}
