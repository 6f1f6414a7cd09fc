package io.chainfeed.ingest.decide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.corpus.Corpus;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The learned reader's parts one at a time: the labelled-set reader, the word features,
 * how {@link NewsDecider} joins a reading to the rules' decision, the scoring and version
 * of {@link ReaderTraining}, and the bundled reader itself.
 */
class NewsReaderTest {

    static final Instant OBSERVED = Instant.parse("2026-06-15T00:00:00Z");

    private static SignalDecider rules;

    private static NewsDecider decider;

    @BeforeAll
    static void load() {
        rules = SignalDecider.of(Corpus.loadBundled());
        decider = new NewsDecider(rules, NewsReader.bundled());
    }

    @Test
    void labelledItemsAreReadWithCommentsBodiesAndSources() {
        List<LabelledItem> items = LabelledItem.read(new StringReader("""
                # a comment
                1\tT\tmemory\t+40w\ttight,weeks\tDRAM lead time: 40 weeks\tBuyers say so.\thttps://example.com/a

                0\t-\t-\t-\tirrelevant\tA chipmaker names a new chief executive
                """));
        assertThat(items).hasSize(2);
        assertThat(items.get(0)).satisfies(i -> {
            assertThat(i.relevant()).isTrue();
            assertThat(i.direction()).isEqualTo(Direction.TIGHTENING);
            assertThat(i.layer()).isEqualTo("memory");
            assertThat(i.until()).isEqualTo("+40w");
            assertThat(i.tags()).containsExactly("tight", "weeks");
            assertThat(i.body()).isEqualTo("Buyers say so.");
            assertThat(i.line()).isEqualTo(2);
        });
        assertThat(items.get(1)).satisfies(i -> {
            assertThat(i.relevant()).isFalse();
            assertThat(i.direction()).isNull();
            assertThat(i.layer()).isNull();
            assertThat(i.body()).isEmpty();
        });
    }

    @Test
    void aBadRowIsRefusedWithItsLine() {
        assertThatThrownBy(() -> LabelledItem.read(new StringReader("1\tX\tmemory\t-\ttight\tHeadline\n")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("line 1")
            .hasMessageContaining("direction");
        assertThatThrownBy(() -> LabelledItem.read(new StringReader("1\tT\tmemory\n"))).hasMessageContaining("columns");
    }

    @Test
    void wordFeaturesAreStemmedUnigramsAndBigramsWithTheHeadlineAgain() {
        List<String> names = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        ReaderFeatures.words("Lead times shorten", "No longer short.", names, values);
        assertThat(names)
            .contains("hw.lead_time", "hw.shorten", "w.lead_time", "w.time_shorten", "w.no_longer", "w.longer_short")
            .doesNotHaveDuplicates()
            .doesNotContain("w.shorten_no");
        assertThat(values).containsOnly(1.0);
    }

    @Test
    void theReadersSkipOfARuleAcceptedItemSaysTheReaderDecided() {
        Decision ruled = rules.decide("Memory prices rise as HBM runs short", "", OBSERVED);
        assertThat(ruled.relevant()).isTrue();
        NewsReader.Reading skip = new NewsReader.Reading(false, 0.2, Direction.TIGHTENING, 0.9, "memory", 0.9,
                new Decision.Span("headline", 0, 6, "Memory", "model: weighed most"));
        Decision d = decider.combine(ruled, skip, "Memory prices rise as HBM runs short", "", OBSERVED);
        assertThat(d.relevant()).isFalse();
        assertThat(d.skipReason()).isEqualTo(NewsDecider.READER_SKIP);
        assertThat(d.reader()).isEqualTo(Decision.NEWS_READER);
        assertThat(d.readerVersion()).startsWith("news-reader-");
        assertThat(d.confidence()).isEqualTo(0.8);
        assertThat(decider.skipReasons()).contains(NewsDecider.READER_SKIP).containsAll(rules.skipReasons());
    }

    @Test
    void whenBothSkipTheRulesReasonStays() {
        Decision ruled = rules.decide("Nvidia names a new chief financial officer", "", OBSERVED);
        NewsReader.Reading skip = new NewsReader.Reading(false, 0.1, Direction.TIGHTENING, 0.6, "accelerators", 0.5,
                new Decision.Span("headline", 0, 6, "Nvidia", "model: weighed most"));
        Decision d = decider.combine(ruled, skip, "Nvidia names a new chief financial officer", "", OBSERVED);
        assertThat(d.skipReason()).isEqualTo(ruled.skipReason()).isEqualTo("appointment");
    }

    @Test
    void agreeingWithTheRulesKeepsTheirMagnitudeHorizonAndTheLowerConfidence() {
        String headline = "DRAM prices may rise next quarter even as new memory lines come online";
        Decision ruled = rules.decide(headline, "", OBSERVED);
        assertThat(ruled.confidence()).isLessThan(0.6);
        NewsReader.Reading same = new NewsReader.Reading(true, 0.9, ruled.direction(), 0.95, "memory", 0.95,
                new Decision.Span("headline", 0, headline.length(), headline, "model: weighed most"));
        Decision d = decider.combine(ruled, same, headline, "", OBSERVED);
        assertThat(d.magnitude()).isEqualTo(ruled.magnitude());
        assertThat(d.until()).isEqualTo(ruled.until());
        assertThat(d.confidence()).isEqualTo(ruled.confidence());
        assertThat(d.directionEvidence()).containsAll(ruled.directionEvidence()).contains(same.weightiest());
    }

    @Test
    void disagreeingTakesTheReadersDirectionAndLayerWithItsOwnHorizon() {
        String headline = "Transformer lead time: 120 weeks";
        String body = "Utilities ordering now get delivery slots through 2028.";
        Decision ruled = rules.decide(headline, body, OBSERVED);
        NewsReader.Reading read = new NewsReader.Reading(true, 0.9, Direction.TIGHTENING, 0.8, "energy-power", 0.9,
                new Decision.Span("headline", 0, headline.length(), headline, "model: weighed most"));
        Decision d = decider.combine(ruled.relevant() ? rules.decide("", "", OBSERVED) : ruled, read, headline, body,
                OBSERVED);
        assertThat(d.relevant()).isTrue();
        assertThat(d.direction()).isEqualTo(Direction.TIGHTENING);
        assertThat(d.primaryLayers()).containsExactly("energy-power");
        assertThat(d.magnitude()).isEqualTo(NewsDecider.READER_MAGNITUDE);
        assertThat(d.until()).isEqualTo(Instant.parse("2029-01-01T00:00:00Z"));
        assertThat(d.untilEvidence()).singleElement().satisfies(s -> assertThat(s.field()).isEqualTo("body"));
        assertThat(d.confidence()).isEqualTo(0.72);
    }

    @Test
    void scoringCountsPrecisionRecallDirectionAndLayerOverTheRelevant() {
        LabelledItem tight = new LabelledItem(1, true, Direction.TIGHTENING, "memory", null, List.of("tight"), "a", "");
        LabelledItem ease = new LabelledItem(2, true, Direction.EASING, "foundry", null, List.of("ease"), "b", "");
        LabelledItem none = new LabelledItem(3, false, null, null, null, List.of("irrelevant"), "c", "");
        List<ReaderTraining.Prepared> items = List.of(new ReaderTraining.Prepared(tight, null, null, null),
                new ReaderTraining.Prepared(ease, null, null, null),
                new ReaderTraining.Prepared(none, null, null, null));
        ReaderTraining.Figures f = ReaderTraining.score(items, p -> switch (p.item().line()) {
            case 1 -> new ReaderTraining.Verdict(true, Direction.TIGHTENING, "memory");
            case 2 -> new ReaderTraining.Verdict(true, Direction.TIGHTENING, "foundry");
            default -> new ReaderTraining.Verdict(true, Direction.EASING, "memory");
        });
        assertThat(f.precision()).isEqualTo(2.0 / 3);
        assertThat(f.recall()).isEqualTo(1.0);
        assertThat(f.direction()).isEqualTo(0.5);
        assertThat(f.layer()).isEqualTo(1.0);
        assertThat(f.perTag().get("tight")).containsExactly(1, 1);
        assertThat(f.perTag().get("ease")).containsExactly(0, 1);
        assertThat(f.perTag().get("irrelevant")).containsExactly(0, 1);
    }

    @Test
    void theVersionIsTheTrainingSetsHash() {
        assertThat(ReaderTraining.version(List.of("a", "b"))).isEqualTo(ReaderTraining.version(List.of("a", "b")))
            .isNotEqualTo(ReaderTraining.version(List.of("a", "c")))
            .matches("news-reader-[0-9a-f]{12}");
    }

    @Test
    void theBundledReaderDecidesAndNamesTheSentenceThatWeighedMost() {
        String headline = "Substrate makers add capacity";
        String body = "Two new plants opened this spring. Lead times for ABF substrates have shortened to eight weeks.";
        Decision d = decider.decide(headline, body, OBSERVED);
        assertThat(d.reader()).isEqualTo(Decision.NEWS_READER);
        assertThat(d.relevant()).isTrue();
        assertThat(d.direction()).isEqualTo(Direction.EASING);
        Decision.Span weighed = d.directionEvidence().get(d.directionEvidence().size() - 1);
        assertThat(weighed.rule()).isEqualTo("model: weighed most");
        String field = weighed.field().equals("headline") ? headline : body;
        assertThat(field.substring(weighed.offset(), weighed.offset() + weighed.length())).isEqualTo(weighed.text());
        assertThat(decider.decide(headline, body, OBSERVED)).isEqualTo(d);
    }

}
