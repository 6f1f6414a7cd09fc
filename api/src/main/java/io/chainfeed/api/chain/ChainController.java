package io.chainfeed.api.chain;

import io.swagger.v3.oas.annotations.tags.Tag;
import io.swagger.v3.oas.annotations.Operation;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.schemas.CompanyDirectory;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The live chain model: {@code GET /api/v1/chain} (every layer with its state, tightest
 * first, in the compact {@link ChainViews#summary} form), {@code GET /api/v1/layers/{id}}
 * (one layer), {@code GET /api/v1/layers/{id}/causes?cursor=&size=} (its full cause list,
 * paged; see {@link ChainCauseIndex}) and {@code GET /api/v1/companies/{symbol}} (a
 * company named by any identifier {@link CompanyResolver} takes: its listings, the layers
 * it owns with each one's largest {@value #COMPANY_CAUSES} causes, its exposure to tight
 * layers upstream of it with the signals behind each ({@code signals}: headline, source,
 * contribution to the tight layer, largest first), and its latest reads). Every answer is
 * bounded in size whatever the number of signals. Unknown ids are 404 problem details, a
 * bad cursor or size 400.
 *
 * <p>
 * The chain, layer and company answers take {@code asOf=<instant>} (RFC 3339, UTC or with
 * an offset, not in the future; else a 400 problem of type {@code invalid-as-of}): the
 * same answer computed from the signals observed by then, with decay measured at that
 * instant ({@link ChainTimeTravel}; 503 {@code chain-unavailable} when the streams
 * service cannot answer). Such a layer view has {@code causesUrl} null (the paged cause
 * list is live only); a company's {@code latestReads} are the latest now.
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "chain")
@RequiredArgsConstructor
class ChainController {

    static final String DISCLAIMER = "The chain model summarises public signals about supply and demand; "
            + "research, not advice.";

    /** Causes per page when the client does not say. */
    static final int DEFAULT_CAUSES = 50;

    /**
     * Most causes a company answer lists per layer it owns (the layer's largest, in
     * order).
     */
    static final int COMPANY_CAUSES = 3;

    /** Most causes per page. */
    static final int MAX_CAUSES = 200;

    private final ChainStates states;

    private final ChainCauseIndex causes;

    private final ReadLookups reads;

    private final CompanyResolver companies;

    @Operation(operationId = "getChain",
            summary = "Every chain layer with its state, tightest first (now or as of an instant)")
    @GetMapping("/chain")
    ChainAnswer chain(@RequestParam(required = false) String asOf) {
        List<LayerState> layers = states.all(asOf);
        layers.sort(Comparator.comparingDouble((LayerState s) -> -s.getPressure()).thenComparing(LayerState::getId));
        return new ChainAnswer(latest(layers), layers.stream().map(s -> {
            ChainViews.LayerSummary v = ChainViews.summary(s);
            return asOf != null ? v.past() : v;
        }).toList(), DISCLAIMER);
    }

    /** The newest {@code asOf} of the layers, null before the first signal. */
    static String latest(List<LayerState> layers) {
        return layers.stream().map(ChainViews::asOf).filter(a -> a != null).max(Comparator.naturalOrder()).orElse(null);
    }

    @Operation(operationId = "getLayer", summary = "One layer's state (now or as of an instant)")
    @GetMapping("/layers/{id}")
    LayerAnswer layer(@PathVariable String id, @RequestParam(required = false) String asOf) {
        LayerState state = states.layer(id, asOf)
            .orElseThrow(() -> new NotFoundException("no layer with id '" + id + "'"));
        ChainViews.LayerView v = ChainViews.layer(state);
        return new LayerAnswer(asOf != null ? v.past() : v, DISCLAIMER);
    }

    @Operation(operationId = "getLayerCauses", summary = "A layer's causes, largest first, paged")
    @GetMapping("/layers/{id}/causes")
    CausesPage causes(@PathVariable String id, @RequestParam(required = false) String cursor,
            @RequestParam(defaultValue = "" + DEFAULT_CAUSES) int size) {
        if (size < 1 || size > MAX_CAUSES) {
            throw new BadRequestException("invalid-size", "size must be between 1 and " + MAX_CAUSES + ", got " + size);
        }
        LayerState state = states.layer(id, null)
            .orElseThrow(() -> new NotFoundException("no layer with id '" + id + "'"));
        ChainCauseIndex.Page page;
        try {
            page = causes.page(state, cursor == null || cursor.isEmpty() ? null : cursor, size);
        }
        catch (IllegalArgumentException e) {
            throw new BadRequestException("invalid-cursor",
                    "the cursor is not one this endpoint gave: " + e.getMessage());
        }
        return new CausesPage(state.getId(), ChainViews.asOf(state),
                page.causes().stream().map(ChainViews::cause).toList(), page.nextCursor(),
                page.nextCursor() == null ? null
                        : "/api/v1/layers/" + URLEncoder.encode(state.getId(), StandardCharsets.UTF_8) + "/causes?size="
                                + size + "&cursor=" + page.nextCursor(),
                DISCLAIMER);
    }

    @Operation(operationId = "getCompany",
            summary = "A company by any identifier: layers it owns, exposure, latest reads")
    @GetMapping("/companies/{symbol}")
    CompanyAnswer company(@PathVariable String symbol, @RequestParam(required = false) String asOf) throws IOException {
        List<LayerState> layers = states.all(asOf);
        Company company = companies.find(symbol).orElseThrow(() -> {
            List<String> near = companies.closeMatches(symbol);
            return new NotFoundException("no company '" + symbol + "' in the reference data"
                    + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?"));
        });
        List<CompanyAnswer.OwnedLayer> owns = new ArrayList<>();
        List<CompanyAnswer.Exposure> exposure = new ArrayList<>();
        layers.sort(Comparator.comparing(LayerState::getId));
        for (LayerState s : layers) {
            for (LayerCompany c : s.getOwners()) {
                if (c.getCompanyId().equals(company.getId())) {
                    owns.add(new CompanyAnswer.OwnedLayer(s.getId(), s.getName(), lower(s.getStatus()), s.getPressure(),
                            lower(s.getTrend()),
                            s.getCauses().stream().limit(COMPANY_CAUSES).map(ChainViews::cause).toList()));
                }
            }
            if (s.getStatus() != LayerStatus.TIGHT && s.getStatus() != LayerStatus.CRITICAL) {
                continue;
            }
            for (SqueezedCompany q : s.getSqueezed()) {
                if (q.getCompany().getCompanyId().equals(company.getId())) {
                    exposure.add(new CompanyAnswer.Exposure(s.getId(), s.getName(), lower(s.getStatus()),
                            s.getPressure(), q.getViaLayer(), q.getHops(), List.copyOf(q.getCauses()),
                            s.getCauses()
                                .stream()
                                .filter(c -> q.getCauses().contains(c.getSignalId()))
                                .map(ChainViews::cause)
                                .toList()));
                }
            }
        }
        return new CompanyAnswer(company.getId(), company.getName(), CompanyDirectory.canonicalSymbol(company),
                List.copyOf(company.getAliases()),
                company.getListings()
                    .stream()
                    .map(l -> new CompanyAnswer.Listing(l.getDisplaySymbol(), l.getMic(), l.getSymbol()))
                    .toList(),
                owns, exposure,
                asOf == null ? null
                        : layers.stream().map(ChainViews::asOf).filter(a -> a != null).findFirst().orElse(null),
                reads.latestForCompany(company.getId(), 10).stream().map(doc -> ReadViews.view(doc, false)).toList(),
                DISCLAIMER);
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

}
