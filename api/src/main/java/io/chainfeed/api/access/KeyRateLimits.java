package io.chainfeed.api.access;

import io.chainfeed.api.support.problem.TooManyRequestsException;
import io.chainfeed.api.support.server.RateLimitFields;
import io.chainfeed.avro.ApiKeyKind;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Per-key rate limits, for every path that takes an API key (the widget paths under
 * PARTNER keys, the webhook subscriptions under READER keys): a Bucket4j token bucket per
 * key id, holding the key's rate per minute and refilled greedily (a token every
 * {@code 60 s / rate}), so a key may burst up to a minute's worth and then goes on at its
 * rate. All paths a key uses draw on its one bucket. Buckets live in this API instance's
 * memory; with several instances, {@link KeyUsageExchange} publishes what this one
 * granted ({@link #drainUsage}) and takes what the others granted out of the same buckets
 * ({@link #charge}), so the rate holds across instances within the bound it documents. A
 * key whose rate changes gets a new, full bucket.
 */
@Component
public class KeyRateLimits {

    private record Limited(int ratePerMinute, long perDay, Bucket bucket) {
    }

    /**
     * Requests granted here to one key since the last {@link #drainUsage}.
     *
     * @param ratePerMinute the key's rate when they were granted
     * @param tokens how many
     */
    public record Usage(int ratePerMinute, long tokens) {
    }

    private final Map<String, Limited> buckets = new ConcurrentHashMap<>();

    private final Map<String, Usage> unsent = new ConcurrentHashMap<>();

    private volatile boolean recordUsage;

    private final long partnerDailyQuota;

    /** Limits without a daily quota on partner keys. */
    public KeyRateLimits() {
        this(0);
    }

    /**
     * @param props {@code chainfeed.rate-limits}: its {@code partner-daily-quota}
     */
    @org.springframework.beans.factory.annotation.Autowired
    public KeyRateLimits(RateLimitProperties props) {
        this(props.partnerDailyQuota());
    }

    /**
     * @param partnerDailyQuota requests a PARTNER key may make per day besides its rate
     * per minute (0: no daily quota)
     */
    public KeyRateLimits(long partnerDailyQuota) {
        this.partnerDailyQuota = partnerDailyQuota;
    }

    /**
     * Takes one request from the key's bucket, or refuses it.
     * @param key the authenticated key (its id and rate per minute)
     * @throws TooManyRequestsException (a 429 problem with {@code Retry-After}, RFC 9457
     * / RFC 9110) when the key is over its rate; the message names the rate and the wait
     */
    public void take(ApiPrincipal key) {
        long perDay = key.kind() == ApiKeyKind.PARTNER ? partnerDailyQuota : 0;
        ConsumptionProbe probe = consume(key.keyId(), key.ratePerMinute(), perDay);
        OptionalLong wait = waitOf(probe);
        fields(key.ratePerMinute(), probe.getRemainingTokens(), wait);
        if (wait.isPresent()) {
            throw new TooManyRequestsException("this key allows " + key.ratePerMinute() + " requests a minute"
                    + (perDay > 0 ? " and " + perDay + " a day" : "") + "; try again in " + wait.getAsLong() + " s",
                    wait.getAsLong());
        }
    }

    /**
     * Adds the key's item ({@value RateLimitFields#KEY}) to the draft-10 rate-limit
     * fields of the current response, if there is one ({@link RateLimitFields}):
     * {@code RateLimit-Policy: "key";q=<rate>;w=60} and
     * {@code RateLimit: "key";r=<left>;t=<seconds until the bucket is full>}; refused,
     * {@code t} is at least the wait. {@code r} is what the bucket holds, which a PARTNER
     * key's daily quota may hold down below the minute's figure.
     */
    private static void fields(int ratePerMinute, long left, OptionalLong wait) {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)
                || attributes.getResponse() == null) {
            return;
        }
        int rate = Math.max(1, ratePerMinute);
        long remaining = Math.max(0, left);
        long reset = (long) Math.ceil((rate - Math.min(rate, remaining)) * 60.0 / rate);
        if (wait.isPresent()) {
            reset = Math.max(reset, wait.getAsLong());
        }
        RateLimitFields.add(attributes.getResponse(),
                new RateLimitFields.Limit(RateLimitFields.KEY, rate, 60, remaining, reset));
    }

    /**
     * Takes one request from the key's bucket.
     * @param keyId the key's id
     * @param ratePerMinute the key's rate, requests per minute (at least 1)
     * @return empty if the request is allowed; otherwise the whole seconds (at least 1)
     * until a request will be taken again, for {@code Retry-After}
     */
    public OptionalLong tryTake(String keyId, int ratePerMinute) {
        return tryTake(keyId, ratePerMinute, 0);
    }

    /**
     * Takes one request from the key's bucket, which also holds a daily quota.
     * @param keyId the key's id
     * @param ratePerMinute the key's rate, requests per minute (at least 1)
     * @param perDay requests per day (refilled greedily over 24 h); 0 for none
     * @return empty if the request is allowed; otherwise the whole seconds (at least 1)
     * until a request will be taken again, for {@code Retry-After}
     */
    public OptionalLong tryTake(String keyId, int ratePerMinute, long perDay) {
        return waitOf(consume(keyId, ratePerMinute, perDay));
    }

    /** Takes one token, counting a grant for the other instances. */
    private ConsumptionProbe consume(String keyId, int ratePerMinute, long perDay) {
        int rate = Math.max(1, ratePerMinute);
        ConsumptionProbe probe = bucket(keyId, rate, perDay).tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed() && recordUsage) {
            unsent.merge(keyId, new Usage(rate, 1), (a, b) -> new Usage(b.ratePerMinute(), a.tokens() + 1));
        }
        return probe;
    }

    /** Empty when the token was taken, else the whole seconds (at least 1) to wait. */
    private static OptionalLong waitOf(ConsumptionProbe probe) {
        if (probe.isConsumed()) {
            return OptionalLong.empty();
        }
        long nanos = probe.getNanosToWaitForRefill();
        return OptionalLong.of(Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L));
    }

    private Bucket bucket(String keyId, int rate, long perDay) {
        return buckets.compute(keyId, (id, old) -> {
            if (old != null && old.ratePerMinute() == rate && (perDay < 0 || old.perDay() == perDay)) {
                return old;
            }
            long day = perDay < 0 ? 0 : perDay;
            var builder = Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(rate).refillGreedy(rate, Duration.ofMinutes(1)).build());
            if (day > 0) {
                builder.addLimit(Bandwidth.builder().capacity(day).refillGreedy(day, Duration.ofDays(1)).build());
            }
            return new Limited(rate, day, builder.build());
        }).bucket();
    }

    /**
     * Takes requests another api instance granted out of the key's bucket here, even
     * below zero (a debt the refill pays back before this instance grants the key again).
     * @param keyId the key's id
     * @param ratePerMinute the key's rate as the other instance knew it
     * @param tokens requests granted there
     */
    public void charge(String keyId, int ratePerMinute, long tokens) {
        // -1: whatever daily quota the bucket here already holds
        bucket(keyId, Math.max(1, ratePerMinute), -1).consumeIgnoringRateLimits(tokens);
    }

    /**
     * @param on whether {@link #tryTake} counts its grants for {@link #drainUsage} (off:
     * nothing is kept)
     */
    void recordUsage(boolean on) {
        recordUsage = on;
    }

    /**
     * @return the requests granted per key id since the last call, which resets the
     * counts
     */
    public Map<String, Usage> drainUsage() {
        Map<String, Usage> out = new HashMap<>();
        for (String key : unsent.keySet()) {
            Usage u = unsent.remove(key);
            if (u != null) {
                out.put(key, u);
            }
        }
        return out;
    }

    /**
     * Forgets a key's bucket (after it is revoked, say); the next request starts a full
     * one.
     */
    public void forget(String keyId) {
        buckets.remove(keyId);
    }

}
