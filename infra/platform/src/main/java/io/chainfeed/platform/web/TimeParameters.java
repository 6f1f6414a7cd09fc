package io.chainfeed.platform.web;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/**
 * Parses the time parameters of the chain's time-travel queries, shared by the api and
 * the streams service so both read them alike: instants in ISO-8601 / RFC 3339 form
 * ({@code 2026-11-30T12:00:00Z}; a numeric offset such as {@code +02:00} is converted to
 * UTC) and durations in ISO-8601 form ({@code PT6H}, {@code P1D}).
 *
 * <p>
 * An instant must lie in {@link #EARLIEST} .. {@link #LATEST}: the chain model counts
 * time in milliseconds since the Unix epoch and starts there (nothing is known of the
 * chain before it), and Elasticsearch's {@code date} fields, with the default
 * {@code strict_date_optional_time} format, hold four-digit years only. An instant
 * outside is the caller's error, never a failure of a service behind it.
 */
public final class TimeParameters {

    /** The earliest instant accepted: 1970-01-01T00:00:00Z, the model's time zero. */
    public static final Instant EARLIEST = Instant.EPOCH;

    /**
     * The latest instant accepted: 9999-12-31T23:59:59.999Z, the last millisecond of the
     * last four-digit year.
     */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    /**
     * The longest duration accepted: the span from {@link #EARLIEST} to {@link #LATEST}.
     */
    public static final Duration LONGEST = Duration.between(EARLIEST, LATEST);

    private TimeParameters() {
    }

    /**
     * @param name the parameter's name, for the message
     * @param value its text
     * @return the instant (UTC), in {@link #EARLIEST} .. {@link #LATEST}
     * @throws IllegalArgumentException with a message for the client when {@code value}
     * is not an instant or lies outside that range
     */
    public static Instant instant(String name, String value) {
        return inRange(name, parse(Instant::parse, value,
                name + " must be an RFC 3339 instant such as 2026-11-30T12:00:00Z, got '" + value + "'"));
    }

    /**
     * @param t an instant
     * @return whether it lies in {@link #EARLIEST} .. {@link #LATEST}
     */
    public static boolean accepted(Instant t) {
        return !t.isBefore(EARLIEST) && !t.isAfter(LATEST);
    }

    /**
     * @param name the parameter's name, for the message
     * @param t an instant
     * @return {@code t}, when it lies in {@link #EARLIEST} .. {@link #LATEST}
     * @throws IllegalArgumentException naming the parameter and the accepted range
     * otherwise
     */
    public static Instant inRange(String name, Instant t) {
        if (!accepted(t)) {
            throw new IllegalArgumentException(
                    name + " must lie between " + EARLIEST + " and " + LATEST + ", got " + t);
        }
        return t;
    }

    /**
     * @param name the parameter's name, for the message
     * @param value its text
     * @return the duration, positive
     * @throws IllegalArgumentException with a message for the client when {@code value}
     * is not a positive ISO-8601 duration or is longer than {@link #LONGEST}
     */
    public static Duration positiveDuration(String name, String value) {
        Duration d = parse(Duration::parse, value,
                name + " must be an ISO-8601 duration such as PT6H or P1D, got '" + value + "'");
        if (d.isNegative() || d.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException(name + " must be at least one millisecond, got '" + value + "'");
        }
        if (d.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(name + " must be at most " + LONGEST + " (the accepted range of"
                    + " instants), got '" + value + "'");
        }
        return d;
    }

    /** Parses the trimmed text, or throws the message as an IllegalArgumentException. */
    private static <T> T parse(Function<String, T> parser, String value, String message) {
        try {
            return parser.apply(value.trim());
        }
        catch (DateTimeParseException e) {
            throw new IllegalArgumentException(message, e);
        }
    }

}
