package io.chainfeed.schemas;

import io.chainfeed.avro.DecidedValue;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.SignalDecision;
import io.chainfeed.avro.SignalReview;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code signal} object of a signal read and of the signal endpoint's answer:
 * {@code direction}, {@code magnitude}, {@code until} (ISO-8601 or null),
 * {@code decidedBy} ({@code editor} or {@code text}), {@code confidence} (0-1),
 * {@code held} (waiting for an editor's review: not counted by the chain model),
 * {@code decided} (per value, who decided it), {@code evidence} (per decided value and
 * {@code relevance}, the spans behind it: {@code field}, {@code offset}, {@code length},
 * {@code text}, {@code rule}) and {@code review} (null, or {@code outcome},
 * {@code reviewedAt}, {@code reviewedVersion}).
 */
public final class SignalViews {

    private SignalViews() {
    }

    /**
     * @param direction tightening or easing (any case)
     * @param magnitude 1-5
     * @param until the horizon, or null
     * @param decision the decision record, or null for an editor's signal
     * @return the JSON-ready object
     */
    public static Map<String, Object> view(String direction, int magnitude, Instant until, SignalDecision decision) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("direction", direction.toLowerCase(Locale.ROOT));
        m.put("magnitude", magnitude);
        m.put("until", until == null ? null : until.toString());
        Map<String, Object> decided = new LinkedHashMap<>();
        Map<String, Object> evidence = new LinkedHashMap<>();
        if (decision == null) {
            m.put("decidedBy", "editor");
            m.put("confidence", 1.0);
            m.put("held", false);
            for (String f : List.of("direction", "magnitude", "layers", "until")) {
                decided.put(f, "editor");
            }
        }
        else {
            m.put("decidedBy", decision.getDecidedBy());
            m.put("confidence", decision.getConfidence());
            m.put("held", decision.getHeld());
            for (DecidedValue v : decision.getValues()) {
                decided.put(v.getField(), v.getDecidedBy());
                if (v.getDecidedBy().equals("text")) {
                    evidence.put(v.getField(), spans(v.getEvidence()));
                }
            }
            if (!decision.getRelevance().isEmpty()) {
                evidence.put("relevance", spans(decision.getRelevance()));
            }
        }
        m.put("decided", decided);
        m.put("evidence", evidence);
        SignalReview r = decision == null ? null : decision.getReview();
        if (r == null) {
            m.put("review", null);
        }
        else {
            Map<String, Object> review = new LinkedHashMap<>();
            review.put("outcome", r.getOutcome());
            review.put("reviewedAt", r.getReviewedAt().toString());
            review.put("reviewedVersion", r.getReviewedVersion());
            m.put("review", review);
        }
        return m;
    }

    /**
     * @param evidence Avro evidence of a decision (start and end offsets)
     * @return each as {@code field}, {@code offset}, {@code length}, {@code text},
     * {@code rule}
     */
    public static List<Map<String, Object>> spans(List<Evidence> evidence) {
        return evidence.stream().map(e -> {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("field", e.getField());
            s.put("offset", e.getStart());
            s.put("length", e.getEnd() - e.getStart());
            s.put("text", e.getText());
            s.put("rule", e.getRule());
            return s;
        }).toList();
    }

}
