package io.chainfeed.ingest.signal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.ingest.decide.Decision;
import io.chainfeed.schemas.Topics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON value of a {@value Topics#SIGNALS_SKIPPED} record: {@code id},
 * {@code headline}, {@code body}, {@code observedAt}, {@code source} ({@code name},
 * {@code url}), {@code reason} and {@code evidence} (the spans that decided it:
 * {@code field}, {@code offset}, {@code length}, {@code text}, {@code rule}).
 */
public final class SkippedRecords {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SkippedRecords() {
    }

    /**
     * @param s a skipped item
     * @return its JSON, UTF-8
     */
    public static byte[] json(SignalIngest.Skipped s) {
        try {
            return JSON.writeValueAsBytes(view(s.signal(), s.reason(), s.decision()));
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param signal the item as read
     * @param reason why it was skipped
     * @param decision what the decider found; may be null
     * @return the JSON-ready view, also used in the signal endpoint's answer
     */
    public static Map<String, Object> view(ConstraintSignal signal, String reason, Decision decision) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", signal.getId());
        m.put("headline", signal.getHeadline());
        m.put("body", signal.getBody());
        m.put("observedAt", signal.getObservedAt().toString());
        m.put("source", Map.of("name", signal.getSource().getName(), "url", signal.getSource().getUrl()));
        m.put("reason", reason);
        m.put("evidence", decision == null ? List.of() : spans(decision.relevanceEvidence()));
        return m;
    }

    /**
     * @param spans decision spans
     * @return each as {@code field}, {@code offset}, {@code length}, {@code text},
     * {@code rule}
     */
    public static List<Map<String, Object>> spans(List<Decision.Span> spans) {
        return spans.stream().map(sp -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("field", sp.field());
            m.put("offset", sp.offset());
            m.put("length", sp.length());
            m.put("text", sp.text());
            m.put("rule", sp.rule());
            return m;
        }).toList();
    }

}
