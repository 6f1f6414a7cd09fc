package io.chainfeed.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link ConfigurationDocs} reads the rows of docs/configuration.md. */
class ConfigurationDocsRowsTest {

    @Test
    void aGroupRowNamesEachSettingInFullWithItsDefault() {
        List<ConfigurationDocs.Row> rows = ConfigurationDocs
            .rows("| `chainfeed.api.es.breaker.window` / `.minimum-calls` / `slow-call` | `10` / `3` / `60s` | x |\n");
        assertThat(rows).containsExactly(new ConfigurationDocs.Row(List.of("chainfeed.api.es.breaker.window",
                "chainfeed.api.es.breaker.minimum-calls", "chainfeed.api.es.breaker.slow-call"),
                List.of("10", "3", "60s")));
    }

    @Test
    void proseDefaultsAreNotComparedAndListsStandForTheirOwnName() {
        List<ConfigurationDocs.Row> rows = ConfigurationDocs
            .rows("| setting | default | meaning |\n| --- | --- | --- |\n"
                    + "| `chainfeed.ingest.feeds[N].url` / `.name` | none / none | feeds |\n"
                    + "| `chainfeed.api.warmup.duration` | `0s` (`30s` in `./chainfeed run`) | a \\| b |\n");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).names()).containsExactly("chainfeed.ingest.feeds", "chainfeed.ingest.feeds");
        assertThat(rows.get(0).defaults()).containsExactly(null, null);
        assertThat(rows.get(1).defaults()).containsExactly("0s");
    }

    @Test
    void whenTheCountsDifferNoDefaultIsRead() {
        List<ConfigurationDocs.Row> rows = ConfigurationDocs.rows("| `chainfeed.a.b` / `.c` | `1` | x |\n");
        assertThat(rows.get(0).defaults()).isEmpty();
        assertThat(Arrays.asList(rows.get(0).names().toArray())).containsExactly("chainfeed.a.b", "chainfeed.a.c");
    }

    @Test
    void aListDefaultReadsAsAPropertyValue() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertThat(ConfigurationDocs.defaultText(json.readTree("\"[127.0.0.0/8, ::1]\""))).isEqualTo("127.0.0.0/8,::1");
        assertThat(ConfigurationDocs.defaultText(json.readTree("[\"a\", \"b\"]"))).isEqualTo("a,b");
        assertThat(ConfigurationDocs.defaultText(json.readTree("\"5s\""))).isEqualTo("5s");
        assertThat(ConfigurationDocs.defaultText(null)).isNull();
    }

}
