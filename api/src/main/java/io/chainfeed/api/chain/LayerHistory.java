package io.chainfeed.api.chain;

import java.util.List;

/**
 * The answer of {@code GET /api/v1/layers/{id}/history}: the layer's state at evenly
 * spaced instants and the signals naming it that were observed in that period (the marks
 * of its chart).
 *
 * @param layer the layer id
 * @param from the first instant (RFC 3339, UTC)
 * @param to the end of the period asked for
 * @param step the time between points (ISO-8601 duration)
 * @param points the states, in time order
 * @param signals the signals naming the layer observed from the first point to the last,
 * in time order (at most 200: the largest by magnitude, then the newest)
 * @param otherSignals how many more such signals there were
 * @param disclaimer research, not advice
 */
public record LayerHistory(String layer, String from, String to, String step, List<Point> points, List<Mark> signals,
        int otherSignals, String disclaimer) {

    /**
     * The layer at one instant, as {@code GET /api/v1/layers/{id}?asOf=<at>} gives it.
     *
     * @param at the instant (RFC 3339, UTC)
     * @param pressure own pressure plus squeeze
     * @param directPressure own pressure (soft-capped)
     * @param status loose, balanced, tight or critical
     * @param trend rising, steady or falling
     * @param signalCount signals counted on the layer then
     */
    public record Point(String at, double pressure, double directPressure, String status, String trend,
            int signalCount) {
    }

    /**
     * A signal that moved the layer's own pressure: observed in the period and naming the
     * layer.
     *
     * @param id the signal id
     * @param readId its read ({@code signal:<id>}, at {@code /api/v1/reads/{readId}})
     * @param headline its headline
     * @param observedAt when it was observed (RFC 3339)
     * @param until its horizon, or null
     * @param direction tightening or easing
     * @param magnitude 1 to 5
     * @param source the public source it was checked against, or null
     */
    public record Mark(String id, String readId, String headline, String observedAt, String until, String direction,
            int magnitude, Source source) {
    }

    /**
     * @param name the source's name
     * @param url its http(s) URL
     */
    public record Source(String name, String url) {
    }

    /**
     * What the streams service answers for a history
     * ({@code /internal/v1/layers/{id}/history}).
     *
     * @param layer the layer id
     * @param points the states
     * @param signals the signals naming the layer in the period
     * @param otherSignals how many more there were
     */
    public record Series(String layer, List<Point> points, List<InternalMark> signals, int otherSignals) {
        /**
         * @return the marks as the api shows them
         */
        public List<Mark> marks() {
            return signals == null ? List.of() : signals.stream().map(InternalMark::mark).toList();
        }
    }

    /** A mark as the streams service sends it. */
    public record InternalMark(String id, String headline, String observedAt, String until, String direction,
            int magnitude, String sourceName, String sourceUrl) {
        Mark mark() {
            return new Mark(id, "signal:" + id, headline, observedAt, until, direction, magnitude,
                    sourceUrl == null ? null : new Source(sourceName, sourceUrl));
        }
    }
}
