package io.chainfeed.api.chain;

import static io.chainfeed.api.support.problem.ProblemMatchers.problem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.chainfeed.api.StoredDocuments;
import io.chainfeed.api.company.CompanyController;
import io.chainfeed.api.layer.LayerController;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.search.LayerReads;
import io.chainfeed.api.search.SearchCatalog;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.avro.Trend;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultMatcher;

/**
 * The chain endpoints in a web slice over a fixed set of layer states, and their
 * time-travel parameters ({@code asOf}, and {@code from}, {@code to}, {@code step} of a
 * layer's history): what is refused, with which problem, before the streams service is
 * asked, and what it is asked.
 */
@WebMvcTest({ ChainController.class, LayerController.class, CompanyController.class })
@Import(ChainStates.class)
class ChainControllerTest {

    private static final LayerHistory.Series EMPTY_SERIES = new LayerHistory.Series("memory", List.of(), List.of(), 0);

    private static final LayerCompany SK_HYNIX = new LayerCompany("sk-hynix", "SK hynix", "000660.KS");

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ChainStateCache cache;

    @MockitoBean
    ChainCauseIndex causes;

    @MockitoBean
    ReadLookups search;

    @MockitoBean
    CompanyResolver companies;

    @MockitoBean
    ChainTimeTravel travel;

    @MockitoBean
    SearchCatalog catalog;

    @MockitoBean
    ReferenceLayers referenceLayers;

    @MockitoBean
    LayerReads layerReads;

    private static LayerState layer(String id, double pressure, LayerStatus status, List<LayerCompany> owners,
            List<SqueezedCompany> squeezed, Instant asOf) {
        return LayerState.newBuilder()
            .setId(id)
            .setName(id.toUpperCase(java.util.Locale.ROOT))
            .setPressure(pressure)
            .setStatus(status)
            .setTrend(Trend.STEADY)
            .setDirectPressure(pressure)
            .setSqueezeReceived(0)
            .setOwners(owners)
            .setSqueezed(squeezed)
            .setAsOf(asOf)
            .build();
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
            .andExpect(jsonPath("$.disclaimer").value(ChainViews.DISCLAIMER));
    }

    @Test
    void aCompanyShowsTheLayersItOwnsItsExposureToTightLayersAndItsLatestReads() throws Exception {
        SqueezedCompany squeezed = new SqueezedCompany(SK_HYNIX, "memory", 1, List.of("sig-1"));
        when(cache.all()).thenReturn(List.of(
                layer("memory", 0.1, LayerStatus.BALANCED, List.of(SK_HYNIX), List.of(),
                        Instant.parse("2026-01-01T00:00:00Z")),
                io.chainfeed.avro.LayerState
                    .newBuilder(layer("packaging", 3.0, LayerStatus.CRITICAL, List.of(), List.of(squeezed),
                            Instant.parse("2026-01-01T00:00:00Z")))
                    .setCauses(List.of(io.chainfeed.avro.SignalCause.newBuilder()
                        .setSignalId("sig-1")
                        .setHeadline("CoWoS booked out")
                        .setDirection(io.chainfeed.avro.Direction.TIGHTENING)
                        .setOriginLayer("packaging")
                        .setHops(0)
                        .setContribution(3.0)
                        .setSource(new io.chainfeed.avro.Source("Example wire", "https://example.com/cowos"))
                        .build()))
                    .build(),
                layer("substrate", 1.0, LayerStatus.BALANCED, List.of(), List.of(squeezed),
                        Instant.parse("2026-01-01T00:00:00Z"))));
        when(companies.find("000660.ks")).thenReturn(Optional.of(Company.newBuilder()
            .setId("sk-hynix")
            .setName("SK hynix")
            .setAliases(List.of())
            .setPrimaryLayer("memory")
            .setListings(List
                .of(Listing.newBuilder().setSymbol("000660").setMic("XKRX").setDisplaySymbol("000660.KS").build()))
            .build()));
        when(search.latestForCompany("sk-hynix", 10))
            .thenReturn(List.of(StoredDocuments.doc(Map.of("id", "signal:s1", "kind", "signal"))));

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
            // the signals behind the tight layer: headline, source, contribution
            .andExpect(jsonPath("$.exposure[0].signals[0].headline").value("CoWoS booked out"))
            .andExpect(jsonPath("$.exposure[0].signals[0].source.name").value("Example wire"))
            .andExpect(jsonPath("$.exposure[0].signals[0].contribution").value(3.0))
            .andExpect(jsonPath("$.layers[0].causes").isArray())
            .andExpect(jsonPath("$.latestReads[0].id").value("signal:s1"));
    }

    @Test
    void anUnknownLayerOrACompanyNotOnTheChainIsANotFoundProblem() throws Exception {
        when(cache.layer("nope")).thenReturn(Optional.empty());
        when(cache.all()).thenReturn(List.of());

        mvc.perform(get("/api/v1/layers/nope")).andExpect(problem(404, "not-found", "no layer with id 'nope'"));
        mvc.perform(get("/api/v1/companies/NOPE"))
            .andExpect(problem(404, "not-found", "no company 'NOPE' in the reference data"));
    }

    // time travel: asOf on the chain, layer and company answers, and a layer's history

    private static ResultMatcher problemType(int status, String type) {
        return ResultMatcher.matchAll(status().is(status),
                jsonPath("$.type").value("https://chainfeed.io/problems/" + type), jsonPath("$.status").value(status));
    }

    private static LayerState memory(Instant asOf) {
        return LayerState.newBuilder()
            .setId("memory")
            .setName("Memory")
            .setPressure(5)
            .setStatus(LayerStatus.TIGHT)
            .setTrend(Trend.RISING)
            .setDirectPressure(5)
            .setSqueezeReceived(0)
            .setOwners(List.of())
            .setSqueezed(List.of())
            .setAsOf(asOf)
            .build();
    }

    @Test
    void aBadOrFutureAsOfIsABadRequestOnEveryEndpointWithoutAskingStreams() throws Exception {
        String future = Instant.now().plus(Duration.ofDays(1)).toString();
        for (String path : List.of("/api/v1/chain", "/api/v1/layers/memory", "/api/v1/companies/NVDA")) {
            mvc.perform(get(path).param("asOf", "yesterday"))
                .andExpect(problemType(400, "invalid-as-of"))
                .andExpect(jsonPath("$.detail", containsString("RFC 3339 instant")));
            mvc.perform(get(path).param("asOf", "2026-13-01T00:00:00Z")).andExpect(problemType(400, "invalid-as-of"));
            mvc.perform(get(path).param("asOf", future))
                .andExpect(problemType(400, "invalid-as-of"))
                .andExpect(jsonPath("$.detail", containsString("must not be in the future")));
        }
        verifyNoInteractions(travel);
    }

    @Test
    void anAsOfWithAnOffsetIsAskedOfStreamsInUtcAndItsAnswerHasNoLiveCausesLink() throws Exception {
        Instant asOf = Instant.parse("2026-11-28T10:00:00Z");
        when(travel.chainAt(asOf)).thenReturn(List.of(memory(asOf)));

        mvc.perform(get("/api/v1/chain").param("asOf", "2026-11-28T12:00:00+02:00"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.asOf").value("2026-11-28T10:00:00Z"))
            .andExpect(jsonPath("$.layers[0].pressure").value(5.0))
            .andExpect(jsonPath("$.layers[0].causesUrl").doesNotExist());
        mvc.perform(get("/api/v1/layers/memory").param("asOf", "2026-11-28T10:00:00Z"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.status").value("tight"));
        mvc.perform(get("/api/v1/layers/nope").param("asOf", "2026-11-28T10:00:00Z"))
            .andExpect(problemType(404, "not-found"));
        verify(cache, never()).all();
        verify(cache, never()).layer(any());
    }

    @Test
    void streamsUnavailableIsAServiceUnavailableProblem() throws Exception {
        when(travel.chainAt(any()))
            .thenThrow(new ChainUnavailableException("the chain history cannot be reached; try again shortly", null));

        mvc.perform(get("/api/v1/chain").param("asOf", "2026-11-28T10:00:00Z"))
            .andExpect(problemType(503, "chain-unavailable"))
            .andExpect(header().string("Retry-After", "5"));
    }

    @Test
    void theHistoryDefaultsTo31DailyPointsEndingNow() throws Exception {
        when(travel.history(eq("memory"), any(), any(), anyInt())).thenReturn(new LayerHistory.Series("memory",
                List.of(new LayerHistory.Point("2026-11-01T00:00:00Z", 1.0, 1.0, "balanced", "steady", 1)), List.of(),
                0));
        Instant before = Instant.now();

        mvc.perform(get("/api/v1/layers/memory/history"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.step").value("PT24H"))
            .andExpect(jsonPath("$.points[0].pressure").value(1.0));

        ArgumentCaptor<Instant> from = ArgumentCaptor.forClass(Instant.class);
        verify(travel).history(eq("memory"), from.capture(), eq(Duration.ofDays(1)), eq(31));
        Instant expected = before.minus(Duration.ofDays(30));
        org.assertj.core.api.Assertions.assertThat(from.getValue()).isBetween(expected, expected.plusSeconds(60));
    }

    @Test
    void theHistoryAsksForEveryStepFromFromToTo() throws Exception {
        when(travel.history(eq("memory"), any(), any(), anyInt())).thenReturn(EMPTY_SERIES);
        mvc.perform(get("/api/v1/layers/memory/history").param("from", "2026-11-01T00:00:00Z")
            .param("to", "2026-11-03T00:00:00Z")
            .param("step", "PT6H"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.from").value("2026-11-01T00:00:00Z"))
            .andExpect(jsonPath("$.to").value("2026-11-03T00:00:00Z"));
        verify(travel).history("memory", Instant.parse("2026-11-01T00:00:00Z"), Duration.ofHours(6), 9);
    }

    @Test
    void aHistoryFromALongTimeAgoWithoutAStepTakesTheFewestDaysPerStepThatFit() throws Exception {
        when(travel.history(eq("memory"), any(), any(), anyInt()))
            .thenReturn(
                    new LayerHistory.Series("memory", List.of(),
                            List.of(new LayerHistory.InternalMark("h-1", "HBM sold out", "2024-05-02T00:00:00Z",
                                    "2025-12-31T00:00:00Z", "tightening", 5, "Reuters", "https://www.reuters.com/x")),
                            3));
        mvc.perform(get("/api/v1/layers/memory/history").param("from", "2023-01-01T00:00:00Z")
            .param("to", "2026-12-01T00:00:00Z"))
            .andExpect(status().isOk())
            .andExpect(jsonPath("$.step").value("PT72H"))
            .andExpect(jsonPath("$.signals[0].readId").value("signal:h-1"))
            .andExpect(jsonPath("$.signals[0].until").value("2025-12-31T00:00:00Z"))
            .andExpect(jsonPath("$.signals[0].source.url").value("https://www.reuters.com/x"))
            .andExpect(jsonPath("$.otherSignals").value(3));
        // 1430 days: three days a step, 477 points
        verify(travel).history("memory", Instant.parse("2023-01-01T00:00:00Z"), Duration.ofDays(3), 477);
        // a short range keeps one point a day
        mvc.perform(get("/api/v1/layers/memory/history").param("from", "2026-11-01T00:00:00Z")
            .param("to", "2026-11-03T00:00:00Z")).andExpect(jsonPath("$.step").value("PT24H"));
    }

    @Test
    void aHistoryOfMoreThan500PointsOrABadRangeIsABadRequest() throws Exception {
        when(travel.history(eq("memory"), any(), any(), anyInt())).thenReturn(EMPTY_SERIES);
        String path = "/api/v1/layers/memory/history";
        mvc.perform(get(path).param("from", "2026-01-01T00:00:00Z")
            .param("to", "2026-11-01T00:00:00Z")
            .param("step", "PT12H"))
            .andExpect(problemType(400, "too-many-points"))
            .andExpect(jsonPath("$.detail", containsString("at most 500")));
        mvc.perform(get(path).param("from", "2026-01-01T00:00:00Z")
            .param("to", "2026-01-01T00:00:00Z")
            .param("step", "PT1H")).andExpect(status().isOk());
        mvc.perform(get(path).param("from", "2026-11-02T00:00:00Z").param("to", "2026-11-01T00:00:00Z"))
            .andExpect(problemType(400, "invalid-time-range"))
            .andExpect(jsonPath("$.detail", containsString("is after to")));
        mvc.perform(get(path).param("step", "daily")).andExpect(problemType(400, "invalid-time-range"));
        mvc.perform(get(path).param("step", "-P1D")).andExpect(problemType(400, "invalid-time-range"));
        mvc.perform(get(path).param("step", "PT30S")).andExpect(problemType(400, "invalid-time-range"));
        mvc.perform(get(path).param("to", "soon")).andExpect(problemType(400, "invalid-time-range"));
        mvc.perform(get(path).param("from", Instant.now().plus(Duration.ofDays(2)).toString()))
            .andExpect(problemType(400, "invalid-time-range"));
        verify(travel).history(eq("memory"), any(), any(), eq(1));
    }

    @Test
    void anUnknownLayersHistoryIsNotFound() throws Exception {
        when(travel.history(eq("nope"), any(), any(), anyInt()))
            .thenThrow(new NotFoundException("no layer with id 'nope'"));
        mvc.perform(get("/api/v1/layers/nope/history")).andExpect(problemType(404, "not-found"));
    }

}
