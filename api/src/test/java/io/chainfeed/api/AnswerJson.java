package io.chainfeed.api;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/** Test helper: an answer record as the JSON object Jackson writes for it. */
public final class AnswerJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AnswerJson() {
    }

    /**
     * @param answer an answer record
     * @return its JSON as maps, lists, strings, numbers (int where it fits) and booleans
     */
    public static Map<String, Object> of(Object answer) {
        return JSON.convertValue(answer, new TypeReference<Map<String, Object>>() {
        });
    }

}
