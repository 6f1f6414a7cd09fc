package io.chainfeed.api.reads;

import static io.chainfeed.api.support.problem.ProblemMatchers.problem;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.chainfeed.api.StoredDocuments;
import io.chainfeed.api.support.settings.ApiProperties;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The read endpoint in a web slice: the search is a Mockito stand-in, the JSON and
 * problems are real.
 */
@WebMvcTest(ReadController.class)
class ReadControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ReadLookups search;

    @Autowired
    ApiProperties settings;

    @Test
    void aStoredReadComesBackWithItsTagsAndEvidenceKept() throws Exception {
        when(search.get("term:hbm")).thenReturn(Optional.of(StoredDocuments.doc(Map.of("id", "term:hbm", "kind", "term",
                "slug", "hbm", "title", "HBM", "version", 3L, "layers", List.of(Map.of("id", "memory", "name", "Memory",
                        "confidence", 0.9, "evidence", List.of(Map.of("text", "HBM"))))))));

        mvc.perform(get("/api/v1/reads/term:hbm"))
            .andExpect(status().isOk())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
            .andExpect(jsonPath("$.id").value("term:hbm"))
            .andExpect(jsonPath("$.title").value("HBM"))
            .andExpect(jsonPath("$.version").value(3))
            .andExpect(jsonPath("$.layers[0].id").value("memory"))
            .andExpect(jsonPath("$.layers[0].evidence[0].text").value("HBM"))
            .andExpect(jsonPath("$.previousVersion").doesNotExist())
            .andExpect(jsonPath("$.changes").isEmpty());
    }

    @Test
    void anUnknownIdIsANotFoundProblem() throws Exception {
        when(search.get("term:nope")).thenReturn(Optional.empty());

        mvc.perform(get("/api/v1/reads/term:nope"))
            .andExpect(problem(404, "not-found", "no read with id 'term:nope'"))
            .andExpect(jsonPath("$.title").value("Not found"));
    }

    @Test
    void anUnreachableSearchEngineIsAServiceUnavailableProblemWithoutItsInternals() throws Exception {
        when(search.get("term:hbm")).thenThrow(new IOException("Connection refused: 127.0.0.1:9200"));

        mvc.perform(get("/api/v1/reads/term:hbm"))
            .andExpect(problem(503, "search-unavailable", "The search engine cannot be reached; try again shortly."));
    }

    @Test
    void relatedReadsComeMostSimilarFirstWithWhereToOpenThem() throws Exception {
        when(search.closest("term:hbm", 5, settings.search().hybrid().minSimilarity()))
            .thenReturn(
                    Optional
                        .of(List.of(
                                new ReadLookups.Closest(StoredDocuments.doc(Map.of("id", "term:dram", "kind", "term",
                                        "slug", "dram", "title", "DRAM", "summary", "Main memory.")), 0.81234),
                                new ReadLookups.Closest(
                                        StoredDocuments.doc(Map.of("id", "signal:s1", "kind", "signal", "slug", "s1",
                                                "title", "HBM sold out", "observedAt", "2026-11-20T00:00:00Z")),
                                        0.5))));

        mvc.perform(get("/api/v1/reads/term:hbm/related"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.id").value("term:hbm"))
            .andExpect(jsonPath("$.related[0].id").value("term:dram"))
            .andExpect(jsonPath("$.related[0].similarity").value(0.812))
            .andExpect(jsonPath("$.related[0].page").value("/terms/dram"))
            .andExpect(jsonPath("$.related[1].page").value("/api/v1/reads/signal%3As1"))
            .andExpect(jsonPath("$.related[1].observedAt").value("2026-11-20T00:00:00Z"));
    }

    @Test
    void relatedReadsOfAnUnknownReadAreNotFoundAndASizeOutOfRangeIsRefused() throws Exception {
        when(search.closest("term:nope", 5, settings.search().hybrid().minSimilarity())).thenReturn(Optional.empty());

        mvc.perform(get("/api/v1/reads/term:nope/related"))
            .andExpect(problem(404, "not-found", "no read with id 'term:nope'"));
        mvc.perform(get("/api/v1/reads/term:hbm/related?size=21")).andExpect(status().isBadRequest());
        mvc.perform(get("/api/v1/reads/term:hbm/related?size=0")).andExpect(status().isBadRequest());
    }

}
