package io.chainfeed.api.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.web.TooManyRequestsException;
import io.chainfeed.avro.ApiKeyKind;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class KeyRateLimitsTest {
    @Test
    void aKeyGetsItsRatePerMinuteThenAWaitInWholeSeconds() {
        KeyRateLimits limits = new KeyRateLimits();
        for (int i = 0; i < 3; i++) {
            assertThat(limits.tryTake("key-a", 3)).as("request %d", i + 1).isEmpty();
        }
        OptionalLong wait = limits.tryTake("key-a", 3);
        // One token comes back every 20 s at 3 a minute.
        assertThat(wait).isPresent();
        assertThat(wait.getAsLong()).isBetween(1L, 20L);
    }

    @Test
    void takeRefusesOverTheRateWithTheWaitForRetryAfter() {
        KeyRateLimits limits = new KeyRateLimits();
        ApiPrincipal reader = new ApiPrincipal("aaaabbbbcccc", ApiKeyKind.READER, "reader", List.of(), 2, Instant.EPOCH);
        limits.take(reader);
        limits.take(reader);
        assertThatThrownBy(() -> limits.take(reader)).isInstanceOfSatisfying(TooManyRequestsException.class,
                e -> assertThat(e.retryAfterSeconds()).as("a token every 30 s at 2 a minute").isBetween(1L, 30L))
                .hasMessageStartingWith("this key allows 2 requests a minute; try again in ");
        // the same bucket as tryTake: the key id is what counts
        assertThat(limits.tryTake("aaaabbbbcccc", 2)).isPresent();
    }

    @Test
    void keysAreLimitedApartAndARateChangeStartsAFullBucket() {
        KeyRateLimits limits = new KeyRateLimits();
        assertThat(limits.tryTake("key-a", 1)).isEmpty();
        assertThat(limits.tryTake("key-a", 1)).isPresent();
        assertThat(limits.tryTake("key-b", 1)).as("another key has its own bucket").isEmpty();
        assertThat(limits.tryTake("key-a", 2)).as("new rate, new bucket").isEmpty();
        limits.forget("key-b");
        assertThat(limits.tryTake("key-b", 1)).as("a forgotten key starts full").isEmpty();
    }
}
