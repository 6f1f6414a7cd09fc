package io.chainfeed.ingest.signal;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.DecidedValue;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.ObservedAtBasis;
import io.chainfeed.avro.SignalDecision;
import io.chainfeed.avro.SignalReview;
import io.chainfeed.avro.Source;
import io.chainfeed.chain.reference.ChainSegments;
import io.chainfeed.ingest.decide.Decision;
import io.chainfeed.ingest.decide.TextDecider;
import io.chainfeed.platform.Sha256;
import io.chainfeed.platform.web.TimeParameters;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a raw signal field by field and builds the {@link ConstraintSignal}, or lists
 * every problem.
 *
 * <p>
 * Fields, bound by name where the signal is read ({@link SignalFields}; names are matched
 * case-insensitively, ignoring {@code _} and {@code -}): {@code id} (optional,
 * {@code [A-Za-z0-9][A-Za-z0-9._-]*}, at most 128; when absent it is derived from the
 * source URL, headline and observed-at, so a re-post is the same signal),
 * {@code headline} (required, at most 300 chars), {@code body} (optional, at most
 * 20,000), {@code layers} or {@code layerHints} (required: layer ids or names, a list or
 * a {@code ;}-separated string), {@code direction} ({@code tightening} or
 * {@code easing}), {@code magnitude} (integer 1-5), {@code observedAt} (see
 * {@link SignalDates}), {@code observedAtBasis} (optional: an {@link ObservedAtBasis}
 * symbol saying where observedAt came from), {@code until} (optional, in the forms of
 * {@link SignalDates}: the end of the period the signal speaks of, such as "sold out
 * through 2025"; the chain model keeps its full weight until then), {@code segment}
 * (optional: the one segment of one of its layers the signal speaks of alone, a
 * {@link ChainSegments} id such as {@code hbm}; the chain model weighs it by the
 * segment's share in that layer), {@code source} ({@code name} and absolute http(s)
 * {@code url}, both required).
 *
 * <p>
 * With a {@link TextDecider}, {@code layers}, {@code direction} and {@code magnitude} may
 * be left out: the missing ones (and {@code until}, unless given) are decided from the
 * headline and body, and the signal carries a {@link SignalDecision} saying who decided
 * what, with the words. A given value always wins. An item the decider finds not about a
 * supply constraint is skipped, with the reason; one decided below the hold threshold is
 * held for review (published, not counted by the chain model). A signal with all three
 * given is the editor's: nothing is decided and it carries no decision.
 */
public final class SignalValidator {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    static final int MAX_HEADLINE = 300;
    static final int MAX_BODY = 20_000;

    private final Map<String, String> layerIds = new HashMap<>();

    private final List<String> knownIds = new ArrayList<>();

    private final TextDecider decider;

    private final double holdBelow;

    /**
     * @param layers the known chain layers; hints may name them by id, name or alias
     */
    public SignalValidator(Collection<ChainLayer> layers) {
        this(layers, null, 0);
    }

    /**
     * @param layers the known chain layers; hints may name them by id, name or alias
     * @param decider decides missing values from the text; null to require every value
     * @param holdBelow a signal decided with a confidence below this is held for review
     */
    public SignalValidator(Collection<ChainLayer> layers, TextDecider decider, double holdBelow) {
        this.decider = decider;
        this.holdBelow = holdBelow;
        for (ChainLayer l : layers) {
            knownIds.add(l.getId());
            layerIds.put(norm(l.getId()), l.getId());
            layerIds.put(norm(l.getName()), l.getId());
            l.getAliases().forEach(a -> layerIds.putIfAbsent(norm(a), l.getId()));
        }
    }

    /**
     * @param input a raw signal, its fields bound
     * @return the signal accepted or held for review, the item skipped with the reason,
     * or every problem found
     */
    public SignalOutcome check(SignalInput input) {
        List<SignalError> errors = new ArrayList<>();
        if (input.unreadable() != null) {
            errors.add(new SignalError(input.index(), input.line(), "record", input.unreadable()));
            return new SignalOutcome.Rejected(errors);
        }
        SignalFields f = input.bound();
        Errors e = new Errors(input.index(), input.line(), errors);
        Missing missing = new Missing(decider != null && missing(f.layers()), decider != null && missing(f.direction()),
                decider != null && missing(f.magnitude()), f.until() == null);
        Values given = read(f, missing, e);
        if (!errors.isEmpty()) {
            return new SignalOutcome.Rejected(errors);
        }
        if (given.id() == null) {
            given = given.withId(
                    "sig-" + Sha256.hex(given.source().getUrl() + "\n" + given.headline() + "\n" + given.observedAt())
                        .substring(0, 20));
        }
        if (!missing.any()) {
            return finish(given, null, null, e, errors);
        }
        Decision decision = decider.decide(given.headline(), given.body(), given.observedAt());
        if (!decision.relevant()) {
            return new SignalOutcome.Skipped(skipped(given), decision.skipReason(), decision);
        }
        Values decided = given.fill(decision, missing);
        return finish(decided, decision, record(decided, decision, missing), e, errors);
    }

    /** Which values the decider is to fill: not given, and a decider there to decide. */
    private record Missing(boolean layers, boolean direction, boolean magnitude, boolean until) {
        boolean any() {
            return layers || direction || magnitude;
        }
    }

    /**
     * A raw signal's values as read: null where not given, missing or invalid.
     */
    private record Values(String id, String headline, String body, List<String> layers, Direction direction,
            Integer magnitude, Instant observedAt, ObservedAtBasis basis, Instant until, String segment,
            Source source) {

        Values withId(String derived) {
            return new Values(derived, headline, body, layers, direction, magnitude, observedAt, basis, until, segment,
                    source);
        }

        /** These values with the missing ones taken from the decision. */
        Values fill(Decision d, Missing missing) {
            return new Values(id, headline, body, missing.layers() ? d.primaryLayers() : layers,
                    missing.direction() ? d.direction() : direction, missing.magnitude() ? d.magnitude() : magnitude,
                    observedAt, basis, missing.until() ? d.until() : until, segment, source);
        }

        /**
         * A builder with every value but the layers, direction, magnitude and segment
         * set.
         */
        ConstraintSignal.Builder builder() {
            return ConstraintSignal.newBuilder()
                .setId(id)
                .setHeadline(headline)
                .setBody(body == null ? "" : body)
                .setObservedAt(observedAt)
                .setObservedAtBasis(basis)
                .setUntil(until)
                .setSource(source)
                .setVersion(0);
        }
    }

    /** Reads and checks every field, in the order of the errors. */
    private Values read(SignalFields f, Missing missing, Errors e) {
        String headline = text(f.headline(), "headline", true, MAX_HEADLINE, e);
        String body = text(f.body(), "body", false, MAX_BODY, e);
        List<String> layers = missing.layers() ? null : layers(f.layers(), e);
        Direction direction = missing.direction() ? null : direction(f.direction(), e);
        Integer magnitude = missing.magnitude() ? null : magnitude(f.magnitude(), e);
        Instant observedAt = observedAt(f.observedAt(), e);
        ObservedAtBasis basis = basis(f.observedAtBasis(), e);
        Instant until = f.until() == null ? null : date(f.until(), "until", e);
        untilNotBefore(until, observedAt, e);
        String segment = text(f.segment(), "segment", false, 64, e);
        String unknownSegment = ChainSegments.bundled().refusal(segment, null);
        if (unknownSegment != null) {
            e.add("segment", unknownSegment);
        }
        Source source = source(f.source(), e);
        String id = text(f.id(), "id", false, 128, e);
        if (id != null && !ID.matcher(id).matches()) {
            e.add("id",
                    "'" + id + "' may hold only letters, digits, '.', '_' and '-', starting with a letter or digit");
        }
        return new Values(id, headline, body, layers, direction, magnitude, observedAt, basis, until, segment, source);
    }

    /**
     * The item as a skipped record: the values given, placeholders for those the decider
     * would have filled.
     */
    private static ConstraintSignal skipped(Values v) {
        return v.builder()
            .setLayerHints(v.layers() == null ? List.of() : v.layers())
            .setDirection(v.direction() == null ? Direction.TIGHTENING : v.direction())
            .setMagnitude(v.magnitude() == null ? 1 : v.magnitude())
            .build();
    }

    /**
     * Who decided what: each value the editor's or the text's, with the words; held when
     * layers or direction were decided below the hold threshold.
     */
    private SignalDecision record(Values v, Decision decision, Missing missing) {
        List<DecidedValue> values = new ArrayList<>();
        values.add(value("layers", String.join(";", v.layers()), missing.layers(),
                missing.layers() ? decision.layers()
                    .stream()
                    .filter(Decision.LayerPick::primary)
                    .flatMap(l -> l.evidence().stream())
                    .toList() : List.of()));
        values.add(value("direction", v.direction().name().toLowerCase(Locale.ROOT), missing.direction(),
                missing.direction() ? decision.directionEvidence() : List.of()));
        values.add(value("magnitude", String.valueOf(v.magnitude()), missing.magnitude(),
                missing.magnitude() ? decision.magnitudeEvidence() : List.of()));
        values.add(value("until", v.until() == null ? "" : v.until().toString(), missing.until(),
                missing.until() ? decision.untilEvidence() : List.of()));
        boolean held = (missing.layers() || missing.direction()) && decision.confidence() < holdBelow;
        return SignalDecision.newBuilder()
            .setDecidedBy("text")
            .setConfidence(decision.confidence())
            .setReader(decision.reader())
            .setReaderVersion(decision.readerVersion())
            .setHeld(held)
            .setValues(values)
            .setRelevance(evidence(decision.relevanceEvidence()))
            .setReview(null)
            .build();
    }

    /**
     * The signal, once its segment is known to be one of its layers': accepted, or held
     * when its decision says so.
     */
    private SignalOutcome finish(Values v, Decision decision, SignalDecision record, Errors e,
            List<SignalError> errors) {
        String segmentRefused = ChainSegments.bundled().refusal(v.segment(), v.layers());
        if (segmentRefused != null) {
            e.add("segment", segmentRefused);
            return new SignalOutcome.Rejected(errors);
        }
        ConstraintSignal signal = v.builder()
            .setLayerHints(v.layers())
            .setDirection(v.direction())
            .setMagnitude(v.magnitude())
            .setSegment(v.segment())
            .setDecision(record)
            .build();
        if (record != null && record.getHeld()) {
            return new SignalOutcome.Held(signal, decision,
                    "decided with confidence " + decision.confidence() + ", below the hold threshold " + holdBelow);
        }
        return new SignalOutcome.Accepted(signal, decision);
    }

    /**
     * An editor's review of a kept signal: confirms its values, or corrects those given
     * (a new version).
     * @param current the latest version of the signal
     * @param fields the review, bound: {@code direction}, {@code magnitude},
     * {@code layers}, {@code until} (each optional; none given confirms), as in a posted
     * signal; other fields are ignored
     * @param reviewedAt when the review happened
     * @param index the review's position, for its errors (0)
     * @return the reviewed signal, accepted (version 0, set on publishing; its decision
     * the editor's), or the errors
     */
    public SignalOutcome review(ConstraintSignal current, SignalFields fields, Instant reviewedAt, int index) {
        List<SignalError> errors = new ArrayList<>();
        Errors e = new Errors(index, 0, errors);
        List<String> layers = missing(fields.layers()) ? null : layers(fields.layers(), e);
        Direction direction = missing(fields.direction()) ? null : direction(fields.direction(), e);
        Integer magnitude = missing(fields.magnitude()) ? null : magnitude(fields.magnitude(), e);
        boolean untilGiven = fields.untilGiven();
        Instant until = fields.until() == null || (fields.until() instanceof String u && u.isBlank()) ? null
                : date(fields.until(), "until", e);
        untilNotBefore(until, current.getObservedAt(), e);
        if (!errors.isEmpty()) {
            return new SignalOutcome.Rejected(errors);
        }
        boolean corrected = layers != null || direction != null || magnitude != null || untilGiven;
        SignalDecision old = current.getDecision();
        List<DecidedValue> values = new ArrayList<>();
        Map<String, DecidedValue> before = new LinkedHashMap<>();
        if (old != null) {
            old.getValues().forEach(v -> before.put(v.getField(), v));
        }
        ConstraintSignal.Builder b = ConstraintSignal.newBuilder(current).setVersion(0);
        values.add(reviewed("layers", layers == null ? null : String.join(";", layers), before));
        values.add(reviewed("direction", direction == null ? null : direction.name().toLowerCase(Locale.ROOT), before));
        values.add(reviewed("magnitude", magnitude == null ? null : String.valueOf(magnitude), before));
        values.add(reviewed("until", untilGiven ? (until == null ? "" : until.toString()) : null, before));
        if (layers != null) {
            b.setLayerHints(layers);
        }
        if (direction != null) {
            b.setDirection(direction);
        }
        if (magnitude != null) {
            b.setMagnitude(magnitude);
        }
        if (untilGiven) {
            b.setUntil(until);
        }
        b.setDecision(SignalDecision.newBuilder()
            .setDecidedBy("editor")
            .setConfidence(old == null ? 1.0 : old.getConfidence())
            .setHeld(false)
            .setValues(values)
            .setRelevance(old == null ? List.of() : old.getRelevance())
            .setReview(new SignalReview(corrected ? "corrected" : "confirmed", reviewedAt, current.getVersion()))
            .build());
        return new SignalOutcome.Accepted(b.build(), null);
    }

    /**
     * A value after review: the editor's when corrected, else as it was (text or editor,
     * with its evidence).
     */
    private static DecidedValue reviewed(String field, String corrected, Map<String, DecidedValue> before) {
        if (corrected != null) {
            return DecidedValue.newBuilder()
                .setField(field)
                .setValue(corrected)
                .setDecidedBy("editor")
                .setEvidence(List.of())
                .build();
        }
        DecidedValue was = before.get(field);
        return was != null ? DecidedValue.newBuilder(was).build()
                : DecidedValue.newBuilder()
                    .setField(field)
                    .setValue("")
                    .setDecidedBy("editor")
                    .setEvidence(List.of())
                    .build();
    }

    private static boolean missing(Object value) {
        return value == null || (value instanceof String s && s.isBlank()) || (value instanceof List<?> l
                && l.stream().allMatch(o -> o == null || (o instanceof String s && s.isBlank())));
    }

    private static DecidedValue value(String field, String value, boolean decided, List<Decision.Span> spans) {
        return DecidedValue.newBuilder()
            .setField(field)
            .setValue(value)
            .setDecidedBy(decided ? "text" : "editor")
            .setEvidence(evidence(spans))
            .build();
    }

    /**
     * @param spans spans of a decision
     * @return the same as Avro evidence (start and end offsets in their field)
     */
    public static List<Evidence> evidence(List<Decision.Span> spans) {
        return spans.stream()
            .map(sp -> new Evidence(sp.rule(), sp.field(), sp.offset(), sp.offset() + sp.length(), sp.text()))
            .toList();
    }

    private static String text(Object value, String field, boolean required, int max, Errors e) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            if (required) {
                e.add(field, "is required");
            }
            return null;
        }
        if (!(value instanceof String s)) {
            e.add(field, "must be a string");
            return null;
        }
        String t = s.strip();
        if (t.length() > max) {
            e.add(field, "is " + t.length() + " characters; at most " + max);
            return null;
        }
        return t;
    }

    private List<String> layers(Object value, Errors e) {
        List<Object> raw = new ArrayList<>();
        if (value instanceof String s) {
            raw.addAll(List.of(s.split("\\s*[;|,]\\s*")));
        }
        else if (value instanceof List<?> list) {
            raw.addAll(list);
        }
        else if (value != null) {
            e.add("layers", "must be a list of layer ids");
            return List.of();
        }
        Set<String> ids = new LinkedHashSet<>();
        for (Object o : raw) {
            if (!(o instanceof String s) || s.isBlank()) {
                continue;
            }
            String id = layerIds.get(norm(s));
            if (id == null) {
                e.add("layers", "'" + s + "' is not a known layer; known: " + String.join(", ", knownIds));
            }
            else {
                ids.add(id);
            }
        }
        if (ids.isEmpty() && raw.stream().noneMatch(o -> o instanceof String s && !s.isBlank())) {
            e.add("layers", "at least one layer is required");
        }
        return List.copyOf(ids);
    }

    private static Direction direction(Object value, Errors e) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            e.add("direction", "is required (tightening or easing)");
            return null;
        }
        String v = String.valueOf(value).strip().toUpperCase(Locale.ROOT);
        return switch (v) {
            case "TIGHTENING", "TIGHTEN", "TIGHTER" -> Direction.TIGHTENING;
            case "EASING", "EASE", "LOOSENING" -> Direction.EASING;
            default -> {
                e.add("direction", "'" + value + "' is neither tightening nor easing");
                yield null;
            }
        };
    }

    private static Integer magnitude(Object value, Errors e) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            e.add("magnitude", "is required (an integer 1 to 5)");
            return null;
        }
        int m;
        if (value instanceof Integer i) {
            m = i;
        }
        else if (value instanceof String s && s.strip().matches("-?\\d{1,9}")) {
            m = Integer.parseInt(s.strip());
        }
        else {
            e.add("magnitude", "'" + value + "' is not an integer 1 to 5");
            return null;
        }
        if (m < 1 || m > 5) {
            e.add("magnitude", m + " is out of range; it must be 1 to 5");
            return null;
        }
        return m;
    }

    private static Instant observedAt(Object value, Errors e) {
        if (value == null) {
            e.add("observedAt", "is required");
            return null;
        }
        return date(value, "observedAt", e);
    }

    private static Instant date(Object value, String field, Errors e) {
        Instant t;
        try {
            t = SignalDates.parse(String.valueOf(value));
        }
        catch (IllegalArgumentException ex) {
            e.add(field, ex.getMessage());
            return null;
        }
        if (!TimeParameters.accepted(t)) {
            // the chain model counts from the epoch, Elasticsearch's dates hold
            // four-digit
            // years: accepted, such a signal could be neither modelled nor indexed
            e.add(field, t + " is out of range; it must lie between " + TimeParameters.EARLIEST + " and "
                    + TimeParameters.LATEST);
            return null;
        }
        return t;
    }

    /**
     * A horizon ends after the news it comes from: {@code until} before
     * {@code observedAt} is a field error.
     */
    private static void untilNotBefore(Instant until, Instant observedAt, Errors e) {
        if (until != null && observedAt != null && until.isBefore(observedAt)) {
            e.add("until",
                    until + " is before observedAt (" + observedAt + "); the horizon must not end before the news");
        }
    }

    /** Optional; the feed poller sets it, a poster may. Absent: null (not recorded). */
    private static ObservedAtBasis basis(Object value, Errors e) {
        if (value == null || (value instanceof String s && s.isBlank())) {
            return null;
        }
        String v = String.valueOf(value).strip().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return ObservedAtBasis.valueOf(v);
        }
        catch (IllegalArgumentException ex) {
            e.add("observedAtBasis", "'" + value + "' is not one of " + Arrays.toString(ObservedAtBasis.values()));
            return null;
        }
    }

    private static Source source(Object value, Errors e) {
        if (!(value instanceof Map<?, ?> m)) {
            e.add("source", value == null ? "is required (name and url)" : "must be an object with name and url");
            return null;
        }
        Object name = m.get("name");
        Object url = m.get("url");
        boolean ok = true;
        if (!(name instanceof String n) || n.isBlank()) {
            e.add("source.name", "is required");
            ok = false;
        }
        if (!(url instanceof String given) || given.isBlank()) {
            e.add("source.url", "is required");
            return null;
        }
        String u = ((String) url).strip();
        try {
            URI uri = new URI(u);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                e.add("source.url", "'" + u + "' is not an absolute http(s) URL");
                return null;
            }
        }
        catch (URISyntaxException ex) {
            e.add("source.url", "'" + u + "' is not a URL: " + ex.getReason());
            return null;
        }
        return ok ? new Source(((String) name).strip(), u) : null;
    }

    private static String norm(String s) {
        return s.strip().toLowerCase(Locale.ROOT).replaceAll("[\\s_]+", "-");
    }

    private record Errors(int index, int line, List<SignalError> list) {
        void add(String field, String reason) {
            list.add(new SignalError(index, line, field, reason));
        }
    }

}
