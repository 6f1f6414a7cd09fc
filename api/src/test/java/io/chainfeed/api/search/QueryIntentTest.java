package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryIntentTest {

    private static List<QueryIntent.Role> roles(String text) {
        QueryText parsed = QueryText.parse(text);
        QueryIntent intent = QueryIntent.of(parsed);
        return java.util.stream.IntStream.range(0, parsed.size()).mapToObj(intent::role).toList();
    }

    @Test
    void questionWordsAndFillerAreNotTheSubject() {
        assertThat(roles("who makes optical transceivers")).containsExactly(QueryIntent.Role.FILLER,
                QueryIntent.Role.FILLER, QueryIntent.Role.SUBJECT, QueryIntent.Role.SUBJECT);
        assertThat(QueryIntent.of(QueryText.parse("what is CoWoS")).subject()).isEqualTo("cowos");
        assertThat(QueryIntent.of(QueryText.parse("what is CoWoS")).counted()).isEqualTo(1);
    }

    @Test
    void constraintTalkHasADirectionAndTwoWordPhrasesAreOneSegment() {
        QueryIntent sold = QueryIntent.of(QueryText.parse("HBM sold out"));
        assertThat(sold.segments()).hasSize(2);
        assertThat(sold.segments().get(1))
            .isEqualTo(new QueryIntent.Segment(1, 3, QueryIntent.Role.CONSTRAINT, QueryIntent.Direction.TIGHTENING));
        assertThat(sold.subject()).isEqualTo("hbm");
        assertThat(QueryIntent.of(QueryText.parse("memory glut")).segments().get(1).direction())
            .isEqualTo(QueryIntent.Direction.EASING);
        assertThat(QueryIntent.of(QueryText.parse("HBM4 supply")).segments().get(1).direction())
            .isEqualTo(QueryIntent.Direction.EITHER);
    }

    @Test
    void aQueryOfNothingButConstraintTalkOrFillerSearchesForItsWords() {
        assertThat(roles("shortage")).containsExactly(QueryIntent.Role.SUBJECT);
        assertThat(roles("supply shortage")).containsExactly(QueryIntent.Role.SUBJECT, QueryIntent.Role.SUBJECT);
        assertThat(roles("who makes")).containsExactly(QueryIntent.Role.SUBJECT, QueryIntent.Role.SUBJECT);
        assertThat(roles("what is a shortage")).containsExactly(QueryIntent.Role.FILLER, QueryIntent.Role.FILLER,
                QueryIntent.Role.FILLER, QueryIntent.Role.SUBJECT);
    }

    @Test
    void phrasesTickersAndAlternativesAreAlwaysTheSubject() {
        assertThat(roles("\"sold out\" WHO")).containsExactly(QueryIntent.Role.SUBJECT, QueryIntent.Role.SUBJECT);
        assertThat(roles("shortage OR glut")).containsExactly(QueryIntent.Role.SUBJECT);
    }

    @Test
    void theWordAfterOtherThanOrExceptIsExcludedNotRequired() {
        QueryIntent intent = QueryIntent.of(QueryText.parse("AI accelerators other than Nvidia"));
        assertThat(roles("AI accelerators other than Nvidia")).containsExactly(QueryIntent.Role.SUBJECT,
                QueryIntent.Role.SUBJECT, QueryIntent.Role.FILLER, QueryIntent.Role.FILLER, QueryIntent.Role.EXCLUDED);
        assertThat(intent.subject()).isEqualTo("ai accelerators");
        assertThat(intent.counted()).isEqualTo(2);
        assertThat(intent.meaningful()).isEqualTo("AI accelerators");
        assertThat(roles("memory except HBM")).containsExactly(QueryIntent.Role.SUBJECT, QueryIntent.Role.FILLER,
                QueryIntent.Role.EXCLUDED);
        assertThat(roles("AMD GPUs as alternatives to CUDA")).containsExactly(QueryIntent.Role.SUBJECT,
                QueryIntent.Role.SUBJECT, QueryIntent.Role.FILLER, QueryIntent.Role.FILLER, QueryIntent.Role.FILLER,
                QueryIntent.Role.EXCLUDED);
        // nothing left to search for: the words are searched as typed
        assertThat(roles("alternatives to CUDA")).containsExactly(QueryIntent.Role.SUBJECT, QueryIntent.Role.SUBJECT,
                QueryIntent.Role.SUBJECT);
        // without a cue, "other" is filler and nothing is excluded
        assertThat(roles("other accelerators")).containsExactly(QueryIntent.Role.FILLER, QueryIntent.Role.SUBJECT);
    }

}
