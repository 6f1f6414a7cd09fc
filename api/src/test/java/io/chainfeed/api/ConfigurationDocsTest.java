package io.chainfeed.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.testsupport.ConfigurationDocs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md names every setting of this service, and only those, with the
 * defaults its settings records declare (the configuration processor's metadata).
 */
class ConfigurationDocsTest {

    @Test
    void theDocumentMatchesTheSettingsRecords() {
        assertThat(ConfigurationDocs.problems(Path.of("..", "docs", "configuration.md"),
                List.of("chainfeed.api.", "chainfeed.widget.", "chainfeed.webhooks.", "chainfeed.rate-limits.")))
            .as("docs/configuration.md against this service's settings records")
            .isEmpty();
    }

}
