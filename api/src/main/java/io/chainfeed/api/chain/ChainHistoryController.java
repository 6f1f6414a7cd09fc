package io.chainfeed.api.chain;

import io.swagger.v3.oas.annotations.tags.Tag;
import io.swagger.v3.oas.annotations.Operation;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.platform.web.TimeParameters;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A layer's pressure over time: {@code GET /api/v1/layers/{id}/history?from=&to=&step=},
 * the layer's state at the instants {@code from, from + step, ...} up to {@code to} (each
 * as {@code GET /api/v1/layers/{id}?asOf=} would give it, computed in one pass by the
 * streams service).
 *
 * <ul>
 * <li>{@code to}: an RFC 3339 instant, not in the future nor before
 * {@link TimeParameters#EARLIEST}; default now.</li>
 * <li>{@code step}: an ISO-8601 duration ({@code PT6H}, {@code P1D}), at least one
 * minute; default {@value #DEFAULT_STEP}, or, when {@code from} is given and one point a
 * day would be more than {@value #MAX_POINTS}, the fewest whole days per step that keep
 * it within (so {@code ?from=2023-01-01T00:00:00Z} charts the whole period since
 * then).</li>
 * <li>{@code from}: an RFC 3339 instant, not after {@code to} nor before
 * {@link TimeParameters#EARLIEST}; default {@code to} minus {@value #DEFAULT_POINTS} − 1
 * steps, so the default answer has {@value #DEFAULT_POINTS} points ending at {@code to}
 * (a 400 when that default falls before {@link TimeParameters#EARLIEST}).</li>
 * </ul>
 * The answer also lists the signals naming the layer observed from the first point to the
 * last ({@link LayerHistory#signals()}), for marking a chart. At most
 * {@value #MAX_POINTS} points ({@code floor((to − from) / step) + 1}); more is a 400
 * problem of type {@code too-many-points}, a bad or inverted range
 * {@code invalid-time-range}; an unknown layer 404; 503 {@code chain-unavailable} when
 * the streams service cannot answer.
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "chain")
@RequiredArgsConstructor
class ChainHistoryController {

    /** Step when the client does not give one. */
    static final String DEFAULT_STEP = "P1D";

    /** Points when the client gives no {@code from}. */
    static final int DEFAULT_POINTS = 31;

    /** Most points one answer holds. */
    static final int MAX_POINTS = 500;

    /** Shortest step. */
    static final Duration MIN_STEP = Duration.ofMinutes(1);

    private final ChainTimeTravel travel;

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
                ChainController.DISCLAIMER);
    }

}
