package io.chainfeed.api.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.support.server.WarmupKeys;
import io.chainfeed.avro.ApiKeyKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * The warm-up's key lives in this process only: it authenticates while lent, is never
 * listed (so never stored), and stops working the moment it is withdrawn.
 */
class LocalWarmupKeysTest {

    // never started: no broker is reached, the keys topic is not read
    private final ApiKeys keys = new ApiKeys("127.0.0.1:9", Clock.systemUTC(), new SimpleMeterRegistry());

    @Test
    void aLentKeyAuthenticatesAsAPartnerOfItsOriginUntilWithdrawn() {
        WarmupKeys.Lease lease = new LocalWarmupKeys(keys).lend("HTTPS://Warmup.invalid:443");
        ApiPrincipal principal = keys.authenticate(lease.token()).orElseThrow();
        assertThat(principal.kind()).isEqualTo(ApiKeyKind.PARTNER);
        assertThat(principal.allowedOrigins()).containsExactly("https://warmup.invalid");
        assertThat(principal.allowsOrigin("https://warmup.invalid")).isTrue();
        assertThat(principal.ratePerMinute()).isEqualTo(ApiKeys.DEFAULT_PARTNER_RATE);
        assertThat(keys.list()).isEmpty();
        assertThat(keys.find(principal.keyId())).isEmpty();

        // the same id with another secret is refused
        String forged = lease.token().substring(0, lease.token().lastIndexOf('_') + 1) + "A".repeat(43);
        assertThat(keys.authenticate(forged)).isEmpty();

        lease.close();
        assertThat(keys.authenticate(lease.token())).isEmpty();
    }

    @Test
    void twoLentKeysAreDistinct() {
        LocalWarmupKeys lender = new LocalWarmupKeys(keys);
        try (WarmupKeys.Lease a = lender.lend("https://warmup.invalid");
                WarmupKeys.Lease b = lender.lend("https://warmup.invalid")) {
            assertThat(a.token()).isNotEqualTo(b.token()).matches("cf_[a-z2-7]{12}_[A-Za-z0-9_-]{43}");
        }
    }

    @Test
    void aLentKeyNeedsAWebOrigin() {
        assertThatThrownBy(() -> new LocalWarmupKeys(keys).lend("not an origin"))
            .isInstanceOf(IllegalArgumentException.class);
    }

}
