package io.chainfeed.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock a test moves by hand, for code that takes a {@link Clock}: it stands still
 * until {@link #advance} or {@link #set} moves it. Safe to read from other threads.
 */
public final class MutableClock extends Clock {

    private volatile Instant now;

    /**
     * @param start the instant it shows until moved
     */
    public MutableClock(Instant start) {
        this.now = start;
    }

    /**
     * @param by how far to move it forward (a negative duration moves it back)
     */
    public void advance(Duration by) {
        now = now.plus(by);
    }

    /**
     * @param instant the instant it shows from now on
     */
    public void set(Instant instant) {
        now = instant;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }

}
