package io.chainfeed.api.answers;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.platform.Sha256;

/**
 * A shared answer with its strong entity tag (RFC 9110 section 8.8.3), computed once when
 * the answer is built instead of hashing the body of every response.
 *
 * @param <T> the answer
 * @param body the answer
 * @param etag a strong entity tag, quoted: the first 16 bytes of the SHA-256 of the body
 * as the api's {@link ObjectMapper} writes it, hex
 */
public record Tagged<T>(T body, String etag) {

    /**
     * @param <T> the answer
     * @param body the answer
     * @param mapper the api's mapper (the one its JSON answers are written with)
     * @return the answer with its tag
     * @throws IllegalStateException if the body cannot be written as JSON
     */
    public static <T> Tagged<T> of(T body, ObjectMapper mapper) {
        try {
            return new Tagged<>(body, "\"" + Sha256.hexPrefix(mapper.writeValueAsBytes(body), 16) + "\"");
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + body.getClass().getSimpleName() + " as JSON", e);
        }
    }

}
