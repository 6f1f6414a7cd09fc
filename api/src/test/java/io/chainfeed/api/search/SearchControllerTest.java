package io.chainfeed.api.search;

import static io.chainfeed.api.support.problem.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.chainfeed.api.StoredDocuments;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.schemas.ReadDocument;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Parameter checks, filters and the answer's shape of {@code GET /api/v1/search}, in a
 * web slice.
 */
@WebMvcTest(SearchController.class)
@org.springframework.context.annotation.Import(QueryAnalyser.class)
class SearchControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ReadSearch search;

    /**
     * Reference data not loaded yet: every company name passes through as written
     * (SearchController's rule).
     */
    @TestConfiguration
    static class NotLoadedCompanies {

        @Bean
        CompanyResolver companies() {
            return new CompanyResolver(CompanyDirectory::empty, () -> false);
        }

    }

    @MockitoBean
    SearchCatalog catalog;

    @MockitoBean
    io.chainfeed.api.reference.ReferenceLayers layers;

    @MockitoBean
    TopResults tops;

    @MockitoBean
    io.chainfeed.api.chain.ChainStates chain;

    @Test
    void aPageOfMatchesCarriesScoresSnippetsFacetsAndTheCursor() throws Exception {
        ReadDocument doc = StoredDocuments.doc(Map.of("id", "term:hbm", "kind", "term", "title", "HBM", "layers",
                List.of(Map.of("id", "memory", "evidence", List.of(Map.of("text", "HBM"))))));
        when(search.search(argThat(a -> a.text().equals("hbm")), any(), eq(10), isNull(), eq(false),
                eq(ReadSearch.Ranking.HYBRID)))
            .thenReturn(new ReadSearch.Page(1,
                    List.of(new ReadSearch.Match(doc, 4.5, List.of("<mark>HBM</mark> stacks"), "summary")),
                    Map.of("layer", List.of(new ReadSearch.FacetValue("memory", "Memory", 1))), "c2", SearchMode.ALL,
                    7));

        mvc.perform(get("/api/v1/search").param("q", "hbm"))
            .andExpect(status().isOk())
            .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
            .andExpect(jsonPath("$.query").value("hbm"))
            .andExpect(jsonPath("$.total").value(1))
            .andExpect(jsonPath("$.mode").value("all"))
            .andExpect(jsonPath("$.results[0].id").value("term:hbm"))
            .andExpect(jsonPath("$.results[0].score").value(4.5))
            .andExpect(jsonPath("$.results[0].snippets[0]").value("<mark>HBM</mark> stacks"))
            .andExpect(jsonPath("$.results[0].bestSection").value("summary"))
            // evidence only on request
            .andExpect(jsonPath("$.results[0].layers[0].id").value("memory"))
            .andExpect(jsonPath("$.results[0].layers[0].evidence").doesNotExist())
            .andExpect(jsonPath("$.facets.layer[0].count").value(1))
            .andExpect(jsonPath("$.nextCursor").value("c2"))
            .andExpect(jsonPath("$.tookMs").value(7));
    }

    @Test
    void filtersAreTrimmedDeduplicatedAndDatesReadAsUtcDays() throws Exception {
        when(search.search(any(), any(), anyInt(), any(), anyBoolean(), any()))
            .thenReturn(new ReadSearch.Page(0, List.of(), Map.of(), null, SearchMode.ANY, 1));

        mvc.perform(get("/api/v1/search").param("q", "dram")
            .param("layer", " memory", "memory", " ")
            .param("company", "MU")
            .param("primary", "true")
            .param("from", "2026-01-02")
            .param("to", "2026-02-01T12:00:00Z")
            .param("size", "5")
            .param("cursor", "abc")).andExpect(status().isOk());

        verify(search).search(argThat(a -> a.text().equals("dram")),
                eq(new ReadSearch.Filters(List.of("memory"), List.of("MU"), true, List.of(), List.of(),
                        Instant.parse("2026-01-02T00:00:00Z"), Instant.parse("2026-02-01T12:00:00Z"))),
                eq(5), eq("abc"), eq(false), eq(ReadSearch.Ranking.HYBRID));
    }

    @Test
    void aBlankQueryOrAnOversizedPageIsAnInvalidParameterProblem() throws Exception {
        mvc.perform(get("/api/v1/search").param("q", " "))
            .andExpect(problem(400, "invalid-parameter", "q: must not be blank"));
        mvc.perform(get("/api/v1/search").param("q", "hbm").param("size", "51"))
            .andExpect(problem(400, "invalid-parameter", "size: must be less than or equal to 50"));
        verifyNoInteractions(search);
    }

    @Test
    void aMissingQueryOrABadDateIsAProblemOfThisApisType() throws Exception {
        mvc.perform(get("/api/v1/search"))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/invalid-request"));
        mvc.perform(get("/api/v1/search").param("q", "hbm").param("from", "yesterday"))
            .andExpect(problem(400, "invalid-parameter",
                    "from: not a date (yyyy-MM-dd) or an ISO-8601 instant: yesterday"));
        verifyNoInteractions(search);
    }

}
