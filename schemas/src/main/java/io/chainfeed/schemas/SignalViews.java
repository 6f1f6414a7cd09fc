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
 * The {@code signal} object of a signal read ({@link ReadDocument.Signal}) and of the
 * signal endpoint's answer: {@code direction}, {@code magnitude}, {@code until} (ISO-8601
 * or null), {@code decidedBy} ({@code editor} or {@code text}), {@code confidence} (0-1),
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
     * @return the signal object
     */
    public static ReadDocument.Signal view(String direction, int magnitude, Instant until, SignalDecision decision) {
        Map<String, String> decided = new LinkedHashMap<>();
        Map<String, List<ReadDocument.Span>> evidence = new LinkedHashMap<>();
        if (decision == null) {
            for (String f : List.of("direction", "magnitude", "layers", "until")) {
                decided.put(f, "editor");
            }
            return new ReadDocument.Signal(direction.toLowerCase(Locale.ROOT), magnitude, instant(until), "editor", 1.0,
                    false, decided, evidence, null);
        }
        for (DecidedValue v : decision.getValues()) {
            decided.put(v.getField(), v.getDecidedBy());
            if (v.getDecidedBy().equals("text")) {
                evidence.put(v.getField(), spans(v.getEvidence()));
            }
        }
        if (!decision.getRelevance().isEmpty()) {
            evidence.put("relevance", spans(decision.getRelevance()));
        }
        SignalReview r = decision.getReview();
        ReadDocument.Review review = r == null ? null
                : new ReadDocument.Review(r.getOutcome(), r.getReviewedAt().toString(), r.getReviewedVersion());
        return new ReadDocument.Signal(direction.toLowerCase(Locale.ROOT), magnitude, instant(until),
                decision.getDecidedBy(), decision.getConfidence(), decision.getHeld(), decided, evidence, review);
    }

    private static String instant(Instant i) {
        return i == null ? null : i.toString();
    }

    /**
     * @param evidence Avro evidence of a decision (start and end offsets)
     * @return each as a span: field, offset, length ({@code end - start}), text, rule
     */
    public static List<ReadDocument.Span> spans(List<Evidence> evidence) {
        return evidence.stream()
            .map(e -> new ReadDocument.Span(e.getField(), e.getStart(), e.getEnd() - e.getStart(), e.getText(),
                    e.getRule()))
            .toList();
    }

}
