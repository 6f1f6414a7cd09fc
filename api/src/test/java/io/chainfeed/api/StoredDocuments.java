package io.chainfeed.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.schemas.ReadDocument;
import java.util.Map;

/**
 * Test documents written as the JSON the reads index stores, read the way the api reads a
 * hit's {@code _source}.
 */
public final class StoredDocuments {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredDocuments() {
    }

    /**
     * @param stored a document as stored (maps, lists, strings, numbers)
     * @return it as the record
     */
    public static ReadDocument doc(Map<String, ?> stored) {
        return JSON.convertValue(stored, ReadDocument.class);
    }

}
