package io.chainfeed.ingest.decide;

import io.chainfeed.ingest.corpus.Corpus;
import java.time.Instant;
import java.util.Properties;

/** What the tests of the rules' steps share: the bundled rules and their weights. */
final class DeciderFixture {

    static final Instant SEEN = Instant.parse("2026-06-15T00:00:00Z");

    static final SignalDecider RULES = SignalDecider.of(Corpus.loadBundled());

    private DeciderFixture() {
    }

    /**
     * @param headline an item's headline (its body is empty)
     * @return the item as the steps read it
     */
    static RuleText.Parsed parse(String headline) {
        return RULES.parse(headline, "");
    }

    /**
     * @param keysAndValues keys and their new values, in pairs
     * @return the bundled weights with those changed
     */
    static DeciderWeights weights(String... keysAndValues) {
        Properties p = DeciderWeights.bundledValues();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            p.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new DeciderWeights(p);
    }

}
