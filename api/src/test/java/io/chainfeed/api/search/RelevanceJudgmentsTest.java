package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelevanceJudgmentsTest {

    private static final RelevanceJudgments.Query Q = new RelevanceJudgments.Query("cowos shortage",
            Map.of("term:cowos", 2, "signal:a", 2, "term:interposer", 1));

    @Test
    void aPerfectOrderScoresOne() {
        RelevanceJudgments.Scored s = RelevanceJudgments.score(Q,
                List.of("term:cowos", "signal:a", "term:interposer", "x"));
        assertThat(s.ndcg()).isCloseTo(1.0, within(1e-9));
        assertThat(s.rr()).isEqualTo(1.0);
        assertThat(s.bestFirst()).isTrue();
    }

    @Test
    void theIdealIsOverEveryJudgedAnswerSoAShortListDoesNotScoreHigher() {
        // Only the one grade-1 answer: ideal over the returned list would make this 1.0.
        RelevanceJudgments.Scored shortList = RelevanceJudgments.score(Q, List.of("term:interposer"));
        double ideal = 3 + 3 / log2(3) + 1 / log2(4);
        assertThat(shortList.ndcg()).isCloseTo(1 / ideal, within(1e-9));
        RelevanceJudgments.Scored longer = RelevanceJudgments.score(Q, List.of("term:interposer", "x", "term:cowos"));
        assertThat(longer.ndcg()).isGreaterThan(shortList.ndcg());
        assertThat(shortList.bestFirst()).isFalse();
        assertThat(shortList.rr()).isEqualTo(1.0);
    }

    @Test
    void reciprocalRankAndEmptyAnswers() {
        assertThat(RelevanceJudgments.score(Q, List.of("x", "y", "signal:a")).rr()).isCloseTo(1 / 3.0, within(1e-9));
        RelevanceJudgments.Scored none = RelevanceJudgments.score(Q, List.of());
        assertThat(none.empty()).isTrue();
        assertThat(none.ndcg()).isZero();
        assertThat(none.bestFirst()).isFalse();
        // Beyond the tenth answer nothing counts.
        List<String> late = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            late.add("x" + i);
        }
        late.add("term:cowos");
        assertThat(RelevanceJudgments.score(Q, late).ndcg()).isZero();
    }

    @Test
    void measureAveragesOverQueries() {
        RelevanceJudgments set = RelevanceJudgments
            .parse(List.of("# c", "q: a", "2 term:a", "", "q: b", "2 term:b", "1 term:c"));
        RelevanceJudgments.Report r = set.measure(q -> q.equals("a") ? List.of("term:a") : List.of());
        assertThat(r.ndcg()).isCloseTo(0.5, within(1e-9));
        assertThat(r.mrr()).isCloseTo(0.5, within(1e-9));
        assertThat(r.bestFirst()).isCloseTo(0.5, within(1e-9));
        assertThat(r.empty()).isEqualTo(1);
    }

    @Test
    void malformedSetsAreRefused() {
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("2 term:a"))).hasMessageContaining("line 1");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "3 term:a"))).hasMessageContaining("line 2");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a"))).hasMessageContaining("no judged answer");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "2 x", "1 x"))).hasMessageContaining("twice");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "2 x", "q: A", "2 y")))
            .hasMessageContaining("twice");
    }

    @Test
    void theBundledSetsParseAndAreLargeEnough() {
        assertThat(RelevanceJudgments.load("/search/relevance/judged.txt").queries()).hasSizeGreaterThanOrEqualTo(80);
        assertThat(RelevanceJudgments.load("/search/relevance/held-out.txt").queries()).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void everyJudgedAnswerExistsInTheBundledCorpusAndHistory() {
        io.chainfeed.ingest.corpus.Corpus corpus = io.chainfeed.ingest.corpus.Corpus.loadBundled();
        java.util.Set<String> known = new java.util.HashSet<>();
        corpus.terms().forEach(t -> known.add("term:" + t.slug()));
        corpus.companies().forEach(c -> known.add("company:" + c.getId()));
        corpus.layers().forEach(l -> known.add("layer:" + l.getId()));
        io.chainfeed.ingest.corpus.History.loadBundled(corpus).signals().forEach(s -> known.add("signal:" + s.getId()));
        for (String set : List.of("/search/relevance/judged.txt", "/search/relevance/held-out.txt")) {
            for (RelevanceJudgments.Query q : RelevanceJudgments.load(set).queries()) {
                assertThat(q.grades().keySet()).as("%s: '%s'", set, q.text()).isSubsetOf(known);
                assertThat(q.best()).as("%s: '%s' has a best answer", set, q.text()).isEqualTo(2);
            }
        }
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

}
