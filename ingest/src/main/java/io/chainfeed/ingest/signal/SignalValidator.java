package io.chainfeed.ingest.signal;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.ObservedAtBasis;
import io.chainfeed.avro.Source;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a raw signal field by field and builds the {@link ConstraintSignal}, or lists every problem.
 *
 * <p>Fields (names are matched case-insensitively, ignoring {@code _} and {@code -}):
 * {@code id} (optional, {@code [A-Za-z0-9][A-Za-z0-9._-]*}, at most 128; when absent it is derived
 * from the source URL, headline and observed-at, so a re-post is the same signal),
 * {@code headline} (required, at most 300 chars), {@code body} (optional, at most 20,000),
 * {@code layers} or {@code layerHints} (required: layer ids or names, a list or a {@code ;}-separated
 * string), {@code direction} ({@code tightening} or {@code easing}), {@code magnitude} (integer 1-5),
 * {@code observedAt} (see {@link SignalDates}), {@code observedAtBasis} (optional: an
 * {@link ObservedAtBasis} symbol saying where observedAt came from), {@code until} (optional, in
 * the forms of {@link SignalDates}: the end of the period the signal speaks of, such as "sold out
 * through 2025"; the chain model keeps its full weight until then), {@code source} ({@code name} and
 * absolute http(s) {@code url}, both required).
 */
public final class SignalValidator {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    static final int MAX_HEADLINE = 300;
    static final int MAX_BODY = 20_000;

    private final Map<String, String> layerIds = new HashMap<>();
    private final List<String> knownIds = new ArrayList<>();

    /** @param layers the known chain layers; hints may name them by id, name or alias */
    public SignalValidator(Collection<ChainLayer> layers) {
        for (ChainLayer l : layers) {
            knownIds.add(l.getId());
            layerIds.put(norm(l.getId()), l.getId());
            layerIds.put(norm(l.getName()), l.getId());
            l.getAliases().forEach(a -> layerIds.putIfAbsent(norm(a), l.getId()));
        }
    }

    /**
     * Outcome of validating one raw signal: the signal (version 0, set on publishing) or the errors.
     *
     * @param input  the raw signal
     * @param signal the signal, null if there are errors
     * @param errors every problem found, empty if valid
     */
    public record Checked(SignalInput input, ConstraintSignal signal, List<SignalError> errors) {
        /** @return whether the signal is valid */
        public boolean valid() {
            return errors.isEmpty();
        }
    }

    /**
     * @param input a raw signal
     * @return the signal or the list of what is wrong with it
     */
    public Checked check(SignalInput input) {
        List<SignalError> errors = new ArrayList<>();
        if (input.unreadable() != null) {
            errors.add(new SignalError(input.index(), input.line(), "record", input.unreadable()));
            return new Checked(input, null, errors);
        }
        Map<String, Object> f = new HashMap<>();
        input.fields().forEach((k, v) -> f.put(SignalReader.canonical(k), v));
        Errors e = new Errors(input, errors);

        String headline = text(f.get("headline"), "headline", true, MAX_HEADLINE, e);
        String body = text(f.get("body"), "body", false, MAX_BODY, e);
        List<String> layers = layers(f.containsKey("layers") ? f.get("layers") : f.get("layerhints"), e);
        Direction direction = direction(f.get("direction"), e);
        Integer magnitude = magnitude(f.get("magnitude"), e);
        Instant observedAt = observedAt(f.containsKey("observedat") ? f.get("observedat") : f.get("observed"), e);
        ObservedAtBasis basis = basis(f.get("observedatbasis"), e);
        Instant until = f.get("until") == null ? null : date(f.get("until"), "until", e);
        Source source = source(f.get("source"), e);
        String id = text(f.get("id"), "id", false, 128, e);
        if (id != null && !ID.matcher(id).matches()) {
            e.add("id", "'" + id + "' may hold only letters, digits, '.', '_' and '-', starting with a letter or digit");
        }
        if (!errors.isEmpty()) {
            return new Checked(input, null, errors);
        }
        if (id == null) {
            id = "sig-" + sha256(source.getUrl() + "\n" + headline + "\n" + observedAt).substring(0, 20);
        }
        ConstraintSignal signal = ConstraintSignal.newBuilder().setId(id).setHeadline(headline)
                .setBody(body == null ? "" : body).setLayerHints(layers).setDirection(direction)
                .setMagnitude(magnitude).setObservedAt(observedAt).setObservedAtBasis(basis).setUntil(until).setSource(source).setVersion(0).build();
        return new Checked(input, signal, errors);
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
        } else if (value instanceof List<?> list) {
            raw.addAll(list);
        } else if (value != null) {
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
            } else {
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
        } else if (value instanceof String s && s.strip().matches("-?\\d{1,9}")) {
            m = Integer.parseInt(s.strip());
        } else {
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
        try {
            return SignalDates.parse(String.valueOf(value));
        } catch (IllegalArgumentException ex) {
            e.add(field, ex.getMessage());
            return null;
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
        } catch (IllegalArgumentException ex) {
            e.add("observedAtBasis", "'" + value + "' is not one of " + java.util.Arrays.toString(ObservedAtBasis.values()));
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
        } catch (java.net.URISyntaxException ex) {
            e.add("source.url", "'" + u + "' is not a URL: " + ex.getReason());
            return null;
        }
        return ok ? new Source(((String) name).strip(), u) : null;
    }

    private static String norm(String s) {
        return s.strip().toLowerCase(Locale.ROOT).replaceAll("[\\s_]+", "-");
    }

    private static String sha256(String s) {
        try {
            return java.util.HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private record Errors(SignalInput input, List<SignalError> list) {
        void add(String field, String reason) {
            list.add(new SignalError(input.index(), input.line(), field, reason));
        }
    }
}
