package io.chainfeed.devstack;

import java.time.Duration;

/**
 * Whether a stack has begun to stop. Set once, first thing when a stop signal arrives or
 * {@link Stack#close()} runs; from then on no supervisor restarts anything. A signal sent
 * to the whole process group (Ctrl-C in a terminal, systemd's control-group stop, a
 * container runtime) reaches the children at the same moment as the launcher, so a child
 * may exit on that signal a little before the launcher has set this flag: an exit on
 * SIGTERM or SIGINT is therefore judged only after {@link #SIGNAL_GRACE}.
 */
final class StackStop {

    /**
     * How long an exit on SIGTERM or SIGINT waits for the launcher's own stop before it
     * counts as a crash.
     */
    static final Duration SIGNAL_GRACE = Duration.ofSeconds(2);

    private volatile boolean begun;

    /** Marks the stop as begun; idempotent. */
    void begin() {
        begun = true;
    }

    /** Whether the stop has begun. */
    boolean begun() {
        return begun;
    }

    /**
     * Whether an exit code says the process was ended by SIGTERM or SIGINT (128 + the
     * signal number, as {@link Process#exitValue()} reports a death by signal and as the
     * JVM exits on one).
     * @param exitCode the child's exit code
     * @return true for 143 (SIGTERM) and 130 (SIGINT)
     */
    static boolean byStopSignal(int exitCode) {
        return exitCode == 143 || exitCode == 130;
    }

}
