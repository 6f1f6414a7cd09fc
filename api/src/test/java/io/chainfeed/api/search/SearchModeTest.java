package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The mode as the answer and the cursor write it. */
class SearchModeTest {

    @Test
    void theAnswerAndTheCursorWriteAllOrAny() {
        assertThat(SearchMode.ALL.text()).isEqualTo("all");
        assertThat(SearchMode.ANY.text()).isEqualTo("any");
        assertThat(SearchMode.of(true)).isEqualTo(SearchMode.ALL);
        assertThat(SearchMode.of(false)).isEqualTo(SearchMode.ANY);
        assertThat(SearchMode.ofText("all")).isEqualTo(SearchMode.ALL);
        assertThat(SearchMode.ofText("any")).isEqualTo(SearchMode.ANY);
    }

}
