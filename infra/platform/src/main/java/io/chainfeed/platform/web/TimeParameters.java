package io.chainfeed.platform.web;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Parses the time parameters of the chain's time-travel queries, shared by the api and
 * the streams service so both read them alike: instants in ISO-8601 / RFC 3339 form
 * ({@code 2026-11-30T12:00:00Z}; a numeric offset such as {@code +02:00} is converted to
 * UTC) and durations in ISO-8601 form ({@code PT6H}, {@code P1D}).
 */
public final class TimeParameters {

    private TimeParameters() {
    }

    /**
     * @param name the parameter's name, for the message
     * @param value its text
     * @return the instant (UTC)
     * @throws IllegalArgumentException with a message for the client when {@code value}
     * is not an instant
     */
    public static Instant instant(String name, String value) {
        try {
            return Instant.parse(value.trim());
        }
        catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    name + " must be an RFC 3339 instant such as 2026-11-30T12:00:00Z, got '" + value + "'", e);
        }
    }

    /**
     * @param name the parameter's name, for the message
     * @param value its text
     * @return the duration, positive
     * @throws IllegalArgumentException with a message for the client when {@code value}
     * is not a positive ISO-8601 duration
     */
    public static Duration positiveDuration(String name, String value) {
        Duration d;
        try {
            d = Duration.parse(value.trim());
        }
        catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    name + " must be an ISO-8601 duration such as PT6H or P1D, got '" + value + "'", e);
        }
        if (d.isNegative() || d.toMillis() < 1) {
            throw new IllegalArgumentException(name + " must be at least one millisecond, got '" + value + "'");
        }
        return d;
    }

}
