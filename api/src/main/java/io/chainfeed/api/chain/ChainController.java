package io.chainfeed.api.chain;

import io.chainfeed.api.search.ReadSearch;
import io.chainfeed.api.web.BadRequestException;
import io.chainfeed.api.web.NotFoundException;
import io.chainfeed.api.web.ReadViews;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.SqueezedCompany;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The live chain model: {@code GET /api/v1/chain} (every layer with its state, tightest first, in
 * the compact {@link ChainViews#summary} form), {@code GET /api/v1/layers/{id}} (one layer),
 * {@code GET /api/v1/layers/{id}/causes?cursor=&size=} (its full cause list, paged; see
 * {@link ChainCauseIndex}) and {@code GET /api/v1/companies/{symbol}} (the layers a company owns,
 * its exposure to tight layers upstream of it, and its latest reads). Every answer is bounded in
 * size whatever the number of signals. Unknown ids are 404 problem details, a bad cursor or size 400.
 */
@RestController
@RequestMapping("/api/v1")
class ChainController {
    static final String DISCLAIMER = "The chain model summarises public signals about supply and demand; "
            + "research, not advice.";

    /** Causes per page when the client does not say. */
    static final int DEFAULT_CAUSES = 50;
    /** Most causes per page. */
    static final int MAX_CAUSES = 200;

    private final ChainStateCache cache;
    private final ChainCauseIndex causes;
    private final ReadSearch search;

    ChainController(ChainStateCache cache, ChainCauseIndex causes, ReadSearch search) {
        this.cache = cache;
        this.causes = causes;
        this.search = search;
    }

    @GetMapping("/chain")
    Map<String, Object> chain() {
        List<LayerState> layers = new ArrayList<>(cache.all());
        layers.sort(Comparator.comparingDouble((LayerState s) -> -s.getPressure()).thenComparing(LayerState::getId));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("asOf", layers.stream().map(ChainViews::asOf).filter(a -> a != null)
                .max(Comparator.naturalOrder()).orElse(null));
        out.put("layers", layers.stream().map(ChainViews::summary).toList());
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

    @GetMapping("/layers/{id}/causes")
    Map<String, Object> causes(@PathVariable String id, @RequestParam(required = false) String cursor,
            @RequestParam(defaultValue = "" + DEFAULT_CAUSES) int size) {
        if (size < 1 || size > MAX_CAUSES) {
            throw new BadRequestException("invalid-size", "size must be between 1 and " + MAX_CAUSES + ", got " + size);
        }
        LayerState state = cache.layer(id).orElseThrow(() -> new NotFoundException("no layer with id '" + id + "'"));
        ChainCauseIndex.Page page;
        try {
            page = causes.page(state, cursor == null || cursor.isEmpty() ? null : cursor, size);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("invalid-cursor", "the cursor is not one this endpoint gave: " + e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("layer", state.getId());
        out.put("asOf", ChainViews.asOf(state));
        out.put("causes", page.causes().stream().map(ChainViews::cause).toList());
        out.put("nextCursor", page.nextCursor());
        out.put("next", page.nextCursor() == null ? null : "/api/v1/layers/"
                + URLEncoder.encode(state.getId(), StandardCharsets.UTF_8) + "/causes?size=" + size + "&cursor="
                + page.nextCursor());
        out.put("disclaimer", DISCLAIMER);
        return out;
    }

    @GetMapping("/companies/{symbol}")
    Map<String, Object> company(@PathVariable String symbol) throws IOException {
        List<Map<String, Object>> owns = new ArrayList<>();
        List<Map<String, Object>> exposure = new ArrayList<>();
        LayerCompany found = null;
        List<LayerState> layers = new ArrayList<>(cache.all());
        layers.sort(Comparator.comparing(LayerState::getId));
        for (LayerState s : layers) {
            for (LayerCompany c : s.getOwners()) {
                if (c.getSymbol().equalsIgnoreCase(symbol)) {
                    found = c;
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
                if (q.getCompany().getSymbol().equalsIgnoreCase(symbol)) {
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
        if (found == null) {
            throw new NotFoundException("no company with symbol '" + symbol + "' on the chain");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", found.getCompanyId());
        out.put("name", found.getName());
        out.put("symbol", found.getSymbol());
        out.put("layers", owns);
        out.put("exposure", exposure);
        out.put("latestReads", search.latestForCompany(found.getSymbol(), 10).stream()
                .map(doc -> ReadViews.view(doc, false)).toList());
        out.put("disclaimer", DISCLAIMER);
        return out;
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
