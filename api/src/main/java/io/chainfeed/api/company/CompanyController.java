package io.chainfeed.api.company;

import io.chainfeed.api.chain.ChainStates;
import io.chainfeed.api.chain.ChainViews;
import io.chainfeed.api.reads.ReadLookups;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.schemas.CompanyDirectory;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The companies, one URL family: {@code GET /api/v1/companies?layer=} (every company of
 * the reference data by chain layer: per layer, by layer name, the companies whose
 * primary layer it is, then those that list it among their other layers, each by name;
 * with {@code layer=<id>}, that layer only) and {@code GET
 * /api/v1/companies/{symbol}?asOf=} (a company named by any identifier
 * {@link CompanyResolver} takes: its listings, the layers it owns with each one's largest
 * {@value #COMPANY_CAUSES} causes, its exposure to tight layers upstream of it with the
 * signals behind each, and its latest reads; now or as of an instant,
 * {@link ChainStates}). An unknown company is a 404 problem with close matches.
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "companies", description = "Companies on the chain and their exposure")
@RequiredArgsConstructor
public class CompanyController {

    /**
     * A company under one layer: {@code primary} when it is the company's primary layer.
     */
    record CompanyEntry(String id, String name, String symbol, boolean primary, String page) {
    }

    /** One layer and its companies. */
    record LayerCompanies(String id, String name, String page, List<CompanyEntry> companies) {
    }

    /** Every layer with its companies; {@code companies} counts distinct companies. */
    record CompanyIndex(String layer, int companies, List<LayerCompanies> layers, String disclaimer) {
    }

    /**
     * Most causes a company answer lists per layer it owns (the layer's largest, in
     * order).
     */
    static final int COMPANY_CAUSES = 3;

    private final ChainStates states;

    private final ReadLookups reads;

    private final ReferenceLayers layers;

    private final CompanyResolver companies;

    @GetMapping("/companies")
    @Operation(operationId = "listCompanies", summary = "Every company by chain layer",
            description = "Per layer of the reference data, the "
                    + "companies whose primary layer it is, then those that list it among their other layers; "
                    + "layer=<id> keeps that layer only.")
    CompanyIndex companies(@RequestParam(required = false) String layer) {
        CompanyDirectory dir = companies.directory();
        Map<String, List<CompanyEntry>> byLayer = new HashMap<>();
        List<Company> all = new ArrayList<>(dir.companies());
        all.sort(Comparator.comparing((Company c) -> c.getName().toLowerCase(Locale.ROOT))
            .thenComparing(Company::getId));
        int counted = 0;
        for (Company c : all) {
            String symbol = CompanyDirectory.canonicalSymbol(c);
            String page = "/companies/"
                    + URLEncoder.encode(symbol == null ? c.getId() : symbol, StandardCharsets.UTF_8);
            boolean listed = false;
            if (c.getPrimaryLayer() != null && (layer == null || layer.equals(c.getPrimaryLayer()))) {
                byLayer.computeIfAbsent(c.getPrimaryLayer(), k -> new ArrayList<>())
                    .add(new CompanyEntry(c.getId(), c.getName(), symbol, true, page));
                listed = true;
            }
            for (String other : c.getLayers()) {
                if (other.equals(c.getPrimaryLayer()) || (layer != null && !layer.equals(other))) {
                    continue;
                }
                byLayer.computeIfAbsent(other, k -> new ArrayList<>())
                    .add(new CompanyEntry(c.getId(), c.getName(), symbol, false, page));
                listed = true;
            }
            counted += listed ? 1 : 0;
        }
        Map<String, String> names = new HashMap<>();
        for (ChainLayer l : layers.all()) {
            names.put(l.getId(), l.getName());
        }
        List<LayerCompanies> out = new ArrayList<>();
        for (Map.Entry<String, List<CompanyEntry>> e : byLayer.entrySet()) {
            List<CompanyEntry> list = new ArrayList<>(e.getValue());
            list.sort(Comparator.comparing((CompanyEntry c) -> !c.primary()));
            out.add(new LayerCompanies(e.getKey(), names.getOrDefault(e.getKey(), e.getKey()),
                    "/layers/" + URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8), list));
        }
        for (ChainLayer l : layers.all()) {
            if (!byLayer.containsKey(l.getId()) && (layer == null || layer.equals(l.getId()))) {
                out.add(new LayerCompanies(l.getId(), l.getName(),
                        "/layers/" + URLEncoder.encode(l.getId(), StandardCharsets.UTF_8), List.of()));
            }
        }
        out.sort(Comparator.comparing((LayerCompanies l) -> l.name().toLowerCase(Locale.ROOT))
            .thenComparing(LayerCompanies::id));
        return new CompanyIndex(layer, counted, out, ReadViews.INDEX_DISCLAIMER);
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
                ChainViews.DISCLAIMER);
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

}
