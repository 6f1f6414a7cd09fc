package io.chainfeed.ingest.signal;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.decide.SignalDecider;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SignalOutcome}: each of the four cases, from check and from review. */
class SignalOutcomeTest {

    private static final Corpus CORPUS = Corpus.loadBundled();

    private static final SignalValidator DECIDING = new SignalValidator(CORPUS.layers(), SignalDecider.of(CORPUS), 0.6);

    /** Holds a hedged item (confidence 0.7) for review. */
    private static final SignalValidator CAUTIOUS = new SignalValidator(CORPUS.layers(), SignalDecider.of(CORPUS), 0.8);

    private static SignalInput item(String headline, String more) {
        return SignalReader
            .json("{\"headline\": \"" + headline + "\", \"observedAt\": \"2026-06-15\", "
                    + "\"source\": {\"name\": \"n\", \"url\": \"https://e.com/a\"}" + more + "}")
            .get(0);
    }

    @Test
    void anEditorsSignalIsAcceptedWithNothingDecided() {
        SignalOutcome c = DECIDING
            .check(item("HBM is sold out", ", \"layers\": \"memory\", \"direction\": \"easing\", \"magnitude\": 2"));
        assertThat(c).isInstanceOfSatisfying(SignalOutcome.Accepted.class, a -> {
            assertThat(a.signal().getDirection()).isEqualTo(Direction.EASING);
            assertThat(a.signal().getDecision()).isNull();
            assertThat(a.decision()).isNull();
        });
    }

    @Test
    void aSignalDecidedSurelyIsAcceptedWithItsDecision() {
        SignalOutcome c = DECIDING.check(item("HBM is sold out", ""));
        assertThat(c).isInstanceOfSatisfying(SignalOutcome.Accepted.class, a -> {
            assertThat(a.signal().getLayerHints()).containsExactly("memory");
            assertThat(a.signal().getDecision().getHeld()).isFalse();
            assertThat(a.decision().confidence()).isGreaterThanOrEqualTo(0.6);
        });
    }

    @Test
    void aSignalDecidedBelowTheThresholdIsHeldWithTheReason() {
        assertThat(DECIDING.check(item("DRAM supply may be tight", ""))).isInstanceOf(SignalOutcome.Accepted.class);
        SignalOutcome c = CAUTIOUS.check(item("DRAM supply may be tight", ""));
        assertThat(c).isInstanceOfSatisfying(SignalOutcome.Held.class, h -> {
            assertThat(h.signal().getDecision().getHeld()).isTrue();
            assertThat(h.decision().confidence()).isEqualTo(0.7);
            assertThat(h.reason()).isEqualTo("decided with confidence 0.7, below the hold threshold 0.8");
        });
    }

    @Test
    void textThatIsNoSupplySignalIsSkippedWithTheReason() {
        SignalOutcome c = DECIDING.check(item("Nvidia appoints a new chief financial officer", ""));
        assertThat(c).isInstanceOfSatisfying(SignalOutcome.Skipped.class, k -> {
            assertThat(k.reason()).isEqualTo("appointment");
            assertThat(k.decision().relevant()).isFalse();
            assertThat(k.signal().getHeadline()).isEqualTo("Nvidia appoints a new chief financial officer");
        });
    }

    @Test
    void aSignalWithFieldErrorsIsRejectedWithThemAll() {
        SignalOutcome c = DECIDING.check(item(" ", ", \"magnitude\": 9"));
        assertThat(c).isInstanceOfSatisfying(SignalOutcome.Rejected.class,
                r -> assertThat(r.errors()).extracting(SignalError::field).containsExactly("headline", "magnitude"));
    }

    @Test
    void aReviewIsAcceptedAsTheEditorsOrRejected() {
        ConstraintSignal kept = ((SignalOutcome.Held) CAUTIOUS.check(item("DRAM supply may be tight", ""))).signal();
        Instant now = Instant.parse("2026-06-16T00:00:00Z");
        SignalOutcome confirmed = CAUTIOUS.review(kept, SignalFields.bind(Map.of()), now, 0);
        assertThat(confirmed).isInstanceOfSatisfying(SignalOutcome.Accepted.class, a -> {
            assertThat(a.signal().getDecision().getDecidedBy()).isEqualTo("editor");
            assertThat(a.signal().getDecision().getHeld()).isFalse();
            assertThat(a.signal().getDecision().getReview().getOutcome()).isEqualTo("confirmed");
        });
        SignalOutcome refused = CAUTIOUS.review(kept, SignalFields.bind(Map.of("magnitude", "x")), now, 0);
        assertThat(refused).isInstanceOfSatisfying(SignalOutcome.Rejected.class,
                r -> assertThat(r.errors()).extracting(SignalError::describe)
                    .containsExactly("item 0, magnitude: 'x' is not an integer 1 to 5"));
    }

}
