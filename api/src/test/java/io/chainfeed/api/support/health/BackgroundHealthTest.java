package io.chainfeed.api.support.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.chainfeed.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

class BackgroundHealthTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T05:00:00Z"));

    @Test
    void answersTheNewestBackgroundCheckWithoutCheckingAgain() {
        AtomicInteger checks = new AtomicInteger();
        try (BackgroundHealth health = new BackgroundHealth("test",
                () -> Health.up().withDetail("brokers", checks.incrementAndGet()).build(), Duration.ofHours(1),
                Duration.ofHours(2), clock)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() == 1);
            Health first = health.health();
            Health second = health.health();
            assertThat(first.getStatus()).isEqualTo(Status.UP);
            assertThat(first.getDetails()).containsEntry("brokers", 1)
                .containsEntry("checkedAt", "2026-12-02T05:00:00Z");
            assertThat(second).isEqualTo(first);
            assertThat(checks).hasValue(1);
        }
    }

    @Test
    void aResultOlderThanStaleAfterIsDown() {
        AtomicInteger checks = new AtomicInteger();
        try (BackgroundHealth health = new BackgroundHealth("test", () -> {
            checks.incrementAndGet();
            return Health.up().build();
        }, Duration.ofSeconds(5), Duration.ofSeconds(10), clock)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> checks.get() == 1);
            clock.advance(Duration.ofSeconds(10));
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            clock.advance(Duration.ofMillis(1));
            Health stale = health.health();
            assertThat(stale.getStatus()).isEqualTo(Status.DOWN);
            assertThat(stale.getDetails().get("reason").toString()).contains("10001 ms");
        }
    }

    @Test
    void aCheckThatThrowsIsDownWithTheError() {
        try (BackgroundHealth health = new BackgroundHealth("test", () -> {
            throw new IllegalStateException("no broker");
        }, Duration.ofHours(1), Duration.ofHours(2), clock)) {
            Health down = health.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails().get("error").toString()).contains("no broker");
        }
    }

    @Test
    void refusesAStaleAfterNotLongerThanTheRefresh() {
        assertThatThrownBy(() -> new BackgroundHealth("test", () -> Health.up().build(), Duration.ofSeconds(5),
                Duration.ofSeconds(5), clock))
            .isInstanceOf(IllegalArgumentException.class);
    }

}
