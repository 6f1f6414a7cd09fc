package io.chainfeed.streams.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadChange;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadDocuments;
import io.chainfeed.schemas.SampleRecords;
import java.time.Instant;
import java.util.List;
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
        ReadDocument typed = ReadDocuments.toDocument(read);
        assertThat(typed.previousVersion()).isEqualTo(1L);
        assertThat(typed.changes())
            .containsExactly(new ReadDocument.Change("sections", "changed", "why_it_matters", "Why it matters"));
        JsonNode doc = new ObjectMapper().valueToTree(typed);
        JsonNode properties = new ObjectMapper().readTree(ReadsIndex.settingsAndMappings())
            .path("mappings")
            .path("properties");
        for (String field : (Iterable<String>) doc::fieldNames) {
            assertThat(properties.has(field)).as("mapping has %s", field).isTrue();
        }
        for (String sub : List.of("field", "change", "key", "detail")) {
            assertThat(properties.path("changes").path("properties").has(sub)).as("changes.%s", sub).isTrue();
        }
    }

}
