package io.chainfeed.api.chain;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.search.ReadSearch;
import io.chainfeed.api.web.NotFoundException;
import io.chainfeed.api.web.ReadViews;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.schemas.CompanyDirectory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The live chain model: {@code GET /api/v1/chain} (every layer with its state, tightest first),
 * {@code GET /api/v1/layers/{id}} (one layer) and {@code GET /api/v1/companies/{symbol}} (a company
 * named by any identifier {@link CompanyResolver} takes: its listings, the layers it owns, its
 * exposure to tight layers upstream of it, and its latest reads).
 * Unknown ids are 404 problem details.
 */
@RestController
@RequestMapping("/api/v1")
class ChainController {
    static final String DISCLAIMER = "The chain model summarises public signals about supply and demand; "
            + "research, not advice.";

    private final ChainStateCache cache;
    private final ReadSearch search;
    private final CompanyResolver companies;

    ChainController(ChainStateCache cache, ReadSearch search, CompanyResolver companies) {
        this.cache = cache;
        this.search = search;
        this.companies = companies;
    }

    @GetMapping("/chain")
    Map<String, Object> chain() {
        List<LayerState> layers = new ArrayList<>(cache.all());
        layers.sort(Comparator.comparingDouble((LayerState s) -> -s.getPressure()).thenComparing(LayerState::getId));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("asOf", layers.stream().map(ChainViews::asOf).filter(a -> a != null)
                .max(Comparator.naturalOrder()).orElse(null));
        out.put("layers", layers.stream().map(ChainViews::layer).toList());
        out.put("disclaimer", DISCLAIMER);
        return out;
    }

    @GetMapping("/layers/{id}")
    Map<String, Object> layer(@PathVariable String id) {
        LayerState state = cache.layer(id).orElseThrow(() -> new NotFoundException("no layer with id '" + id + "'"));
        Map<String, Object> out = ChainViews.layer(state);
        out.put("disclaimer", DISCLAIMER);
        return out;
    }

    @GetMapping("/companies/{symbol}")
    Map<String, Object> company(@PathVariable String symbol) throws IOException {
        Company company = companies.find(symbol).orElseThrow(() -> {
            List<String> near = companies.closeMatches(symbol);
            return new NotFoundException("no company '" + symbol + "' in the reference data"
                    + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?"));
        });
        List<Map<String, Object>> owns = new ArrayList<>();
        List<Map<String, Object>> exposure = new ArrayList<>();
        List<LayerState> layers = new ArrayList<>(cache.all());
        layers.sort(Comparator.comparing(LayerState::getId));
        for (LayerState s : layers) {
            for (LayerCompany c : s.getOwners()) {
                if (c.getCompanyId().equals(company.getId())) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", s.getId());
                    m.put("name", s.getName());
                    m.put("status", lower(s.getStatus()));
                    m.put("pressure", s.getPressure());
                    owns.add(m);
                }
            }
            if (s.getStatus() != LayerStatus.TIGHT && s.getStatus() != LayerStatus.CRITICAL) {
                continue;
            }
            for (SqueezedCompany q : s.getSqueezed()) {
                if (q.getCompany().getCompanyId().equals(company.getId())) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("tightLayer", s.getId());
                    m.put("tightLayerName", s.getName());
                    m.put("status", lower(s.getStatus()));
                    m.put("pressure", s.getPressure());
                    m.put("viaLayer", q.getViaLayer());
                    m.put("hops", q.getHops());
                    m.put("causes", q.getCauses());
                    exposure.add(m);
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", company.getId());
        out.put("name", company.getName());
        out.put("symbol", CompanyDirectory.canonicalSymbol(company));
        out.put("aliases", List.copyOf(company.getAliases()));
        out.put("listings", company.getListings().stream().map(l -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("symbol", l.getDisplaySymbol());
            m.put("mic", l.getMic());
            m.put("localSymbol", l.getSymbol());
            return m;
        }).toList());
        out.put("layers", owns);
        out.put("exposure", exposure);
        out.put("latestReads", search.latestForCompany(company.getId(), 10).stream()
                .map(doc -> ReadViews.view(doc, false)).toList());
        out.put("disclaimer", DISCLAIMER);
        return out;
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
