package io.chainfeed.api.access;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.chainfeed.api.support.server.RateLimitFields;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One Bucket4j token bucket per client (see {@link ClientAddresses#bucketName}) under one
 * named policy (the public paths' {@value RateLimitFields#CLIENT}, the admin key paths'
 * {@value RateLimitFields#ADMIN}): a minute's capacity of {@code perMinute} requests,
 * refilled greedily (a token every {@code 60 s / perMinute}). The buckets live in a
 * Caffeine cache bounded in size; a bucket idle for two minutes is dropped, which changes
 * nothing, as it would be full again by then.
 */
public final class ClientRateLimits {

    private final String policy;

    private final int perMinute;

    private final Cache<String, Bucket> buckets;

    private final Cache<String, AtomicLong> unsent;

    private final int shareThreshold;

    private volatile boolean recordUsage;

    /**
     * @param policy the policy's name in the rate-limit fields and in the usage reports
     * shared with other instances, e.g. {@value RateLimitFields#CLIENT}
     * @param perMinute requests per minute per client, at least 1
     * @param maxClients the most buckets kept
     */
    public ClientRateLimits(String policy, int perMinute, int maxClients) {
        this.policy = policy;
        this.perMinute = perMinute;
        this.buckets = Caffeine.newBuilder().maximumSize(maxClients).expireAfterAccess(Duration.ofMinutes(2)).build();
        this.unsent = Caffeine.newBuilder().maximumSize(maxClients).expireAfterAccess(Duration.ofMinutes(1)).build();
        this.shareThreshold = Math.max(2, perMinute / 20);
    }

    /**
     * Takes one request from the client's bucket.
     * @param client the bucket's name
     * @return what was decided, with the figures for the {@code RateLimit} header
     */
    public Decision take(String client) {
        Bucket bucket = bucket(client);
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed() && recordUsage) {
            unsent.get(client, c -> new AtomicLong()).incrementAndGet();
        }
        long remaining = probe.getRemainingTokens();
        // seconds until the bucket is full again: one token every 60/perMinute s
        long reset = ceilDiv((perMinute - remaining) * 60L, perMinute);
        long retryAfter = probe.isConsumed() ? 0
                : Math.max(1, ceilDiv(probe.getNanosToWaitForRefill(), 1_000_000_000L));
        return new Decision(probe.isConsumed(), perMinute, remaining, reset, retryAfter);
    }

    /**
     * Takes requests another api instance granted out of the client's bucket here, even
     * below zero (a debt the refill pays back first).
     * @param client the bucket's name
     * @param tokens requests granted there
     */
    public void charge(String client, long tokens) {
        bucket(client).consumeIgnoringRateLimits(tokens);
    }

    /**
     * @param on whether {@link #take} counts its grants for {@link #drainUsage} (the
     * exchange turns it on when the limits are shared)
     */
    public void recordUsage(boolean on) {
        recordUsage = on;
    }

    /**
     * @return the grants per client that reached {@link #shareThreshold()} since they
     * were last drained, which resets them; the others keep counting
     */
    public Map<String, Long> drainUsage() {
        Map<String, Long> out = new HashMap<>();
        unsent.asMap().forEach((client, count) -> {
            if (count.get() >= shareThreshold) {
                long n = count.getAndSet(0);
                if (n > 0) {
                    out.put(client, n);
                }
            }
        });
        return out;
    }

    /**
     * @return grants to one client that make it worth a report to the other instances
     */
    public int shareThreshold() {
        return shareThreshold;
    }

    /**
     * @return the policy's name, e.g. {@value RateLimitFields#CLIENT}
     */
    public String policy() {
        return policy;
    }

    /**
     * @return the quota per minute
     */
    public int perMinute() {
        return perMinute;
    }

    private Bucket bucket(String client) {
        return buckets.get(client, c -> Bucket.builder()
            .addLimit(Bandwidth.builder().capacity(perMinute).refillGreedy(perMinute, Duration.ofMinutes(1)).build())
            .build());
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    /**
     * One request's verdict.
     *
     * @param allowed whether it was taken
     * @param quota the policy's requests per window
     * @param remaining requests left in the bucket now
     * @param resetSeconds whole seconds until the bucket is full again
     * @param retryAfterSeconds when refused: whole seconds (at least 1) until a request
     * will be taken; 0 when allowed
     */
    public record Decision(boolean allowed, int quota, long remaining, long resetSeconds, long retryAfterSeconds) {
    }

}
