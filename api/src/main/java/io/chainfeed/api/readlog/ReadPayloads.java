package io.chainfeed.api.readlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.api.reads.ReadView;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.avro.Read;
import io.chainfeed.schemas.ReadDocuments;
import java.io.UncheckedIOException;

/**
 * The one JSON shape of a read that is pushed to readers (SSE, webhooks, the widget's
 * live feed). It is the shape {@code GET /api/v1/reads/{id}} answers with
 * ({@link ReadViews#view}), built from the Avro {@link Read} through the same mapping the
 * indexer uses ({@link ReadDocuments}), without tag evidence:
 * {@code id, kind, slug, title, aliases, summary, sections, layers, companies, related, terms, sources,
 * disclaimer, version, updatedAt, previousVersion, changes} ({@code kind} lower case,
 * {@code updatedAt} an ISO-8601 UTC instant; {@code changes}: what changed against
 * {@code previousVersion}, each with a {@code text}). A deleted read (a tombstone on
 * {@code chainfeed.reads.v1}) is pushed as {@code {"id": <read id>}}.
 */
public final class ReadPayloads {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReadPayloads() {
    }

    /**
     * @param read a read as published on {@code chainfeed.reads.v1}
     * @return the read in the shape described above
     */
    public static ReadView view(Read read) {
        return ReadViews.view(ReadDocuments.toDocument(read), false);
    }

    /**
     * @param id the id of a deleted read, e.g. {@code signal:abc}
     * @return {@code {"id": id}}
     */
    public static Deleted deleted(String id) {
        return new Deleted(id);
    }

    /**
     * The payload of a deleted read.
     *
     * @param id the read's id
     */
    public record Deleted(String id) {
    }

    /**
     * @param readOrNull a read, or null for a deletion
     * @param id the read id (the record key)
     * @return the compact UTF-8 JSON of {@link #view} or {@link #deleted}: one line, no
     * line breaks
     * @throws UncheckedIOException if Jackson cannot write the value (it always can:
     * maps, lists, strings, numbers and booleans only)
     */
    public static byte[] json(Read readOrNull, String id) {
        try {
            return readOrNull == null ? JSON.writeValueAsBytes(deleted(id)) : JSON.writeValueAsBytes(view(readOrNull));
        }
        catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

}
