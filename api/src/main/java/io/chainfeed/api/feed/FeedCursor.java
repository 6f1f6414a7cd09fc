package io.chainfeed.api.feed;

import io.chainfeed.api.support.problem.BadRequestException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;

/**
 * A position in a feed: the last entry of the page before, by its sort key (newest
 * {@code publishedAt} first, then read id ascending). Its text form, the {@code cursor}
 * query parameter, is the base64url (no padding) of {@code <epoch millis>:<read id>}. A
 * cursor holds no server state and never expires; the next page starts strictly after the
 * position, so an entry updated meanwhile moves to the first page rather than showing up
 * twice.
 *
 * @param publishedAt the {@code publishedAt} of the last entry shown (UTC, millisecond
 * precision; the epoch for a read indexed before publishedAt existed)
 * @param readId its read id, e.g. {@code term:rdma}
 */
public record FeedCursor(Instant publishedAt, String readId) {
    /** Longest cursor text accepted. */
    public static final int MAX_LENGTH = 1024;

    public FeedCursor {
        Objects.requireNonNull(publishedAt, "publishedAt");
        Objects.requireNonNull(readId, "readId");
    }

    /**
     * @return the text form for the {@code cursor} query parameter
     */
    public String encode() {
        return Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString((publishedAt.toEpochMilli() + ":" + readId).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param text a cursor from a feed's next link
     * @return the position it names
     * @throws BadRequestException (problem type {@code invalid-cursor}) if the text is
     * not one this API wrote
     */
    public static FeedCursor decode(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
            throw invalid();
        }
        String plain;
        try {
            plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
        }
        catch (IllegalArgumentException e) {
            throw invalid();
        }
        int colon = plain.indexOf(':');
        if (colon <= 0 || colon == plain.length() - 1) {
            throw invalid();
        }
        try {
            return new FeedCursor(Instant.ofEpochMilli(Long.parseLong(plain.substring(0, colon))),
                    plain.substring(colon + 1));
        }
        catch (NumberFormatException e) {
            throw invalid();
        }
    }

    private static BadRequestException invalid() {
        return new BadRequestException("invalid-cursor",
                "the cursor is not one this feed wrote: follow the feed's next link");
    }
}
