package io.chainfeed.api;

import io.chainfeed.testsupport.ConfigurationDocs;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md names every setting of this service, and only those, with the
 * defaults its settings records declare (the configuration processor's metadata).
 */
class ConfigurationDocsTest {

    @Test
    void theDocumentMatchesTheSettingsRecords() {
        ConfigurationDocs.assertDocumented("chainfeed.api.", "chainfeed.widget.", "chainfeed.webhooks.",
                "chainfeed.rate-limits.");
    }

}
