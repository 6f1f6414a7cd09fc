package io.chainfeed.devstack;

import java.util.Objects;

/**
 * What a supervised part is doing, as {@code ./chainfeed status} reports it.
 *
 * @param state where it stands
 * @param detail why, or what comes next ({@code exited with code 137; next start in
 * 1000 ms}); null when the state says it all
 */
public record SupervisedStatus(SupervisedState state, String detail) {

    /** Requires a state. */
    public SupervisedStatus {
        Objects.requireNonNull(state, "state");
    }

    /** Whether the part is {@link SupervisedState#UP}. */
    public boolean up() {
        return state == SupervisedState.UP;
    }

    /**
     * @return the state's label, then the detail in parentheses when there is one
     * ({@code restarting (exited with code 137; next start in 1000 ms)})
     */
    @Override
    public String toString() {
        return detail == null ? state.label() : state.label() + " (" + detail + ")";
    }

}
