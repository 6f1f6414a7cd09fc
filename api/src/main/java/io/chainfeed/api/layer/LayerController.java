package io.chainfeed.api.layer;

import io.chainfeed.api.chain.ChainCauseIndex;
import io.chainfeed.api.chain.ChainStates;
import io.chainfeed.api.chain.ChainTimeTravel;
import io.chainfeed.api.chain.ChainViews;
import io.chainfeed.api.chain.LayerHistory;
import io.chainfeed.api.reads.ReadView;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.api.search.LayerReads;
import io.chainfeed.api.search.SearchCatalog;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.LayerState;
import io.chainfeed.platform.web.TimeParameters;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lombok.RequiredArgsConstructor;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The chain layers, one URL family: {@code GET /api/v1/layers} (every layer of the
 * reference data, and any other layer reads are tagged with, with its summary, upstream
 * edges and read counts), {@code GET /api/v1/layers/{id}} (one layer's state, now or as
 * of an instant, {@link ChainStates}), {@code GET /api/v1/layers/{id}/causes} (its full
 * cause list, paged, {@link ChainCauseIndex}), {@code GET /api/v1/layers/{id}/reads} (its
 * reads in two lists, primary and in passing, {@link LayerReads}) and {@code GET
 * /api/v1/layers/{id}/history?from=&to=&step=} (its pressure, status and trend over time
 * with the signals naming it, computed by the streams service, {@link ChainTimeTravel}).
 *
 * <ul>
 * <li>{@code asOf} and {@code to}: RFC 3339 instants, not in the future nor before
 * {@link TimeParameters#EARLIEST}; {@code to} defaults to now.</li>
 * <li>{@code step}: an ISO-8601 duration ({@code PT6H}, {@code P1D}), at least one
 * minute; default {@value #DEFAULT_STEP}, or, when {@code from} is given and one point a
 * day would be more than {@value #MAX_POINTS}, the fewest whole days per step that keep
 * it within.</li>
 * <li>{@code from}: not after {@code to} nor before {@link TimeParameters#EARLIEST};
 * default {@code to} minus {@value #DEFAULT_POINTS} − 1 steps (a 400 when that falls
 * before {@link TimeParameters#EARLIEST}).</li>
 * </ul>
 * Unknown layers are 404 problem details; a bad cursor, size, instant or range 400
 * ({@code too-many-points} past {@value #MAX_POINTS} points); 503
 * {@code chain-unavailable} when the streams service cannot answer.
 */
@RestController
@RequestMapping("/api/v1")
@Validated
@Tag(name = "layers", description = "Chain layers: state, causes, reads and history")
@RequiredArgsConstructor
public class LayerController {

    /** Causes per page when the client does not say. */
    static final int DEFAULT_CAUSES = 50;

    /** Most causes per page. */
    static final int MAX_CAUSES = 200;

    /** Step when the client does not give one. */
    static final String DEFAULT_STEP = "P1D";

    /** Points when the client gives no {@code from}. */
    static final int DEFAULT_POINTS = 31;

    /** Most points one answer holds. */
    static final int MAX_POINTS = 500;

    /** Shortest step. */
    static final Duration MIN_STEP = Duration.ofMinutes(1);

    private final ChainStates states;

    private final ChainCauseIndex causes;

    private final ChainTimeTravel travel;

    private final SearchCatalog catalog;

    private final ReferenceLayers referenceLayers;

    private final LayerReads layerReads;

    @GetMapping("/layers")
    @Operation(operationId = "listLayers", summary = "Chain layers",
            description = "Every chain layer of the reference data (and any other layer "
                    + "reads are tagged with), with its summary, its upstream edges (ids of the layers that supply it) and "
                    + "read counts; by name.")
    Layers layers() throws IOException {
        Map<String, LayerEntry> byId = new LinkedHashMap<>();
        for (ChainLayer l : referenceLayers.all()) {
            byId.put(l.getId(),
                    new LayerEntry(l.getId(), l.getName(), l.getSummary(), List.copyOf(l.getUpstream()), 0L));
        }
        for (SearchCatalog.LayerName l : catalog.layers()) {
            LayerEntry known = byId.get(l.id());
            byId.put(l.id(), known == null ? new LayerEntry(l.id(), l.name(), "", List.of(), l.reads())
                    : new LayerEntry(known.id(), known.name(), known.summary(), known.upstream(), l.reads()));
        }
        List<LayerEntry> layers = new ArrayList<>(byId.values());
        layers.sort(Comparator.comparing(LayerEntry::name, String.CASE_INSENSITIVE_ORDER));
        return new Layers(layers);
    }

    /**
     * {@code GET /api/v1/layers}.
     *
     * @param layers every chain layer, by name
     */
    record Layers(List<LayerEntry> layers) {
    }

    /**
     * A chain layer of the reference data (or one reads are tagged with).
     *
     * @param id the layer's id
     * @param name its name
     * @param summary what it is; empty for a layer only reads know
     * @param upstream ids of the layers that supply it
     * @param reads how many reads are tagged with it
     */
    record LayerEntry(String id, String name, String summary, List<String> upstream, long reads) {
    }

    @GetMapping("/layers/{id}/reads")
    @Operation(operationId = "getLayerReads", summary = "A chain layer's reads",
            description = "Two lists, newest first: `primary`, the reads whose "
                    + "primary layer this is (the source declares it, or the title names it), and `passing`, the other reads "
                    + "tagged with it (through a company or a term on the layer, or a passing mention). Each has the `total` "
                    + "in the index and the first `size` `results`, shaped as search results without snippets. A layer that "
                    + "neither the reference data nor any read knows is a 404 problem.")
    LayerReadsAnswer layerReads(@PathVariable String id,
            @Parameter(description = "term or signal, repeatable") @RequestParam(required = false) List<String> kind,
            @RequestParam(defaultValue = "20") @Min(1) @Max(50) int size) throws IOException {
        LayerReads.Split split = layerReads.reads(id, kind == null ? List.of() : kind, size);
        if (split.primary().total() == 0 && split.passing().total() == 0 && referenceLayers.layer(id).isEmpty()) {
            throw new NotFoundException("no chain layer '" + id + "'");
        }
        return new LayerReadsAnswer(id, slice(split.primary()), slice(split.passing()));
    }

    /**
     * {@code GET /api/v1/layers/{id}/reads}.
     *
     * @param layer the layer's id
     * @param primary reads whose primary layer it is, newest first
     * @param passing the other reads tagged with it, newest first
     */
    record LayerReadsAnswer(String layer, ReadSlice primary, ReadSlice passing) {
    }

    /**
     * One list of a layer's reads.
     *
     * @param total how many the index has
     * @param results the first {@code size}, without tag evidence
     */
    record ReadSlice(long total, List<ReadView> results) {
    }

    private static ReadSlice slice(LayerReads.Slice slice) {
        return new ReadSlice(slice.total(), slice.sources().stream().map(doc -> ReadViews.view(doc, false)).toList());
    }

    @Operation(operationId = "getLayer", summary = "One layer's state (now or as of an instant)")
    @GetMapping("/layers/{id}")
    LayerAnswer layer(@PathVariable String id, @RequestParam(required = false) String asOf) {
        LayerState state = states.layer(id, asOf)
            .orElseThrow(() -> new NotFoundException("no layer with id '" + id + "'"));
        ChainViews.LayerView v = ChainViews.layer(state);
        return new LayerAnswer(asOf != null ? v.past() : v, ChainViews.DISCLAIMER);
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
                ChainViews.DISCLAIMER);
    }

    @Operation(operationId = "getLayerHistory",
            summary = "A layer's pressure, status and trend over time, with the signals naming it")
    @GetMapping("/layers/{id}/history")
    LayerHistory history(@PathVariable String id, @RequestParam(required = false) String from,
            @RequestParam(required = false) String to, @RequestParam(required = false) String step) {
        Instant now = Instant.now();
        Instant end = to == null ? now : ChainTimeTravel.pastInstant("to", to, "invalid-time-range", now);
        Instant given = from == null ? null : ChainTimeTravel.pastInstant("from", from, "invalid-time-range", now);
        Duration every;
        try {
            every = TimeParameters.positiveDuration("step", step == null ? DEFAULT_STEP : step);
        }
        catch (IllegalArgumentException e) {
            throw new BadRequestException("invalid-time-range", e.getMessage());
        }
        if (every.compareTo(MIN_STEP) < 0) {
            throw new BadRequestException("invalid-time-range", "step must be at least " + MIN_STEP + ", got " + step);
        }
        if (given != null && given.isAfter(end)) {
            throw new BadRequestException("invalid-time-range", "from (" + given + ") is after to (" + end + ")");
        }
        if (step == null && given != null) {
            long days = Duration.between(given, end).toDays();
            every = Duration.ofDays(Math.max(1, (days + MAX_POINTS - 1) / (MAX_POINTS - 1)));
            while (Duration.between(given, end).toMillis() / every.toMillis() + 1 > MAX_POINTS) {
                every = every.plusDays(1);
            }
        }
        Instant start = given == null ? end.minus(every.multipliedBy(DEFAULT_POINTS - 1)) : given;
        if (start.isBefore(TimeParameters.EARLIEST)) {
            throw new BadRequestException("invalid-time-range",
                    "from defaults to to minus " + (DEFAULT_POINTS - 1) + " steps, " + start + ", before "
                            + TimeParameters.EARLIEST + " where the chain's history starts; give from or a"
                            + " shorter step");
        }
        long points = Duration.between(start, end).toMillis() / every.toMillis() + 1;
        if (points > MAX_POINTS) {
            throw new BadRequestException("too-many-points", "from, to and step give " + points + " points; at most "
                    + MAX_POINTS + " (use a longer step or a shorter range)");
        }
        LayerHistory.Series series = travel.history(id, start, every, (int) points);
        return new LayerHistory(id, start.toString(), end.toString(), every.toString(),
                series.points() == null ? List.of() : series.points(), series.marks(), series.otherSignals(),
                ChainViews.DISCLAIMER);
    }

}
