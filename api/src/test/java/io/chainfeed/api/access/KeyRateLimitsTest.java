package io.chainfeed.api.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.support.problem.TooManyRequestsException;
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
        ApiPrincipal reader = new ApiPrincipal("aaaabbbbcccc", ApiKeyKind.READER, "reader", List.of(), 2,
                Instant.EPOCH);
        limits.take(reader);
        limits.take(reader);
        assertThatThrownBy(() -> limits.take(reader))
            .isInstanceOfSatisfying(TooManyRequestsException.class,
                    e -> assertThat(e.retryAfterSeconds()).as("a token every 30 s at 2 a minute").isBetween(1L, 30L))
            .hasMessageStartingWith("this key allows 2 requests a minute; try again in ");
        // the same bucket as tryTake: the key id is what counts
        assertThat(limits.tryTake("aaaabbbbcccc", 2)).isPresent();
    }

    @Test
    void takeSaysOnTheResponseWhatIsLeft() {
        KeyRateLimits limits = new KeyRateLimits();
        ApiPrincipal reader = new ApiPrincipal("headerkey001", ApiKeyKind.READER, "reader", List.of(), 10,
                Instant.EPOCH);
        var response = new org.springframework.mock.web.MockHttpServletResponse();
        org.springframework.web.context.request.RequestContextHolder
            .setRequestAttributes(new org.springframework.web.context.request.ServletRequestAttributes(
                    new org.springframework.mock.web.MockHttpServletRequest(), response));
        try {
            limits.take(reader);
            limits.take(reader);
        }
        finally {
            org.springframework.web.context.request.RequestContextHolder.resetRequestAttributes();
        }
        assertThat(response.getHeader("RateLimit-Policy")).isEqualTo("\"key\";q=10;w=60");
        // two tokens to refill at one every 6 s
        assertThat(response.getHeader("RateLimit")).isEqualTo("\"key\";r=8;t=12");
        // the draft-10 pair alone: not the older RateLimit-Limit/-Remaining/-Reset trio
        assertThat(response.getHeaderNames()).containsExactlyInAnyOrder("RateLimit-Policy", "RateLimit");
    }

    @Test
    void aPartnerKeyAlsoHasADailyQuotaAndAReaderKeyDoesNot() {
        KeyRateLimits limits = new KeyRateLimits(3);
        ApiPrincipal partner = new ApiPrincipal("partnerkey01", ApiKeyKind.PARTNER, "partner",
                List.of("https://partner.example"), 1_000, Instant.EPOCH);
        for (int i = 0; i < 3; i++) {
            limits.take(partner);
        }
        assertThatThrownBy(() -> limits.take(partner))
            .isInstanceOfSatisfying(TooManyRequestsException.class,
                    e -> assertThat(e.retryAfterSeconds()).as("a token every 8 h at 3 a day").isGreaterThan(60))
            .hasMessageContaining("1000 requests a minute and 3 a day");
        ApiPrincipal reader = new ApiPrincipal("readerkey001", ApiKeyKind.READER, "reader", List.of(), 1_000,
                Instant.EPOCH);
        for (int i = 0; i < 10; i++) {
            limits.take(reader);
        }
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

    @Test
    void twoInstancesExchangingUsageGrantOneBucketAndCarryTheOverGrantAsDebt() {
        KeyRateLimits a = new KeyRateLimits();
        KeyRateLimits b = new KeyRateLimits();
        a.recordUsage(true);
        b.recordUsage(true);
        // Both instances grant before either hears of the other: the over-grant of one
        // sync window.
        int granted = 0;
        for (int i = 0; i < 6; i++) {
            granted += a.tryTake("key-s", 10).isEmpty() ? 1 : 0;
            granted += b.tryTake("key-s", 10).isEmpty() ? 1 : 0;
        }
        assertThat(granted).isEqualTo(12);
        // The reports arrive: each takes the other's grants, below zero.
        KeyRateLimits.Usage fromA = a.drainUsage().get("key-s");
        KeyRateLimits.Usage fromB = b.drainUsage().get("key-s");
        assertThat(fromA).isEqualTo(new KeyRateLimits.Usage(10, 6));
        assertThat(a.drainUsage()).as("drained").isEmpty();
        a.charge("key-s", fromB.ratePerMinute(), fromB.tokens());
        b.charge("key-s", fromA.ratePerMinute(), fromA.tokens());
        // 12 granted of a bucket of 10: both refuse until the debt of 2 and one more
        // token have refilled
        // (a token every 6 s at 10 a minute): at least 12 s.
        OptionalLong waitA = a.tryTake("key-s", 10);
        assertThat(waitA).isPresent();
        assertThat(waitA.getAsLong()).isBetween(12L, 19L);
        assertThat(b.tryTake("key-s", 10)).isPresent();
        assertThat(a.drainUsage()).as("refusals are not reported").isEmpty();
    }

    @Test
    void usageIsNotKeptUnlessShared() {
        KeyRateLimits single = new KeyRateLimits();
        assertThat(single.tryTake("key-u", 5)).isEmpty();
        assertThat(single.drainUsage()).isEmpty();
    }

}
