package io.chainfeed.api.widget;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PartnerRateLimitsTest {
    @Test
    void aKeyGetsItsRatePerMinuteThenAWaitInWholeSeconds() {
        PartnerRateLimits limits = new PartnerRateLimits();
        for (int i = 0; i < 3; i++) {
            assertThat(limits.tryTake("key-a", 3)).as("request %d", i + 1).isEmpty();
        }
        OptionalLong wait = limits.tryTake("key-a", 3);
        // One token comes back every 20 s at 3 a minute.
        assertThat(wait).isPresent();
        assertThat(wait.getAsLong()).isBetween(1L, 20L);
    }

    @Test
    void keysAreLimitedApartAndARateChangeStartsAFullBucket() {
        PartnerRateLimits limits = new PartnerRateLimits();
        assertThat(limits.tryTake("key-a", 1)).isEmpty();
        assertThat(limits.tryTake("key-a", 1)).isPresent();
        assertThat(limits.tryTake("key-b", 1)).as("another key has its own bucket").isEmpty();
        assertThat(limits.tryTake("key-a", 2)).as("new rate, new bucket").isEmpty();
        limits.forget("key-b");
        assertThat(limits.tryTake("key-b", 1)).as("a forgotten key starts full").isEmpty();
    }
}
