package io.chainfeed.ingest.decide;

import static io.chainfeed.ingest.decide.FigureChanges.Change.FALL;
import static io.chainfeed.ingest.decide.FigureChanges.Change.RISE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FigureChangesTest {

    @Test
    void readsEachFormOfBeforeAndAfter() {
        assertThat(FigureChanges.in("Quoted lead time falls from 40 weeks to 26 weeks")).containsExactly(FALL);
        assertThat(FigureChanges.in("Contract price went from $8.50 to $11 a unit")).containsExactly(RISE);
        assertThat(FigureChanges.in("Switch delivery 22 wks, was 35")).containsExactly(FALL);
        assertThat(FigureChanges.in("Spot quotes at 1,250 vs 980 in March")).containsExactly(RISE);
        assertThat(FigureChanges.in("Backlog 3.2bn, down from 4.1bn")).containsExactly(FALL);
        assertThat(FigureChanges.in("Utilisation 91% (up from 78%)")).containsExactly(RISE);
        assertThat(FigureChanges.in("Allocation 60% -> 85%")).containsExactly(RISE);
        assertThat(FigureChanges.in("Module prices +15% in second-half deals")).containsExactly(RISE);
        assertThat(FigureChanges.in("Module prices -20 % after the glut")).containsExactly(FALL);
    }

    @Test
    void readsDatedPairsEarlierFirstAndHedgedOrWordedFigures() {
        assertThat(FigureChanges.in("Wholesale rate: $96/MWh in January, $81/MWh in May")).containsExactly(FALL);
        assertThat(FigureChanges.in("Spare racks: 1.5% a year ago, 4.2% now")).containsExactly(RISE);
        assertThat(FigureChanges.in("Interposer output 40k at end-2025, 72k now")).containsExactly(RISE);
        assertThat(FigureChanges.in("Board lead time: 12-week lead in February, 20 weeks in May"))
            .containsExactly(RISE);
        assertThat(FigureChanges.in("Queue of 2,400 in March, zero in June")).containsExactly(FALL);
        assertThat(FigureChanges.in("Deliveries now take 6 weeks instead of 20")).containsExactly(FALL);
        assertThat(FigureChanges.in("The waiting list fell from about 500 to 60 over the quarter"))
            .containsExactly(FALL);
    }

    @Test
    void noChangeWithoutAComparison() {
        assertThat(FigureChanges.in("Orders rose 5% from 120 customers")).isEmpty();
        assertThat(FigureChanges.in("Lead times of 52 weeks for transformers")).isEmpty();
        assertThat(FigureChanges.in("Prices steady at 40 vs 40")).isEmpty();
        assertThat(FigureChanges.in("The 2025-26 plan")).isEmpty();
        assertThat(FigureChanges.in("")).isEmpty();
    }

    @Test
    void featuresCrossTheMoveWithTheSentencesWordsButNotItsNumbers() {
        List<String> names = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        FigureChanges.features("Transformer wait 70 wks, was 120",
                ReaderFeatures.sentences("Buyers welcomed it. No figures here."), names, values);
        assertThat(names).contains("f.fall", "f.fall_transform", "f.fall_wait")
            .doesNotContain("f.rise", "f.fall_70", "f.fall_120", "f.fall_buyer");
        assertThat(values).containsOnly(1.0);
        names.clear();
        FigureChanges.features("Nothing moved", ReaderFeatures.sentences(""), names, values);
        assertThat(names).isEmpty();
    }

}
