package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.api.search.QueryText.Piece;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryTextTest {

    @Test
    void wordsPhrasesExclusionsAndOr() {
        QueryText q = QueryText.parse("\"co-packaged optics\" HBM OR hbf -nvidia -\"tensor core\" co-packaged");
        assertThat(q.groups()).containsExactly(List.of(new Piece("co-packaged optics", true)),
                List.of(new Piece("HBM", false), new Piece("hbf", false)), List.of(new Piece("co-packaged", false)));
        assertThat(q.excluded()).containsExactly(new Piece("nvidia", false), new Piece("tensor core", true));
    }

    @Test
    void pipesJoinAlternatives() {
        assertThat(QueryText.parse("hbm|gddr").groups())
            .containsExactly(List.of(new Piece("hbm", false), new Piece("gddr", false)));
        assertThat(QueryText.parse("hbm | gddr").groups())
            .containsExactly(List.of(new Piece("hbm", false), new Piece("gddr", false)));
    }

    @Test
    void anyTextParsesAndPunctuationAloneIsDropped() {
        for (String text : List.of("\"", "\"\"", "-", "--", "OR", "| OR |", "/", ":", "\\", "()[]{}", "*?~^", "-\"",
                "a \"b", "AT&T", "2345.TW", "🙂", "\u0000", "x OR", "OR x")) {
            QueryText q = QueryText.parse(text);
            assertThat(q).isNotNull();
        }
        assertThat(QueryText.parse("/ : \\ ( ) [ ] ~ 🙂").isEmpty()).isTrue();
        assertThat(QueryText.parse("a \"unclosed phrase").groups()).containsExactly(List.of(new Piece("a", false)),
                List.of(new Piece("unclosed phrase", true)));
        assertThat(QueryText.parse("AT&T").groups()).containsExactly(List.of(new Piece("AT&T", false)));
    }

    @Test
    void tickersAndAcronymsAreNotFuzzy() {
        assertThat(new Piece("2345.TW", false).tickerLike()).isTrue();
        assertThat(new Piece("000660.KS", false).tickerLike()).isTrue();
        assertThat(new Piece("ANET", false).tickerLike()).isTrue();
        assertThat(new Piece("computers", false).tickerLike()).isFalse();
        assertThat(new Piece("Nvidia", false).tickerLike()).isFalse();
    }

    @Test
    void wordsFoldCaseAndPunctuation() {
        assertThat(QueryText.words("AI Ethernet (RoCE)")).containsExactly("ai", "ethernet", "roce");
        assertThat(QueryText.words("High-Bandwidth Memory")).containsExactly("high", "bandwidth", "memory");
        assertThat(QueryText.parse("\"HBM\" high bandwidth").plain()).isEqualTo("hbm high bandwidth");
    }

}
