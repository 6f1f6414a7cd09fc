package io.chainfeed.ingest.decide;

import static io.chainfeed.ingest.decide.DeciderFixture.parse;
import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.decide.RuleText.Vote;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DirectionStep}: the sign of the weighted votes. */
class DirectionStepTest {

    private final DirectionStep step = new DirectionStep();

    @Test
    void aTighteningCueLeansTightWithItsWords() {
        DirectionStep.Leaning l = step.decide(parse("HBM is sold out").votes());
        assertThat(l.direction()).isEqualTo(Direction.TIGHTENING);
        assertThat(l.sign()).isEqualTo(1);
        assertThat(l.evidence()).extracting(Decision.Span::text).containsExactly("sold out");
        assertThat(l.inHeadline()).isTrue();
    }

    @Test
    void aNegatedCueLeansTheOtherWay() {
        DirectionStep.Leaning l = step.decide(parse("HBM is no longer sold out").votes());
        assertThat(l.direction()).isEqualTo(Direction.EASING);
        assertThat(l.evidence()).extracting(Decision.Span::rule).contains("negation");
    }

    @Test
    void theHeavierSideWinsAndATieGoesToTheHeadline() {
        Vote tight = parse("HBM is sold out").votes().get(0);
        Vote easing = new Vote(tight.hit(), -1, tight.magnitude(), tight.weight(), tight.spans());
        Vote heavier = new Vote(tight.hit(), 1, tight.magnitude(), tight.weight() * 2, tight.spans());
        assertThat(step.decide(List.of(easing, heavier)).direction()).isEqualTo(Direction.TIGHTENING);
        assertThat(step.decide(List.of(easing, heavier)).agreeing()).containsExactly(heavier);
        // a tie: both in the headline, so the headline is tied too: tightening
        assertThat(step.decide(List.of(easing, tight)).direction()).isEqualTo(Direction.TIGHTENING);
        Vote bodyTight = new Vote(bodyHit(), 1, tight.magnitude(), tight.weight(), tight.spans());
        assertThat(step.decide(List.of(easing, bodyTight)).direction()).as("the headline breaks the tie")
            .isEqualTo(Direction.EASING);
    }

    private static RuleText.Hit bodyHit() {
        return DeciderFixture.RULES.parse("", "HBM is sold out").votes().get(0).hit();
    }

}
