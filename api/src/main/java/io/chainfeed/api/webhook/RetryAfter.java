package io.chainfeed.api.webhook;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads an HTTP {@code Retry-After} header (RFC 9110 section 10.2.3): either
 * delay-seconds (a non-negative integer) or an HTTP-date
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}).
 */
public final class RetryAfter {

    private RetryAfter() {
    }

    /**
     * @param header the header value, or null
     * @param now the current time, for an HTTP-date
     * @return the delay it asks for (zero for a date in the past), or empty if absent or
     * unreadable
     */
    public static Optional<Duration> parse(String header, Instant now) {
        if (header == null) {
            return Optional.empty();
        }
        String v = header.trim();
        if (v.isEmpty()) {
            return Optional.empty();
        }
        if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            if (v.length() > 10) {
                return Optional.of(Duration.ofSeconds(Integer.MAX_VALUE));
            }
            return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        }
        try {
            Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        }
        catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

}
