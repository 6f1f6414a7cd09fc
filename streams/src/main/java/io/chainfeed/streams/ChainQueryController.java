package io.chainfeed.streams;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.LayerState;
import io.chainfeed.platform.web.TimeParameters;
import io.chainfeed.streams.chain.ChainQueries;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import lombok.RequiredArgsConstructor;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Read-only interactive queries on the chain-state topology (time travel), for the api
 * service; on the streams service's own port, beside actuator health. See
 * {@link ChainQueries} for the cost.
 * <ul>
 * <li>{@code GET /internal/v1/chain?asOf=<instant>}: every layer's {@link LayerState} as
 * of the instant, as an Avro object container file (content type {@value #AVRO}, the Avro
 * specification's type for binary Avro over HTTP), the writer schema inside.</li>
 * <li>{@code GET
 * /internal/v1/layers/{id}/history?from=<instant>&step=<duration>&points=<n>}: one
 * layer's pressure, status and trend at {@code points} instants
 * {@code from, from + step, ...} (JSON; {@code points} 1 to
 * {@value ChainQueries#MAX_POINTS}).</li>
 * </ul>
 * Instants are ISO-8601 / RFC 3339 (e.g. {@code 2026-11-30T12:00:00Z}, an offset is
 * converted to UTC) between {@link TimeParameters#EARLIEST} and
 * {@link TimeParameters#LATEST}, durations ISO-8601 ({@code PT6H}, {@code P1D}). A bad
 * parameter (an instant outside that range, a history whose last point passes it) is a
 * 400 problem detail (RFC 9457), an unknown layer 404, stores that cannot be queried yet
 * (starting, rebalancing) 503. Any instance may be asked: {@link ChainQueryRouting} sends
 * the query to the instance that owns the stores, or to a fresh standby copy.
 */
@RestController
@RequestMapping("/internal/v1")
@RequiredArgsConstructor
class ChainQueryController {

    /** Content type of the chain answer. */
    static final String AVRO = "avro/binary";

    private final StreamsRunner runner;

    @GetMapping("/chain")
    ResponseEntity<byte[]> chain(@RequestParam String asOf, HttpServletRequest request) {
        long at = instant("asOf", asOf).toEpochMilli();
        Map<String, LayerState> states = query(request, q -> q.at(at));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DataFileWriter<LayerState> writer = new DataFileWriter<>(new SpecificDatumWriter<>(LayerState.class))) {
            writer.create(LayerState.getClassSchema(), out);
            for (LayerState s : states.values()) {
                writer.append(s);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(AVRO)).body(out.toByteArray());
    }

    /** One instant of a layer's history. */
    record Point(String at, double pressure, double directPressure, String status, String trend, int signalCount) {
    }

    /**
     * A signal that names the layer, observed within the history's period: a mark on its
     * chart.
     */
    record Mark(String id, String headline, String observedAt, String until, String direction, int magnitude,
            String sourceName, String sourceUrl) {
    }

    /**
     * A layer's history: its points in time order, and the signals naming it observed
     * from the first point to the last (at most {@value #MAX_MARKS}, the largest by
     * magnitude, then the newest; in time order), with how many more there were.
     */
    record History(String layer, List<Point> points, List<Mark> signals, int otherSignals) {
    }

    /** Most signals one history lists. */
    static final int MAX_MARKS = 200;

    @GetMapping("/layers/{id}/history")
    History history(@PathVariable String id, @RequestParam String from, @RequestParam String step,
            @RequestParam int points, HttpServletRequest request) {
        long start = instant("from", from).toEpochMilli();
        long every;
        try {
            every = TimeParameters.positiveDuration("step", step).toMillis();
        }
        catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (points < 1 || points > ChainQueries.MAX_POINTS) {
            throw bad("points must be between 1 and " + ChainQueries.MAX_POINTS + ", got " + points);
        }
        long last = lastPoint(start, every, points);
        if (last > TimeParameters.LATEST.toEpochMilli()) {
            throw bad("from + step x (points - 1) must not pass " + TimeParameters.LATEST + ", got "
                    + (last == Long.MAX_VALUE ? "a later instant" : Instant.ofEpochMilli(last).toString()));
        }
        return query(request, q -> history(q, id, start, every, points));
    }

    /**
     * The last instant of a history, epoch ms; {@link Long#MAX_VALUE} when it does not
     * fit in a long.
     */
    static long lastPoint(long start, long every, int points) {
        try {
            return Math.addExact(start, Math.multiplyExact(every, (long) points - 1));
        }
        catch (ArithmeticException overflow) {
            return Long.MAX_VALUE;
        }
    }

    private static History history(ChainQueries q, String id, long start, long every, int points) {
        if (!q.knows(id)) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no layer with id '" + id + "'");
        }
        List<Point> out = new ArrayList<>(points);
        q.history(start, every, points, (at, states) -> {
            LayerState s = states.get(id);
            out.add(new Point(Instant.ofEpochMilli(at).toString(), s.getPressure(), s.getDirectPressure(),
                    s.getStatus().name().toLowerCase(Locale.ROOT), s.getTrend().name().toLowerCase(Locale.ROOT),
                    s.getSignalCount()));
        });
        List<ConstraintSignal> named = q.signalsOn(id, start, start + (points - 1) * every);
        List<ConstraintSignal> kept = named;
        if (named.size() > MAX_MARKS) {
            kept = new ArrayList<>(named);
            kept.sort(Comparator.comparingInt(ConstraintSignal::getMagnitude)
                .reversed()
                .thenComparing(
                        Comparator.comparingLong((ConstraintSignal s) -> s.getObservedAt().toEpochMilli()).reversed()));
            kept = new ArrayList<>(kept.subList(0, MAX_MARKS));
            kept.sort(Comparator.comparingLong((ConstraintSignal s) -> s.getObservedAt().toEpochMilli())
                .thenComparing(ConstraintSignal::getId));
        }
        List<Mark> marks = kept.stream()
            .map(s -> new Mark(s.getId(), s.getHeadline(), s.getObservedAt().toString(),
                    s.getUntil() == null ? null : s.getUntil().toString(),
                    s.getDirection().name().toLowerCase(Locale.ROOT), s.getMagnitude(),
                    s.getSource() == null ? null : s.getSource().getName(),
                    s.getSource() == null ? null : s.getSource().getUrl()))
            .toList();
        return new History(id, out, marks, named.size() - marks.size());
    }

    @ExceptionHandler(InvalidStateStoreException.class)
    ResponseEntity<ProblemDetail> notQueryable(InvalidStateStoreException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "the chain-state stores cannot be queried now: " + e.getMessage());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "5").body(p);
    }

    /**
     * Runs a query on the active stores or, when {@link ChainQueryRouting} found the
     * local standby copy fresh enough, on that. When the active stores cannot be queried
     * because their stream thread is rebalancing (not RUNNING: another instance just left
     * or joined), the query runs once more on the same copy as a possibly stale store, if
     * it is at most {@code chainfeed.streams.max-standby-lag} records behind its
     * changelog.
     */
    private <T> T query(HttpServletRequest request, Function<ChainQueries, T> query) {
        boolean stale = Boolean.TRUE.equals(request.getAttribute(ChainQueryRouting.STALE_ATTRIBUTE));
        try {
            return query.apply(queries(stale));
        }
        catch (InvalidStateStoreException e) {
            if (stale || !runner.chainCopyFresh()) {
                throw e;
            }
            return query.apply(queries(true));
        }
    }

    private ChainQueries queries(boolean stale) {
        ChainQueries q = runner.chainQueries(stale);
        if (q == null) {
            throw new InvalidStateStoreException("the chain-state topology has not started");
        }
        return q;
    }

    private static Instant instant(String name, String value) {
        try {
            return TimeParameters.instant(name, value);
        }
        catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    private static ResponseStatusException bad(String detail) {
        return new ResponseStatusException(HttpStatus.BAD_REQUEST, detail);
    }

}
