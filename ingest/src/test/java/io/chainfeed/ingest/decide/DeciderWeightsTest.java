package io.chainfeed.ingest.decide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.ingest.corpus.Corpus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The weights file is complete: every weight a step reads is in it, each with its
 * comment, and no key in it goes unread.
 */
class DeciderWeightsTest {

    @Test
    void everyKeyIsReadByAStepAndEveryKeyAStepReadsIsPresent() {
        DeciderWeights weights = DeciderWeights.bundled();
        SignalDecider.of(Corpus.loadBundled(), weights);
        assertThat(weights.unread()).as("keys no step reads").isEmpty();
    }

    @Test
    void anUnusedKeyIsReported() {
        DeciderWeights weights = DeciderFixture.weights("layer.spare.bonus", "1");
        SignalDecider.of(Corpus.loadBundled(), weights);
        assertThat(weights.unread()).containsExactly("layer.spare.bonus");
    }

    @Test
    void aMissingWeightIsNamed() {
        Properties p = DeciderWeights.bundledValues();
        p.remove("confidence.hedge");
        assertThatThrownBy(() -> SignalDecider.of(Corpus.loadBundled(), new DeciderWeights(p)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("decider-weights.properties has no confidence.hedge");
    }

    @Test
    void aCountMustBeWhole() {
        assertThatThrownBy(() -> SignalDecider.of(Corpus.loadBundled(), DeciderFixture.weights("magnitude.max", "4.5")))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("magnitude.max = '4.5' is not a whole number");
    }

    @Test
    void everyKeyHasItsOneLineCommentAbove() throws IOException {
        List<String> lines;
        try (InputStream in = DeciderWeights.class.getResourceAsStream(DeciderWeights.RESOURCE)) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        List<String> bare = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.isBlank() && !line.startsWith("#") && (i == 0 || !lines.get(i - 1).startsWith("# "))) {
                bare.add(line);
            }
        }
        assertThat(bare).as("keys without a comment right above").isEmpty();
    }

}
