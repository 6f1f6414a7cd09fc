package io.chainfeed.streams.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadChange;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocuments;
import io.chainfeed.schemas.SampleRecords;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The documents the indexer writes fit the strict reads-index mapping, term history
 * included.
 */
class ReadDocumentsMappingTest {

    @Test
    void everyDocumentFieldIsInTheStrictMapping() throws Exception {
        Read read = SampleRecords.read("term:rdma", ReadKind.TERM, "RDMA", "s")
            .setDisclaimer("Research, not advice.")
            .setVersion(2)
            .setUpdatedAt(Instant.ofEpochMilli(2))
            .setPreviousVersion(1L)
            .setChanges(List.of(new ReadChange("sections", "changed", "why_it_matters", "Why it matters")))
            .build();
        Map<String, Object> doc = ReadDocuments.toDocument(read);
        assertThat(doc.get("previousVersion")).isEqualTo(1L);
        assertThat(doc.get("changes")).isEqualTo(List
            .of(Map.of("field", "sections", "change", "changed", "key", "why_it_matters", "detail", "Why it matters")));
        JsonNode properties = new ObjectMapper().readTree(ReadsIndex.settingsAndMappings())
            .path("mappings")
            .path("properties");
        for (String field : doc.keySet()) {
            assertThat(properties.has(field)).as("mapping has %s", field).isTrue();
        }
        for (String sub : List.of("field", "change", "key", "detail")) {
            assertThat(properties.path("changes").path("properties").has(sub)).as("changes.%s", sub).isTrue();
        }
    }

}
