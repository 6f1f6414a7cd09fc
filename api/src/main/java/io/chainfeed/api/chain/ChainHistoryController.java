package io.chainfeed.api.chain;

import io.chainfeed.api.problem.BadRequestException;
import io.chainfeed.platform.web.TimeParameters;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A layer's pressure over time: {@code GET /api/v1/layers/{id}/history?from=&to=&step=}, the layer's
 * state at the instants {@code from, from + step, ...} up to {@code to} (each as
 * {@code GET /api/v1/layers/{id}?asOf=} would give it, computed in one pass by the streams service).
 *
 * <ul>
 *   <li>{@code to}: an RFC 3339 instant, not in the future; default now.</li>
 *   <li>{@code step}: an ISO-8601 duration ({@code PT6H}, {@code P1D}), at least one minute; default
 *       {@value #DEFAULT_STEP}.</li>
 *   <li>{@code from}: an RFC 3339 instant, not after {@code to}; default {@code to} minus
 *       {@value #DEFAULT_POINTS} − 1 steps, so the default answer has {@value #DEFAULT_POINTS} points
 *       ending at {@code to}.</li>
 * </ul>
 * At most {@value #MAX_POINTS} points ({@code floor((to − from) / step) + 1}); more is a 400 problem
 * of type {@code too-many-points}, a bad or inverted range {@code invalid-time-range}; an unknown layer
 * 404; 503 {@code chain-unavailable} when the streams service cannot answer.
 */
@RestController
@RequestMapping("/api/v1")
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

    ChainHistoryController(ChainTimeTravel travel) {
        this.travel = travel;
    }

    @GetMapping("/layers/{id}/history")
    Map<String, Object> history(@PathVariable String id, @RequestParam(required = false) String from,
            @RequestParam(required = false) String to, @RequestParam(required = false) String step) {
        Instant now = Instant.now();
        Instant end = to == null ? now : ChainTimeTravel.pastInstant("to", to, "invalid-time-range", now);
        Duration every;
        try {
            every = TimeParameters.positiveDuration("step", step == null ? DEFAULT_STEP : step);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("invalid-time-range", e.getMessage());
        }
        if (every.compareTo(MIN_STEP) < 0) {
            throw new BadRequestException("invalid-time-range", "step must be at least " + MIN_STEP + ", got " + step);
        }
        Instant start = from == null ? end.minus(every.multipliedBy(DEFAULT_POINTS - 1))
                : ChainTimeTravel.pastInstant("from", from, "invalid-time-range", now);
        if (start.isAfter(end)) {
            throw new BadRequestException("invalid-time-range", "from (" + start + ") is after to (" + end + ")");
        }
        long points = Duration.between(start, end).toMillis() / every.toMillis() + 1;
        if (points > MAX_POINTS) {
            throw new BadRequestException("too-many-points", "from, to and step give " + points
                    + " points; at most " + MAX_POINTS + " (use a longer step or a shorter range)");
        }
        List<Map<String, Object>> series = travel.history(id, start, every, (int) points);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("layer", id);
        out.put("from", start.toString());
        out.put("to", end.toString());
        out.put("step", every.toString());
        out.put("points", series);
        out.put("disclaimer", ChainController.DISCLAIMER);
        return out;
    }
}
