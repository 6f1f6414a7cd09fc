package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.TestSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    private final RetrySchedule defaults = TestSettings.bind("chainfeed.webhooks", WebhookProperties.class)
        .retrySchedule();

    @Test
    void ceilingsGrowExponentiallyUpToTheCap() {
        assertThat(defaults.maxAttempts()).isEqualTo(10);
        assertThat(defaults.ceiling(2)).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.ceiling(3)).isEqualTo(Duration.ofSeconds(15));
        assertThat(defaults.ceiling(4)).isEqualTo(Duration.ofSeconds(45));
        assertThat(defaults.ceiling(7)).isEqualTo(Duration.ofSeconds(1215));
        assertThat(defaults.ceiling(9)).isEqualTo(Duration.ofSeconds(10935));
        assertThat(defaults.ceiling(10)).isEqualTo(Duration.ofHours(6));
        Duration total = Duration.ZERO;
        for (int n = 2; n <= defaults.maxAttempts(); n++) {
            total = total.plus(defaults.ceiling(n));
        }
        // The worst case spans about 10.5 hours; full jitter halves it on average.
        assertThat(total).isEqualTo(Duration.ofSeconds(38000));
        assertThatThrownBy(() -> defaults.ceiling(1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fullJitterSpreadsDelaysOverTheWholeRange() {
        SplittableRandom random = new SplittableRandom(42);
        long min = Long.MAX_VALUE;
        long max = 0;
        double sum = 0;
        int n = 5000;
        for (int i = 0; i < n; i++) {
            long d = defaults.delay(4, Optional.empty(), random).toMillis();
            assertThat(d).isBetween(0L, 45_000L);
            min = Math.min(min, d);
            max = Math.max(max, d);
            sum += d;
        }
        assertThat(min).isLessThan(1_000);
        assertThat(max).isGreaterThan(44_000);
        assertThat(sum / n).isBetween(20_000.0, 25_000.0);
    }

    @Test
    void retryAfterIsAFloorCappedAtMaxRetryAfter() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200; i++) {
            assertThat(defaults.delay(2, Optional.of(Duration.ofSeconds(30)), random))
                .isEqualTo(Duration.ofSeconds(30));
        }
        // a Retry-After shorter than the jittered draw leaves the draw as it is
        Duration drawn = defaults.delay(9, Optional.empty(), new SplittableRandom(1));
        assertThat(drawn).isGreaterThan(Duration.ofSeconds(1));
        assertThat(defaults.delay(9, Optional.of(Duration.ofSeconds(1)), new SplittableRandom(1))).isEqualTo(drawn);
        assertThat(defaults.delay(2, Optional.of(Duration.ofDays(30)), random)).isEqualTo(Duration.ofHours(24));
    }

    @Test
    void countsAttempts() {
        assertThat(defaults.allowsAnother(1)).isTrue();
        assertThat(defaults.allowsAnother(9)).isTrue();
        assertThat(defaults.allowsAnother(10)).isFalse();
    }

    @Test
    void readsRetryAfterInBothForms() {
        Instant now = Instant.parse("2026-03-01T12:00:00Z");
        assertThat(RetryAfter.parse("120", now)).hasValue(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse(" 0 ", now)).hasValue(Duration.ZERO);
        assertThat(RetryAfter.parse("Sun, 01 Mar 2026 12:01:30 GMT", now)).hasValue(Duration.ofSeconds(90));
        assertThat(RetryAfter.parse("Sun, 01 Mar 2026 11:00:00 GMT", now)).hasValue(Duration.ZERO);
        assertThat(RetryAfter.parse("99999999999999", now)).hasValueSatisfying(d -> assertThat(d).isPositive());
        assertThat(RetryAfter.parse("soon", now)).isEmpty();
        assertThat(RetryAfter.parse("-5", now)).isEmpty();
        assertThat(RetryAfter.parse(null, now)).isEmpty();
    }

}
