package io.chainfeed.api.support.problem;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProblemBoundsTest {

    @Test
    void aLongDetailIsCutAtTheBoundWithAnEllipsisAndShortOnesStay() {
        assertThat(ProblemBounds.bounded(null)).isNull();
        assertThat(ProblemBounds.bounded("size must be 1 to 50")).isEqualTo("size must be 1 to 50");
        String exact = "x".repeat(ProblemBounds.DETAIL_MAX_LENGTH);
        assertThat(ProblemBounds.bounded(exact)).isSameAs(exact);
        String cut = ProblemBounds.bounded("Failed to convert 'limit' with value: '" + "a".repeat(5000) + "'");
        assertThat(cut).hasSize(ProblemBounds.DETAIL_MAX_LENGTH).endsWith("a\u2026");
        // a surrogate pair across the cut is not split
        String rockets = "\uD83D\uDE80".repeat(3000);
        String cutRockets = ProblemBounds.bounded(rockets);
        assertThat(cutRockets.length()).isLessThanOrEqualTo(ProblemBounds.DETAIL_MAX_LENGTH);
        assertThat(Character.isHighSurrogate(cutRockets.charAt(cutRockets.length() - 2))).isFalse();
    }

}
