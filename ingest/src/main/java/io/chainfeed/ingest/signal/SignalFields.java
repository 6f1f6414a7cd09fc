package io.chainfeed.ingest.signal;

import java.util.HashMap;
import java.util.Map;

/**
 * A raw signal's fields, bound by name once where the signal arrives (file readers, the
 * web controller, the feed poller), so that {@link SignalValidator} reads named
 * components instead of map keys. Names are matched case-insensitively, ignoring
 * {@code _}, {@code -} and spaces ({@code observed_at}, {@code Observed-At}); when two
 * keys spell the same name the later one wins. {@code layers} wins over
 * {@code layerHints}, and {@code observedAt} over {@code observed}, whenever the first is
 * present at all, even as null. Values stay as given (String, Number, List or Map, or
 * null): their types and forms are the validator's to check, with its messages.
 *
 * @param id the {@code id} given, or null
 * @param headline {@code headline}
 * @param body {@code body}
 * @param layers {@code layers}, else {@code layerHints}: a list or a separated string
 * @param direction {@code direction}
 * @param magnitude {@code magnitude}
 * @param observedAt {@code observedAt}, else {@code observed}
 * @param observedAtBasis {@code observedAtBasis}
 * @param until {@code until}
 * @param untilGiven whether {@code until} was given at all, even as null (a review that
 * gives it empty clears the horizon)
 * @param segment {@code segment}
 * @param source {@code source}: an object with {@code name} and {@code url}
 */
public record SignalFields(Object id, Object headline, Object body, Object layers, Object direction, Object magnitude,
        Object observedAt, Object observedAtBasis, Object until, boolean untilGiven, Object segment, Object source) {

    /**
     * @param fields a raw signal's fields by name as given, not null
     * @return them bound to their components
     */
    public static SignalFields bind(Map<String, ?> fields) {
        Map<String, Object> f = new HashMap<>();
        fields.forEach((k, v) -> f.put(SignalReader.canonical(k), v));
        return new SignalFields(f.get("id"), f.get("headline"), f.get("body"),
                f.containsKey("layers") ? f.get("layers") : f.get("layerhints"), f.get("direction"), f.get("magnitude"),
                f.containsKey("observedat") ? f.get("observedat") : f.get("observed"), f.get("observedatbasis"),
                f.get("until"), f.containsKey("until"), f.get("segment"), f.get("source"));
    }

}
