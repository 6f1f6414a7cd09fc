package io.chainfeed.ingest;

import io.chainfeed.testsupport.ConfigurationDocs;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md names every setting of this service, and only those, with the
 * defaults its settings records declare (the configuration processor's metadata).
 */
class ConfigurationDocsTest {

    @Test
    void theDocumentMatchesTheSettingsRecords() {
        ConfigurationDocs.assertDocumented("chainfeed.ingest.", "chainfeed.kafka.");
    }

}
