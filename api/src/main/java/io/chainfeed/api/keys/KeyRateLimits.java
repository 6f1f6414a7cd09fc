package io.chainfeed.api.keys;

import io.chainfeed.api.web.TooManyRequestsException;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Per-key rate limits, for every path that takes an API key (the widget paths under PARTNER keys, the
 * webhook subscriptions under READER keys): a Bucket4j token bucket per key id, holding the key's rate
 * per minute and refilled greedily (a token every {@code 60 s / rate}), so a key may burst up to a
 * minute's worth and then goes on at its rate. All paths a key uses draw on its one bucket. Buckets live
 * in this API instance's memory (each instance enforces the limit on its own). A key whose rate changes
 * gets a new, full bucket.
 */
@Component
public class KeyRateLimits {
    private record Limited(int ratePerMinute, Bucket bucket) {
    }

    private final Map<String, Limited> buckets = new ConcurrentHashMap<>();

    /**
     * Takes one request from the key's bucket, or refuses it.
     *
     * @param key the authenticated key (its id and rate per minute)
     * @throws TooManyRequestsException (a 429 problem with {@code Retry-After}, RFC 9457 / RFC 9110) when
     *                                  the key is over its rate; the message names the rate and the wait
     */
    public void take(ApiPrincipal key) {
        OptionalLong wait = tryTake(key.keyId(), key.ratePerMinute());
        if (wait.isPresent()) {
            throw new TooManyRequestsException("this key allows " + key.ratePerMinute()
                    + " requests a minute; try again in " + wait.getAsLong() + " s", wait.getAsLong());
        }
    }

    /**
     * Takes one request from the key's bucket.
     *
     * @param keyId         the key's id
     * @param ratePerMinute the key's rate, requests per minute (at least 1)
     * @return empty if the request is allowed; otherwise the whole seconds (at least 1) until a
     *         request will be taken again, for {@code Retry-After}
     */
    public OptionalLong tryTake(String keyId, int ratePerMinute) {
        int rate = Math.max(1, ratePerMinute);
        Limited limited = buckets.compute(keyId, (id, old) -> old != null && old.ratePerMinute() == rate ? old
                : new Limited(rate, Bucket.builder()
                        .addLimit(Bandwidth.builder().capacity(rate).refillGreedy(rate, Duration.ofMinutes(1)).build())
                        .build()));
        ConsumptionProbe probe = limited.bucket().tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return OptionalLong.empty();
        }
        long nanos = probe.getNanosToWaitForRefill();
        return OptionalLong.of(Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L));
    }

    /** Forgets a key's bucket (after it is revoked, say); the next request starts a full one. */
    public void forget(String keyId) {
        buckets.remove(keyId);
    }
}
