package io.chainfeed.api.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.chainfeed.api.support.problem.BadRequestException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * An opaque page cursor: the point in time the pages after the first run in (none in the
 * first page's cursor: {@link ReadSearch} opens it when the second page is asked for),
 * the mode the first page settled on (all words, or any word), the sort values of the
 * last hit ({@code _score}, {@code id}) and a hash of the query and filters it belongs to
 * (so that a cursor cannot be replayed on another query), and how many collapsed results
 * the pages so far showed (collapsed pages continue by offset: Elasticsearch allows no
 * {@code search_after} with collapsing on another field than the sort).
 *
 * @param pit point-in-time id, or null when none is open yet
 * @param all all words required (else any)
 * @param score last hit's score
 * @param id last hit's id
 * @param queryHash hash of the query text and filters
 * @param offset results shown so far, the next page's {@code from}; -1 in a cursor issued
 * before collapsing (it continues after {@code score} and {@code id}). After a hybrid
 * first page: the lexical results it showed in lexical order, from the first
 * @param shown the stories a hybrid first page showed beyond that lexical prefix (vector
 * hits, lexical hits it lifted): the pages after it leave them out, so the lexical order
 * continues with nothing shown twice and nothing skipped; at most {@link #MAX_SHOWN}
 */
record Cursor(String pit, boolean all, double score, String id, String queryHash, int offset, List<String> shown) {

    /** Most stories a cursor carries (the largest page). */
    static final int MAX_SHOWN = 50;

    /** A cursor of a lexical page. */
    Cursor(String pit, boolean all, double score, String id, String queryHash, int offset) {
        this(pit, all, score, id, queryHash, offset, List.of());
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    String encode() {
        ObjectNode n = JSON.createObjectNode();
        if (pit != null) {
            n.put("p", pit);
        }
        n.put("m", SearchMode.of(all).text()).put("s", score).put("i", id).put("h", queryHash);
        if (offset >= 0) {
            n.put("o", offset);
        }
        if (!shown.isEmpty()) {
            ArrayNode x = n.putArray("x");
            shown.forEach(x::add);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(n.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param text an encoded cursor
     * @return the cursor
     * @throws BadRequestException ({@code invalid-cursor}) when the text is not a cursor
     * this API issued
     */
    static Cursor decode(String text) {
        try {
            JsonNode n = JSON.readTree(Base64.getUrlDecoder().decode(text));
            if (!(n.path("p").isMissingNode() || n.path("p").isTextual()) || !n.path("s").isNumber()
                    || !n.path("i").isTextual() || !n.path("h").isTextual()
                    || !(n.path("o").isMissingNode() || n.path("o").isInt() && n.get("o").asInt() >= 0)
                    || !(n.path("x").isMissingNode() || n.path("x").isArray() && n.get("x").size() <= MAX_SHOWN)) {
                throw new IllegalArgumentException("fields");
            }
            List<String> shown = new ArrayList<>();
            for (JsonNode x : n.path("x")) {
                if (!x.isTextual()) {
                    throw new IllegalArgumentException("shown");
                }
                shown.add(x.asText());
            }
            return new Cursor(n.has("p") ? n.get("p").asText() : null, SearchMode.ofText(n.path("m").asText()).all(),
                    n.get("s").asDouble(), n.get("i").asText(), n.get("h").asText(), n.path("o").asInt(-1),
                    List.copyOf(shown));
        }
        catch (Exception e) {
            throw new BadRequestException("invalid-cursor", "cursor is not one this API issued");
        }
    }
}
