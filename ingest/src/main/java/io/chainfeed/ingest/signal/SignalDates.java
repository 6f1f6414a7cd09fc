package io.chainfeed.ingest.signal;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Reads the date forms signals arrive with and normalises them to a UTC instant: ISO-8601
 * with an offset or {@code Z} ({@code 2026-03-01T09:30:00+09:00}), ISO-8601 without one
 * (taken as UTC), {@code yyyy-MM-dd HH:mm[:ss]} (UTC), RFC 1123 / RFC 822 as in RSS
 * ({@code Sun, 01 Mar 2026 09:30:00 GMT}, {@code +0900}), a plain date {@code yyyy-MM-dd}
 * or {@code yyyy/MM/dd} (start of the day, UTC), and epoch milliseconds (digits only).
 */
public final class SignalDates {

    private static final Pattern DIGITS = Pattern.compile("-?\\d{1,19}");

    private static final DateTimeFormatter SPACE_LOCAL = new DateTimeFormatterBuilder()
        .appendPattern("uuuu-MM-dd HH:mm")
        .optionalStart()
        .appendPattern(":ss")
        .optionalEnd()
        .optionalStart()
        .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
        .optionalEnd()
        .toFormatter(Locale.ROOT);

    private static final DateTimeFormatter SPACE_OFFSET = new DateTimeFormatterBuilder().append(SPACE_LOCAL)
        .optionalStart()
        .appendLiteral(' ')
        .optionalEnd()
        .appendOffset("+HH:MM", "Z")
        .toFormatter(Locale.ROOT);

    private static final DateTimeFormatter RFC_1123_LENIENT = new DateTimeFormatterBuilder().parseCaseInsensitive()
        .optionalStart()
        .appendPattern("EEE, ")
        .optionalEnd()
        .appendPattern("d MMM uuuu HH:mm")
        .optionalStart()
        .appendPattern(":ss")
        .optionalEnd()
        .appendLiteral(' ')
        .optionalStart()
        .appendPattern("XX")
        .optionalEnd()
        .optionalStart()
        .appendPattern("zzz")
        .optionalEnd()
        .toFormatter(Locale.ENGLISH);

    private static final List<DateTimeFormatter> PLAIN_DATES = List.of(DateTimeFormatter.ISO_LOCAL_DATE,
            DateTimeFormatter.ofPattern("uuuu/MM/dd", Locale.ROOT));

    /**
     * Epoch milliseconds before this (2001-09-09) are taken as a mistake (seconds, or a
     * typo).
     */
    private static final long SMALLEST_MILLIS = 1_000_000_000_000L;

    private SignalDates() {
    }

    /**
     * @param text a date in one of the accepted forms; surrounding blanks are ignored
     * @return the instant, in UTC
     * @throws IllegalArgumentException naming the accepted forms, if the text is none of
     * them
     */
    public static Instant parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("is missing");
        }
        String t = text.trim();
        if (DIGITS.matcher(t).matches()) {
            long millis;
            try {
                millis = Long.parseLong(t);
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + t + "' is too large for epoch milliseconds");
            }
            if (millis < SMALLEST_MILLIS) {
                throw new IllegalArgumentException("'" + t + "' is not epoch milliseconds (too small: seconds?)");
            }
            return Instant.ofEpochMilli(millis);
        }
        try {
            return OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        }
        catch (DateTimeException ignored) {
            // next form
        }
        try {
            return ZonedDateTime.parse(t, DateTimeFormatter.ISO_ZONED_DATE_TIME).toInstant();
        }
        catch (DateTimeException ignored) {
            // next form
        }
        try {
            return LocalDateTime.parse(t, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
        }
        catch (DateTimeException ignored) {
            // next form
        }
        try {
            return OffsetDateTime.parse(t, SPACE_OFFSET).toInstant();
        }
        catch (DateTimeException ignored) {
            // next form
        }
        try {
            return LocalDateTime.parse(t, SPACE_LOCAL).toInstant(ZoneOffset.UTC);
        }
        catch (DateTimeException ignored) {
            // next form
        }
        try {
            return ZonedDateTime.parse(t, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        }
        catch (DateTimeException ignored) {
            // next form
        }
        try {
            return ZonedDateTime.parse(t, RFC_1123_LENIENT).toInstant();
        }
        catch (DateTimeException ignored) {
            // next form
        }
        for (DateTimeFormatter f : PLAIN_DATES) {
            try {
                return LocalDate.parse(t, f).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            catch (DateTimeException ignored) {
                // next form
            }
        }
        throw new IllegalArgumentException("'" + t + "' is not a date in a known form (ISO-8601 such as "
                + "2026-03-01T09:30:00Z or with an offset, RFC 1123 such as 'Sun, 01 Mar 2026 09:30:00 GMT', "
                + "yyyy-MM-dd, yyyy/MM/dd, yyyy-MM-dd HH:mm[:ss] (UTC), or epoch milliseconds)");
    }

}
