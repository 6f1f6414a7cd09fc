package io.chainfeed.ingest.publish;

import java.time.Duration;

/**
 * A point in time (monotonic, {@link System#nanoTime()}) by which a publish must have
 * answered.
 *
 * @param nanos the deadline on the {@link System#nanoTime()} clock
 */
public record Deadline(long nanos) {
    /**
     * @param timeout time from now
     * @return a deadline that far from now
     */
    public static Deadline after(Duration timeout) {
        return new Deadline(System.nanoTime() + timeout.toNanos());
    }

    /**
     * @return time left, never negative
     */
    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, nanos - System.nanoTime()));
    }

    /**
     * @return whether the deadline has passed
     */
    public boolean expired() {
        return System.nanoTime() - nanos >= 0;
    }
}
