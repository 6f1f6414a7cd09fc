package io.chainfeed.ingest.decide;

import java.time.Instant;
import java.util.SortedSet;

/**
 * Decides a constraint signal's missing values from its headline and body: the rules
 * alone ({@link SignalDecider}) or the rules with the learned reader
 * ({@link NewsDecider}).
 */
public interface TextDecider {

    /**
     * @param headline the signal's headline
     * @param body its body, may be empty
     * @param observedAt when it was observed (relative horizons count from it, UTC)
     * @return the decision, with the words behind each value and who decided
     */
    Decision decide(String headline, String body, Instant observedAt);

    /**
     * @return every reason an item can be skipped for, sorted: the label values of
     * {@code chainfeed_signals_skipped_total}
     */
    SortedSet<String> skipReasons();

}
