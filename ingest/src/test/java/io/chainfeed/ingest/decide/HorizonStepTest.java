package io.chainfeed.ingest.decide;

import static io.chainfeed.ingest.decide.DeciderFixture.SEEN;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link HorizonStep}: the horizon stated beside an agreeing cue. */
class HorizonStepTest {

    private final HorizonStep step = new HorizonStep();

    private HorizonStep.Stated horizon(String headline, String body) {
        RuleText.Parsed p = DeciderFixture.RULES.parse(headline, body);
        return step.decide(p, new DirectionStep().decide(p.votes()).agreeing(), SEEN);
    }

    @Test
    void aHorizonInTheCuesSentenceIsTheUntilWithItsWords() {
        HorizonStep.Stated s = horizon("HBM is sold out through 2027", "");
        assertThat(s.until()).isEqualTo(Instant.parse("2028-01-01T00:00:00Z"));
        assertThat(s.evidence()).singleElement().satisfies(sp -> {
            assertThat(sp.text()).isEqualTo("through 2027");
            assertThat(sp.field()).isEqualTo("headline");
            assertThat(sp.rule()).startsWith("horizon: ");
        });
    }

    @Test
    void aHorizonInAnotherSentenceIsNotTheCues() {
        assertThat(horizon("HBM is sold out", "The company was founded in 1980. It plans through 2027.").until())
            .isNull();
        assertThat(horizon("HBM is sold out", "").evidence()).isEmpty();
    }

    @Test
    void theBodyCountsWhenItsSentenceHasTheCue() {
        HorizonStep.Stated s = horizon("Memory makers report", "HBM is sold out through 2027.");
        assertThat(s.until()).isEqualTo(Instant.parse("2028-01-01T00:00:00Z"));
        assertThat(s.evidence()).singleElement().satisfies(sp -> assertThat(sp.field()).isEqualTo("body"));
    }

}
