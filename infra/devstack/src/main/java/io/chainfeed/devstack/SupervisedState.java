package io.chainfeed.devstack;

import java.util.Locale;

/**
 * Where a supervised part of the stack (a service JVM, an embedded Kafka broker or
 * Elasticsearch node) stands, and which state may follow which: the table
 * {@link Supervisor} moves by, and refuses any step it does not list.
 *
 * <pre>
 * NOT_STARTED -> STARTING -> UP -> DOWN -> RESTARTING -> STARTING -> ...
 *                                     \-> CRASH_LOOP  (stays down until a restart by hand)
 * any state but STOPPED -> STOPPING -> STOPPED
 * </pre>
 */
public enum SupervisedState {

    /** Created, never launched. */
    NOT_STARTED,

    /**
     * A process launched and not ready yet: the first start, a restart after a crash or
     * one asked for by an operator.
     */
    STARTING,

    /** Its process answers (a healthy service, a node that is ready). */
    UP,

    /**
     * Its process is gone and nothing is scheduled yet: the exit is being judged (an exit
     * on SIGTERM or SIGINT waits for {@link StackStop#SIGNAL_GRACE}), the stack is
     * stopping, or the first start failed.
     */
    DOWN,

    /** Down after a crash, waiting out the backoff before it is started again. */
    RESTARTING,

    /**
     * Crashed too often inside the policy's window ({@link RestartPolicy}): left down
     * until an operator restarts it.
     */
    CRASH_LOOP,

    /** Being stopped with the stack; nothing is restarted from here on. */
    STOPPING,

    /** Stopped for good. */
    STOPPED;

    /**
     * Whether the supervisor may go from this state to another. A part may go to
     * {@link #STARTING} again from {@code STARTING}, {@code UP}, {@code DOWN},
     * {@code RESTARTING} and {@code CRASH_LOOP} (a restart), and to {@link #STOPPING}
     * from any state but the two last.
     * @param next the state asked for
     * @return true when the table allows the step
     */
    public boolean canMoveTo(SupervisedState next) {
        return switch (this) {
            case NOT_STARTED -> next == STARTING || next == STOPPING;
            case STARTING -> next == STARTING || next == UP || next == DOWN || next == STOPPING;
            case UP -> next == STARTING || next == DOWN || next == STOPPING;
            case DOWN -> next == STARTING || next == RESTARTING || next == CRASH_LOOP || next == STOPPING;
            case RESTARTING, CRASH_LOOP -> next == STARTING || next == STOPPING;
            case STOPPING -> next == STOPPED;
            case STOPPED -> false;
        };
    }

    /**
     * @return the state as {@code ./chainfeed status} prints it: lower case, words apart
     * ({@code crash loop})
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

}
