package io.chainfeed.api.webhook;

import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When to try a failed webhook again: exponential backoff with full jitter. Before
 * attempt {@code n} ({@code n >= 2}) the ceiling is
 * {@code min(maxDelay, initialDelay * multiplier^(n-2))} and the delay is drawn uniformly
 * from {@code [0, ceiling]} ("full jitter", as in the AWS Architecture Blog's
 * "Exponential Backoff And Jitter"), so endpoints that failed together do not retry
 * together. A {@code Retry-After} from the endpoint (RFC 9110 section 10.2.3) is a floor:
 * the delay is never shorter than it, nor longer than {@code maxRetryAfter} because of
 * it. Standard Webhooks recommends such an exponential schedule with jitter; the defaults
 * span about a day over 10 attempts.
 *
 * @param maxAttempts attempts in all, the first included
 * @param initialDelay ceiling before the second attempt
 * @param multiplier growth of the ceiling per attempt (at least 1)
 * @param maxDelay largest ceiling
 * @param maxRetryAfter longest Retry-After honoured
 */
public record RetrySchedule(int maxAttempts, Duration initialDelay, double multiplier, Duration maxDelay,
        Duration maxRetryAfter) {

    /**
     * @param attemptsMade attempts made so far (at least 1)
     * @return whether another attempt is allowed
     */
    public boolean allowsAnother(int attemptsMade) {
        return attemptsMade < maxAttempts;
    }

    /**
     * @param nextAttempt the attempt about to be scheduled, 2 for the first retry
     * @return the jitter ceiling before it
     * @throws IllegalArgumentException if {@code nextAttempt < 2}
     */
    public Duration ceiling(int nextAttempt) {
        if (nextAttempt < 2) {
            throw new IllegalArgumentException("the first attempt is not delayed: " + nextAttempt);
        }
        double millis = initialDelay.toMillis() * Math.pow(multiplier, nextAttempt - 2);
        long capped = (long) Math.min(maxDelay.toMillis(), millis);
        return Duration.ofMillis(Math.max(0, capped));
    }

    /**
     * @param nextAttempt the attempt about to be scheduled, 2 for the first retry
     * @param retryAfter the endpoint's Retry-After, if it sent one
     * @param random the source of jitter
     * @return the delay before that attempt
     */
    public Duration delay(int nextAttempt, Optional<Duration> retryAfter, RandomGenerator random) {
        long ceiling = ceiling(nextAttempt).toMillis();
        Duration jittered = Duration.ofMillis(ceiling == 0 ? 0 : random.nextLong(ceiling + 1));
        if (retryAfter.isEmpty()) {
            return jittered;
        }
        Duration floor = retryAfter.get().compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter.get();
        return floor.compareTo(jittered) > 0 ? floor : jittered;
    }
}
