package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link RestartPolicy}: doubling backoff with a cap, a crash-loop limit over a sliding
 * window.
 */
class RestartPolicyTest {

    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void backsOffExponentiallyUpToTheCapAndGivesUpOnACrashLoop() {
        RestartPolicy.Tracker t = new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(5), 4,
                Duration.ofMinutes(10))
            .tracker();
        assertThat(t.onCrash(t0)).contains(Duration.ofSeconds(1));
        assertThat(t.onCrash(t0.plusSeconds(10))).contains(Duration.ofSeconds(2));
        assertThat(t.onCrash(t0.plusSeconds(20))).contains(Duration.ofSeconds(4));
        assertThat(t.onCrash(t0.plusSeconds(30))).contains(Duration.ofSeconds(5));
        assertThat(t.onCrash(t0.plusSeconds(40))).as("fifth crash in 10 minutes: a crash loop").isEmpty();
        assertThat(t.recentCrashes()).isEqualTo(5);
    }

    @Test
    void crashesOutsideTheWindowAreForgotten() {
        RestartPolicy.Tracker t = new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30), 2,
                Duration.ofMinutes(1))
            .tracker();
        t.onCrash(t0);
        t.onCrash(t0.plusSeconds(30));
        assertThat(t.onCrash(t0.plusSeconds(80))).as("only the crash at +30 s is still inside the window")
            .contains(Duration.ofSeconds(2));
        t.reset();
        assertThat(t.onCrash(t0.plusSeconds(81))).contains(Duration.ofSeconds(1));
    }

    @Test
    void refusesInconsistentSettings() {
        assertThatThrownBy(
                () -> new RestartPolicy(Duration.ofSeconds(5), Duration.ofSeconds(1), 3, Duration.ofMinutes(1)))
            .isInstanceOf(IllegalArgumentException.class);
    }

}
