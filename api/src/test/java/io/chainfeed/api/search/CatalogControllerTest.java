package io.chainfeed.api.search;

import static io.chainfeed.api.support.problem.ProblemMatchers.problem;
import static org.hamcrest.Matchers.contains;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.chainfeed.api.StoredDocuments;
import io.chainfeed.api.chain.ChainCauseIndex;
import io.chainfeed.api.chain.ChainStates;
import io.chainfeed.api.chain.ChainTimeTravel;
import io.chainfeed.api.layer.LayerController;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.term.TermController;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.SampleRecords;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Layers, term pages and the suggest checks of {@link SuggestController},
 * {@link LayerController} and {@link TermController}, in a web slice.
 */
@WebMvcTest({ SuggestController.class, LayerController.class, TermController.class })
class CatalogControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    SearchCatalog catalog;

    @MockitoBean
    ReadLookups search;

    @MockitoBean
    ReferenceLayers referenceLayers;

    @MockitoBean
    Suggester suggester;

    @MockitoBean
    CompanyResolver companies;

    @MockitoBean
    LayerReads layerReads;

    @MockitoBean
    ChainStates states;

    @MockitoBean
    ChainCauseIndex causes;

    @MockitoBean
    ChainTimeTravel travel;

    @MockitoBean
    ElasticsearchClient client;

    @Test
    void aLayersReadsComeInTwoListsPrimaryThenPassing() throws Exception {
        ReadDocument hbm = StoredDocuments.doc(Map.of("id", "term:hbm", "kind", "term", "slug", "hbm", "title", "HBM",
                "layers", List.of(Map.of("id", "memory", "primary", true, "evidence", List.of()))));
        ReadDocument euv = StoredDocuments.doc(Map.of("id", "term:euv-lithography", "kind", "term", "title",
                "EUV lithography", "layers", List.of(Map.of("id", "semiconductor-equipment", "primary", true),
                        Map.of("id", "memory", "primary", false))));
        when(layerReads.reads("memory", List.of("term"), 5)).thenReturn(
                new LayerReads.Split(new LayerReads.Slice(7, List.of(hbm)), new LayerReads.Slice(1, List.of(euv))));

        mvc.perform(get("/api/v1/layers/memory/reads?kind=term&size=5"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.layer").value("memory"))
            .andExpect(jsonPath("$.primary.total").value(7))
            .andExpect(jsonPath("$.primary.results[*].id", contains("term:hbm")))
            .andExpect(jsonPath("$.primary.results[0].layers[0].evidence").doesNotExist())
            .andExpect(jsonPath("$.passing.total").value(1))
            .andExpect(jsonPath("$.passing.results[*].id", contains("term:euv-lithography")));
    }

    @Test
    void aLayerNobodyKnowsIsAProblemAndAPageTooLargeIsRefused() throws Exception {
        LayerReads.Slice none = new LayerReads.Slice(0, List.of());
        when(layerReads.reads("nope", List.of(), 20)).thenReturn(new LayerReads.Split(none, none));
        when(referenceLayers.layer("nope")).thenReturn(Optional.empty());
        mvc.perform(get("/api/v1/layers/nope/reads")).andExpect(problem(404, "not-found", "no chain layer 'nope'"));
        mvc.perform(get("/api/v1/layers/memory/reads?size=51"))
            .andExpect(problem(400, "invalid-parameter", "size: must be less than or equal to 50"));
    }

    @Test
    void layersJoinTheReferenceDataWithReadCountsAndSortByName() throws Exception {
        when(referenceLayers.all())
            .thenReturn(List.of(SampleRecords.layer("memory", "Memory", "DRAM and HBM", "wafers"),
                    SampleRecords.layer("wafers", "wafers", "Silicon")));
        when(catalog.layers()).thenReturn(List.of(new SearchCatalog.LayerName("memory", "Memory", 4),
                new SearchCatalog.LayerName("optics", "Optics", 2)));

        mvc.perform(get("/api/v1/layers"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.layers[*].id", contains("memory", "optics", "wafers")))
            .andExpect(jsonPath("$.layers[0].upstream[0]").value("wafers"))
            .andExpect(jsonPath("$.layers[0].reads").value(4))
            // a layer only reads know of has no summary and no edges
            .andExpect(jsonPath("$.layers[1].summary").value(""))
            .andExpect(jsonPath("$.layers[1].upstream").isEmpty())
            .andExpect(jsonPath("$.layers[2].reads").value(0));
    }

    private static Map<String, Object> related(String slug) {
        return Map.of("slug", slug, "evidence", List.of(Map.of("rule", "declared-related")));
    }

    @Test
    void aTermPageResolvesRelatedTermsAndPutsThePrimaryLayerFirst() throws Exception {
        when(search.get("term:hbm")).thenReturn(Optional.of(StoredDocuments.doc(Map.of("id", "term:hbm", "kind", "term",
                "slug", "hbm", "title", "HBM", "version", 2L, "previousVersion", 1L, "layers",
                List.of(Map.of("id", "packaging", "primary", false), Map.of("id", "memory", "primary", true)), "terms",
                List.of(related("dram"), related("tsv"), Map.of("slug", "hbm3e"))))));
        when(search.getAll(List.of("term:dram", "term:tsv")))
            .thenReturn(Map.of("term:dram", StoredDocuments.doc(Map.of("title", "DRAM", "summary", "Dynamic memory"))));

        mvc.perform(get("/api/v1/terms/hbm"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.layers[*].id", contains("memory", "packaging")))
            .andExpect(jsonPath("$.layer.id").value("memory"))
            .andExpect(jsonPath("$.related[0].exists").value(true))
            .andExpect(jsonPath("$.related[0].title").value("DRAM"))
            .andExpect(jsonPath("$.related[0].href").value("/api/v1/terms/dram"))
            .andExpect(jsonPath("$.related[1].exists").value(false))
            .andExpect(jsonPath("$.related[1].href").doesNotExist())
            // a term the read only mentions is not a related term
            .andExpect(jsonPath("$.related.length()").value(2))
            .andExpect(jsonPath("$.history[0].version").value(2))
            .andExpect(jsonPath("$.history[0].previousVersion").value(1));
    }

    @Test
    void anUnknownTermIsANotFoundProblem() throws Exception {
        when(search.get("term:nope")).thenReturn(Optional.empty());

        mvc.perform(get("/api/v1/terms/nope")).andExpect(problem(404, "not-found", "no glossary term 'nope'"));
    }

    @Test
    void suggestRefusesABlankTextAndTooManySuggestions() throws Exception {
        mvc.perform(get("/api/v1/suggest").param("q", ""))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.type").value("https://chainfeed.io/problems/invalid-parameter"));
        mvc.perform(get("/api/v1/suggest").param("q", "hb").param("size", "11"))
            .andExpect(problem(400, "invalid-parameter", "size: must be less than or equal to 10"));
        verifyNoInteractions(catalog);
    }

}
