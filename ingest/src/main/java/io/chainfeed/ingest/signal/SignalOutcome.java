package io.chainfeed.ingest.signal;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.ingest.decide.Decision;
import java.util.List;

/**
 * What {@link SignalValidator} made of one raw signal, or of a review: exactly one of
 * {@link Accepted}, {@link Held}, {@link Skipped} and {@link Rejected}. The signals carry
 * version 0; publishing sets the version.
 */
public sealed interface SignalOutcome {

    /**
     * Valid: published and counted by the chain model.
     *
     * @param signal the signal
     * @param decision what the decider found, null when nothing was decided (an editor's
     * signal, or a review)
     */
    record Accepted(ConstraintSignal signal, Decision decision) implements SignalOutcome {
    }

    /**
     * Valid and published, but held for review: decided from the text below the hold
     * threshold, so the chain model does not count it until an editor confirms it. The
     * signal's decision says {@code held}.
     *
     * @param signal the signal
     * @param decision what the decider found
     * @param reason why it is held, in words
     */
    record Held(ConstraintSignal signal, Decision decision, String reason) implements SignalOutcome {
    }

    /**
     * Not a supply signal, as decided from its text: recorded with the reason, not
     * published as a signal.
     *
     * @param signal the item as a signal (given values, or placeholders for the missing
     * ones), for the skipped-records topic
     * @param reason why the text is not a supply constraint
     * @param decision what the decider found
     */
    record Skipped(ConstraintSignal signal, String reason, Decision decision) implements SignalOutcome {
    }

    /**
     * Refused: every problem found.
     *
     * @param errors the field errors, not empty
     */
    record Rejected(List<SignalError> errors) implements SignalOutcome {
    }

}
