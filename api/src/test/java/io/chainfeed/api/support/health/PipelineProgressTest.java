package io.chainfeed.api.support.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link PipelineHealthIndicator.Progress}: a backlog being worked off is not a stall;
 * one that sits is.
 */
class PipelineProgressTest {

    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aBacklogWithoutProgressStallsAfterTheLimit() {
        PipelineHealthIndicator.Progress p = new PipelineHealthIndicator.Progress(Duration.ofSeconds(60));
        assertThat(p.observe(0, 100, t0)).isZero();
        assertThat(p.observe(50, 100, t0.plusSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        Duration stalled = p.observe(50, 100, t0.plusSeconds(70));
        assertThat(stalled).isEqualTo(Duration.ofSeconds(70));
        assertThat(p.stalled(stalled)).isTrue();
    }

    @Test
    void progressResetsTheClock() {
        PipelineHealthIndicator.Progress p = new PipelineHealthIndicator.Progress(Duration.ofSeconds(60));
        p.observe(50, 100, t0);
        assertThat(p.observe(30, 120, t0.plusSeconds(50))).isZero();
        Duration d = p.observe(30, 120, t0.plusSeconds(100));
        assertThat(d).isEqualTo(Duration.ofSeconds(50));
        assertThat(p.stalled(d)).isFalse();
        assertThat(p.observe(0, 120, t0.plusSeconds(500))).isZero();
    }

}
