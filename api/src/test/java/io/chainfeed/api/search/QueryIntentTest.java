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

}
