package io.chainfeed.devstack;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;

/**
 * When the launcher restarts a service that exited unexpectedly: after an exponential
 * backoff ({@code initial * 2^(n-1)}, capped at {@code max}, where n counts the crashes
 * inside the window), and at most {@code limit} times inside a sliding {@code window};
 * one more crash inside the window is a crash loop and the service stays down (the same
 * idea as systemd's {@code StartLimitBurst} / {@code StartLimitIntervalSec}). Not
 * thread-safe: one instance per service, used under its lock.
 *
 * @param initialBackoff wait before the first restart
 * @param maxBackoff longest wait between restarts
 * @param limit restarts allowed inside the window
 * @param window the sliding window over which crashes are counted
 */
public record RestartPolicy(Duration initialBackoff, Duration maxBackoff, int limit, Duration window) {

    /**
     * The launcher's default: 1 s, 2 s, 4 s, ... at most 30 s apart, at most 5 restarts
     * in 10 minutes.
     */
    public static final RestartPolicy DEFAULT = new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30), 5,
            Duration.ofMinutes(10));

    /** Validates the arguments. */
    public RestartPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(window, "window");
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0 || limit < 0
                || window.isNegative()) {
            throw new IllegalArgumentException("need 0 <= initialBackoff <= maxBackoff, limit >= 0, window >= 0");
        }
    }

    /** The crash history of one service under this policy. */
    public Tracker tracker() {
        return new Tracker();
    }

    /** Crash times of one service inside the policy's window. */
    public final class Tracker {

        private final Deque<Instant> crashes = new ArrayDeque<>();

        private Tracker() {
        }

        /**
         * Records a crash and decides what to do.
         * @param at when the service exited
         * @return the wait before restarting it, or empty when this crash makes a crash
         * loop (more than {@code limit} crashes inside the window): do not restart
         */
        public Optional<Duration> onCrash(Instant at) {
            while (!crashes.isEmpty() && crashes.peekFirst().isBefore(at.minus(window))) {
                crashes.removeFirst();
            }
            crashes.addLast(at);
            int n = crashes.size();
            if (n > limit) {
                return Optional.empty();
            }
            long factor = 1L << Math.min(n - 1, 30);
            Duration wait = initialBackoff.multipliedBy(factor);
            return Optional.of(wait.compareTo(maxBackoff) > 0 || wait.isNegative() ? maxBackoff : wait);
        }

        /** Crashes counted inside the window, as of the last {@link #onCrash}. */
        public int recentCrashes() {
            return crashes.size();
        }

        /** Forgets the history (after a restart asked for by an operator). */
        public void reset() {
            crashes.clear();
        }

    }
}
