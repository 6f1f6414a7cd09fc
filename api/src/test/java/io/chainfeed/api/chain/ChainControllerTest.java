package io.chainfeed.api.chain;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Company;
import static io.chainfeed.api.web.ProblemMatchers.problem;
import static org.hamcrest.Matchers.contains;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.chainfeed.api.search.ReadSearch;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.avro.Trend;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** The chain endpoints in a web slice over a fixed set of layer states. */
@WebMvcTest(ChainController.class)
class ChainControllerTest {
    private static final LayerCompany SK_HYNIX = new LayerCompany("sk-hynix", "SK hynix", "000660.KS");

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ChainStateCache cache;

    @MockitoBean
    ChainCauseIndex causes;

    @MockitoBean
    ReadSearch search;

    @MockitoBean
    CompanyResolver companies;

    @MockitoBean
    ChainTimeTravel travel;

    private static LayerState layer(String id, double pressure, LayerStatus status, List<LayerCompany> owners,
            List<SqueezedCompany> squeezed, Instant asOf) {
        return LayerState.newBuilder().setId(id).setName(id.toUpperCase(java.util.Locale.ROOT)).setPressure(pressure)
                .setStatus(status).setTrend(Trend.STEADY).setDirectPressure(pressure).setSqueezeReceived(0)
                .setOwners(owners).setSqueezed(squeezed).setAsOf(asOf).build();
    }

    @Test
    void theChainListsTightestLayersFirstWithTheNewestAsOf() throws Exception {
        when(cache.all()).thenReturn(List.of(
                layer("power", 0.2, LayerStatus.BALANCED, List.of(), List.of(), Instant.parse("2026-01-01T00:00:00Z")),
                layer("memory", 2.5, LayerStatus.TIGHT, List.of(SK_HYNIX), List.of(),
                        Instant.parse("2026-02-01T00:00:00Z"))));

        mvc.perform(get("/api/v1/chain"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.layers[*].id", contains("memory", "power")))
                .andExpect(jsonPath("$.asOf").value("2026-02-01T00:00:00Z"))
                .andExpect(jsonPath("$.disclaimer").value(ChainController.DISCLAIMER));
    }

    @Test
    void anUnknownLayerIsANotFoundProblem() throws Exception {
        when(cache.layer("nope")).thenReturn(Optional.empty());

        mvc.perform(get("/api/v1/layers/nope"))
                .andExpect(problem(404, "not-found", "no layer with id 'nope'"));
    }

    @Test
    void aCompanyShowsTheLayersItOwnsItsExposureToTightLayersAndItsLatestReads() throws Exception {
        SqueezedCompany squeezed = new SqueezedCompany(SK_HYNIX, "memory", 1, List.of("sig-1"));
        when(cache.all()).thenReturn(List.of(
                layer("memory", 0.1, LayerStatus.BALANCED, List.of(SK_HYNIX), List.of(),
                        Instant.parse("2026-01-01T00:00:00Z")),
                layer("packaging", 3.0, LayerStatus.CRITICAL, List.of(), List.of(squeezed),
                        Instant.parse("2026-01-01T00:00:00Z")),
                layer("substrate", 1.0, LayerStatus.BALANCED, List.of(), List.of(squeezed),
                        Instant.parse("2026-01-01T00:00:00Z"))));
        when(companies.find("000660.ks")).thenReturn(Optional.of(Company.newBuilder().setId("sk-hynix")
                .setName("SK hynix").setAliases(List.of()).setPrimaryLayer("memory").setListings(List.of(
                        Listing.newBuilder().setSymbol("000660").setMic("XKRX").setDisplaySymbol("000660.KS").build()))
                .build()));
        when(search.latestForCompany("sk-hynix", 10)).thenReturn(List.of(Map.of("id", "signal:s1", "kind", "signal")));

        mvc.perform(get("/api/v1/companies/000660.ks"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.id").value("sk-hynix"))
                .andExpect(jsonPath("$.symbol").value("000660.KS"))
                .andExpect(jsonPath("$.layers[*].id", contains("memory")))
                .andExpect(jsonPath("$.layers[0].status").value("balanced"))
                // only tight or critical layers count as exposure
                .andExpect(jsonPath("$.exposure[*].tightLayer", contains("packaging")))
                .andExpect(jsonPath("$.exposure[0].viaLayer").value("memory"))
                .andExpect(jsonPath("$.exposure[0].causes[0]").value("sig-1"))
                .andExpect(jsonPath("$.latestReads[0].id").value("signal:s1"));
    }

    @Test
    void aCompanyNotOnTheChainIsANotFoundProblem() throws Exception {
        when(cache.all()).thenReturn(List.of());

        mvc.perform(get("/api/v1/companies/NOPE"))
                .andExpect(problem(404, "not-found", "no company 'NOPE' in the reference data"));
    }
}
