package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.avro.Section;
import io.chainfeed.chain.history.History;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.page.GlossaryPageParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RelevanceJudgmentsTest {

    private static final String JUDGED = "/search/relevance/judged.txt";

    private static final String HELD_OUT = "/search/relevance/held-out.txt";

    private static final String HELD_OUT_PARAPHRASE = "/search/relevance/held-out-paraphrase.txt";

    /**
     * Words that carry no idea of their own, left out when a paraphrase query is compared
     * with its answers: articles, conjunctions, prepositions, pronouns, auxiliary and
     * modal verbs, question words and quantifiers. Every other word is a content word.
     */
    private static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "and", "or", "but", "nor", "so", "yet", "if",
            "then", "than", "that", "this", "these", "those", "there", "here", "of", "to", "in", "on", "at", "by",
            "for", "from", "with", "without", "into", "onto", "out", "over", "under", "up", "down", "off", "about",
            "above", "below", "between", "among", "through", "across", "after", "before", "during", "since", "until",
            "per", "via", "as", "like", "instead", "beside", "near", "within", "around", "against", "along", "behind",
            "upon", "toward", "towards", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did",
            "done", "have", "has", "had", "having", "can", "could", "will", "would", "shall", "should", "may", "might",
            "must", "it", "its", "itself", "they", "them", "their", "theirs", "we", "us", "our", "ours", "you", "your",
            "yours", "i", "me", "my", "he", "she", "him", "her", "his", "what", "which", "who", "whom", "whose", "when",
            "where", "why", "how", "whether", "not", "no", "any", "all", "some", "each", "every", "both", "either",
            "neither", "such", "other", "others", "own", "same", "more", "most", "much", "many", "few", "less", "least",
            "very", "too", "also", "just", "only", "still", "even", "again", "once", "ever", "else", "s", "t", "vs",
            "versus");

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
    void tagsAreKeptAndTaggedQueriesMeasuredApart() {
        RelevanceJudgments set = RelevanceJudgments.parse(List.of("q: a", "tag: paraphrase", "2 term:a", "q: b",
                "tag: paraphrase", "tag: x-1", "2 term:b", "q: c", "2 term:c"));
        assertThat(set.queries()).extracting(RelevanceJudgments.Query::tags)
            .containsExactly(Set.of("paraphrase"), Set.of("paraphrase", "x-1"), Set.of());
        assertThat(set.withTag(RelevanceJudgments.PARAPHRASE).queries()).extracting(RelevanceJudgments.Query::text)
            .containsExactly("a", "b");
        assertThat(set.withoutTag(RelevanceJudgments.PARAPHRASE).queries()).extracting(RelevanceJudgments.Query::text)
            .containsExactly("c");
        assertThat(set.withTag("x-1").measure(q -> List.of("term:" + q)).ndcg()).isCloseTo(1.0, within(1e-9));
        assertThat(set.withTag("none").queries()).isEmpty();
    }

    @Test
    void malformedSetsAreRefused() {
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("tag: paraphrase", "q: a", "2 x")))
            .hasMessageContaining("line 1");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "2 x", "tag: paraphrase")))
            .hasMessageContaining("line 3");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "tag: two words", "2 x")))
            .hasMessageContaining("line 2");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "tag: p", "tag: p", "2 x")))
            .hasMessageContaining("line 3");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("2 term:a"))).hasMessageContaining("line 1");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "3 term:a"))).hasMessageContaining("line 2");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a"))).hasMessageContaining("no judged answer");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "2 x", "1 x"))).hasMessageContaining("twice");
        assertThatThrownBy(() -> RelevanceJudgments.parse(List.of("q: a", "2 x", "q: A", "2 y")))
            .hasMessageContaining("twice");
    }

    @Test
    void theBundledSetsParseAndAreLargeEnough() {
        RelevanceJudgments judged = RelevanceJudgments.load(JUDGED);
        assertThat(judged.queries()).hasSizeGreaterThanOrEqualTo(120);
        assertThat(judged.withTag(RelevanceJudgments.PARAPHRASE).queries()).hasSizeGreaterThanOrEqualTo(30);
        assertThat(RelevanceJudgments.load(HELD_OUT).queries()).hasSizeGreaterThanOrEqualTo(20);
        RelevanceJudgments heldOutParaphrase = RelevanceJudgments.load(HELD_OUT_PARAPHRASE);
        assertThat(heldOutParaphrase.queries()).hasSizeGreaterThanOrEqualTo(12);
        assertThat(heldOutParaphrase.withoutTag(RelevanceJudgments.PARAPHRASE).queries())
            .as("held-out paraphrase queries without the paraphrase tag")
            .isEmpty();
    }

    @Test
    void everyJudgedAnswerExistsInTheBundledCorpusAndHistory() {
        Corpus corpus = Corpus.loadBundled();
        Set<String> known = new HashSet<>();
        corpus.terms().forEach(t -> known.add("term:" + t.slug()));
        corpus.companies().forEach(c -> known.add("company:" + c.getId()));
        corpus.layers().forEach(l -> known.add("layer:" + l.getId()));
        History.loadBundled(corpus.reference()).signals().forEach(s -> known.add("signal:" + s.getId()));
        for (String set : List.of(JUDGED, HELD_OUT, HELD_OUT_PARAPHRASE)) {
            for (RelevanceJudgments.Query q : RelevanceJudgments.load(set).queries()) {
                assertThat(q.grades().keySet()).as("%s: '%s'", set, q.text()).isSubsetOf(known);
                assertThat(q.best()).as("%s: '%s' has a best answer", set, q.text()).isEqualTo(2);
            }
        }
    }

    /**
     * The rule of a paraphrase query: no content word of the query is a word of the
     * title, aliases or plain-English text of an answer it grades 2. Those texts are, for
     * a term, its title, aliases, one-line definition and "What it means" section; for a
     * signal, its headline and body; for a company, its name and aliases; for a layer,
     * its name, aliases and summary. Words are compared lowercased (split at anything but
     * a letter or digit) after {@link #forms}.
     */
    @Test
    void paraphraseQueriesShareNoContentWordWithTheirBestAnswers() {
        Map<String, String> texts = answerTexts(Corpus.loadBundled());
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (String set : List.of(JUDGED, HELD_OUT_PARAPHRASE)) {
            for (RelevanceJudgments.Query q : RelevanceJudgments.load(set)
                .withTag(RelevanceJudgments.PARAPHRASE)
                .queries()) {
                for (Map.Entry<String, Integer> answer : q.grades().entrySet()) {
                    if (answer.getValue() != 2) {
                        continue;
                    }
                    assertThat(texts).as("%s: '%s'", set, q.text()).containsKey(answer.getKey());
                    Set<String> shared = shared(q.text(), texts.get(answer.getKey()));
                    if (!shared.isEmpty()) {
                        broken.add(set + ": '" + q.text() + "' and " + answer.getKey() + " share " + shared);
                    }
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThanOrEqualTo(42);
        assertThat(broken).as("paraphrase queries sharing a content word with a best answer").isEmpty();
    }

    @Test
    void theLightStemMeetsPluralsAndVerbForms() {
        assertThat(shared("placed tiles", "a place for a tile")).containsExactly("placed", "tiles");
        assertThat(shared("wrapped", "it wraps")).containsExactly("wrapped");
        assertThat(shared("batteries supplied", "a battery supplies")).containsExactly("batteries", "supplied");
        assertThat(shared("speeds running", "speed runs")).containsExactly("running", "speeds");
        assertThat(shared("what is the gas for", "gases")).containsExactly("gas");
        assertThat(shared("the chips", "a wafer")).isEmpty();
    }

    /**
     * @param query a query
     * @param text an answer's text
     * @return the query's content words (as written, lowercased) that some word of the
     * text meets: both have a form in common
     */
    private static Set<String> shared(String query, String text) {
        Set<String> textForms = new HashSet<>();
        words(text).forEach(w -> textForms.addAll(forms(w)));
        Set<String> out = new TreeSet<>();
        for (String w : words(query)) {
            if (forms(w).stream().anyMatch(textForms::contains)) {
                out.add(w);
            }
        }
        return out;
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!w.isEmpty() && !STOP_WORDS.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    /**
     * The forms a word is compared by: the word, its light stem, and the stem without a
     * final "e" (so "placed", "places" and "place" meet at "plac").
     */
    private static Set<String> forms(String word) {
        String stem = stem(word);
        Set<String> out = new HashSet<>(List.of(word, stem));
        if (stem.length() > 2 && stem.endsWith("e")) {
            out.add(stem.substring(0, stem.length() - 1));
        }
        return out;
    }

    /**
     * The light stem: "-ies"/"-ied" become "-y", then the first of "-ing", "-ed", "-es",
     * "-s" (not "-ss") that fits is taken off, a doubled final consonant after "-ing" or
     * "-ed" losing one letter ("wrapped" to "wrap"; not l, s or z: "installed" to
     * "install").
     */
    private static String stem(String w) {
        int n = w.length();
        if (n > 4 && (w.endsWith("ies") || w.endsWith("ied"))) {
            return w.substring(0, n - 3) + "y";
        }
        if (n > 5 && w.endsWith("ing")) {
            return undouble(w.substring(0, n - 3));
        }
        if (n > 3 && w.endsWith("ed")) {
            return undouble(w.substring(0, n - 2));
        }
        if (n > 4 && w.endsWith("es")) {
            return w.substring(0, n - 2);
        }
        if (n > 3 && w.endsWith("s") && !w.endsWith("ss")) {
            return w.substring(0, n - 1);
        }
        return w;
    }

    private static String undouble(String w) {
        int n = w.length();
        if (n > 2 && w.charAt(n - 1) == w.charAt(n - 2) && "aeiouslz".indexOf(w.charAt(n - 1)) < 0) {
            return w.substring(0, n - 1);
        }
        return w;
    }

    /**
     * @param corpus the bundled corpus
     * @return every answer id of the corpus and its history with the text a paraphrase
     * query must not share a content word with
     */
    private static Map<String, String> answerTexts(Corpus corpus) {
        Map<String, String> out = new HashMap<>();
        corpus.terms().forEach(t -> {
            assertThat(t.sections()).as("sections of term %s", t.slug())
                .extracting(Section::getKey)
                .contains(GlossaryPageParser.WHAT_KEY);
            List<String> parts = new ArrayList<>(t.aliases());
            parts.add(t.title());
            parts.add(t.definition());
            t.sections()
                .stream()
                .filter(s -> s.getKey().equals(GlossaryPageParser.WHAT_KEY))
                .map(Section::getBody)
                .forEach(parts::add);
            out.put("term:" + t.slug(), String.join(" ", parts));
        });
        corpus.companies()
            .forEach(c -> out.put("company:" + c.getId(), c.getName() + " " + String.join(" ", c.getAliases())));
        corpus.layers()
            .forEach(l -> out.put("layer:" + l.getId(),
                    l.getName() + " " + String.join(" ", l.getAliases()) + " " + l.getSummary()));
        History.loadBundled(corpus.reference())
            .signals()
            .forEach(s -> out.put("signal:" + s.getId(), s.getHeadline() + " " + s.getBody()));
        return out;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

}
