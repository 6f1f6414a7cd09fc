package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The ranking rules' table: names and boosts. What the rules add to a query is checked by
 * the golden queries ({@code SearchQueryTest}).
 */
class RankingRuleTest {

    @Test
    void eachRuleHasItsOwnNameAndTheBoostOfItsName() {
        assertThat(Arrays.stream(RankingRule.values()).map(RankingRule::id)).doesNotHaveDuplicates()
            .allMatch(id -> id.matches("[a-z]+(-[a-z]+)*"));
        for (RankingRule r : RankingRule.values()) {
            assertThat(r.id()).isEqualTo(r.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        }
        assertThat(RankingRule.EXACT_TITLE.boost()).isEqualTo(Boosts.EXACT_TITLE);
        assertThat(RankingRule.NAMED_TERM.boost()).isEqualTo(Boosts.NAMED_TERM);
        assertThat(RankingRule.COMPANY_PRIMARY_LAYER_TERM.boost()).isEqualTo(Boosts.COMPANY_PRIMARY_LAYER_TERM);
    }

}
