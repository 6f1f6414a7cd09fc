package io.chainfeed.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class IndexSetupTest {

    @Test
    void indexNamesOfAnAliasAnswer() throws IOException {
        assertThat(IndexSetup.indexNames("{\"chainfeed-reads-v2\":{\"aliases\":{\"chainfeed-reads\":{}}},"
                + "\"chainfeed-reads-v1\":{\"aliases\":{\"chainfeed-reads\":{\"is_write_index\":true}}}}"))
            .containsExactly("chainfeed-reads-v1", "chainfeed-reads-v2");
        assertThat(IndexSetup.indexNames("{\"error\":\"alias [x] missing\",\"status\":404}")).isEmpty();
    }

    @Test
    void readsIndexDefinitionIsStrictWithNoReplicas() throws IOException {
        JsonNode root = new ObjectMapper().readTree(ReadsIndex.settingsAndMappings());
        assertThat(root.path("settings").path("number_of_replicas").asInt(-1)).isZero();
        assertThat(root.path("mappings").path("dynamic").asText()).isEqualTo("strict");
        assertThat(root.path("mappings").path("properties").path("id").path("type").asText()).isEqualTo("keyword");
    }

}
