package io.chainfeed.chain.history;

import com.fasterxml.jackson.databind.JsonNode;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.ObservedAtBasis;
import io.chainfeed.avro.Source;
import io.chainfeed.chain.reference.ChainReference;
import io.chainfeed.chain.reference.ChainSegments;
import io.chainfeed.chain.reference.CorpusException;
import io.chainfeed.chain.reference.TextFiles;
import io.chainfeed.chain.reference.TextFiles.NamedText;
import io.chainfeed.chain.reference.YamlFields;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The bundled history of the chain: dated constraint signals since January 2023, each
 * checked against a public source ({@code history/signals.yaml}), and a reference
 * timeline written from public reporting that says, per chain layer and quarter, whether
 * that part of the chain was tight, balanced or loose ({@code history/reference.yaml}),
 * for the backtest.
 *
 * <p>
 * Signals: {@code id} ({@code h-} + slug), {@code date} (ISO-8601 day, UTC, the day the
 * source published the fact; observedAt is that day's start), {@code headline},
 * {@code body}, {@code layers} (layer ids, primary first), {@code companies} (company
 * ids), {@code direction} ({@code tightening}/{@code easing}), {@code magnitude} (1-5),
 * {@code until} (an ISO-8601 day or null: the signal holds its full weight to the end of
 * that day, UTC), optional {@code segment} (a segment of one of its layers,
 * {@link ChainSegments}, when the entry speaks of that segment alone: memory {@code hbm}
 * or {@code conventional}, foundry {@code leading-edge} or {@code mature}),
 * {@code source} ({@code name}, https {@code url}) and optional {@code revision} (default
 * 1): the signal's version, raised when an entry is corrected, so that loading the
 * history again changes nothing downstream and never overrides an editor's later
 * correction (an editor's version is the publish time in epoch ms).
 *
 * <p>
 * Reference cells: per {@code layer}, {@code quarters} of {@code quarter}
 * ({@code 2024Q3}), {@code status} ({@code tight}, {@code balanced}, {@code loose}),
 * {@code note} and https {@code source}.
 */
public final class History {

    /** Where the bundled history lives on the classpath. */
    public static final String BUNDLED_LOCATION = "history";
    static final String SIGNALS_FILE = "signals.yaml";
    static final String REFERENCE_FILE = "reference.yaml";
    static final String HOLDOUT_FILE = "reference-holdout.yaml";
    static final String THIRD_FILE = "reference-third.yaml";

    /**
     * The last quarter of the reference set the chain model's constants may be tuned on
     * (docs/chain-model-prereg.md); later quarters, the held-out and the third set only
     * score.
     */
    public static final String LAST_TUNING_QUARTER = "2024Q4";

    /** The earliest day an entry may carry. */
    public static final LocalDate START = LocalDate.of(2023, 1, 1);

    private static final Pattern ID = Pattern.compile("h-\\d{4}-\\d{2}-\\d{2}-[a-z0-9]+(-[a-z0-9]+)*");

    private static final Pattern QUARTER = Pattern.compile("(\\d{4})Q([1-4])");

    private static final Set<String> SIGNAL_FIELDS = Set.of("id", "date", "headline", "body", "layers", "companies",
            "direction", "magnitude", "until", "segment", "source", "revision");

    private static final Set<String> CELL_FIELDS = Set.of("quarter", "status", "note", "source");

    /**
     * One bundled signal.
     *
     * @param signal the constraint signal as published (version = the entry's revision)
     * @param companies the ids of the companies it is about, from {@code companies.yaml}
     */
    public record Entry(ConstraintSignal signal, List<String> companies) {
    }

    /** A layer's state in a quarter, as public reporting described it. */
    public enum Status {

        TIGHT, BALANCED, LOOSE

    }

    /**
     * One labelled cell of the reference timeline.
     *
     * @param layer the chain layer id
     * @param quarter the calendar quarter, e.g. {@code 2024Q3}
     * @param status what reporting said of the layer then
     * @param note what the source reports, in the team's words
     * @param source the https URL of the report
     */
    public record Cell(String layer, String quarter, Status status, String note, String source) {
        /**
         * @return the last instant of its quarter ({@link History#quarterEnd})
         */
        public Instant end() {
            return quarterEnd(quarter);
        }
    }

    /**
     * @param quarter a calendar quarter, e.g. {@code 2024Q3}
     * @return its last instant: the start of the next quarter (UTC) minus one millisecond
     * @throws IllegalArgumentException if the text is not {@code <year>Q<1-4>}
     */
    public static Instant quarterEnd(String quarter) {
        var m = QUARTER.matcher(quarter);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a quarter: " + quarter);
        }
        YearMonth next = YearMonth.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)) * 3).plusMonths(1);
        return next.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusMillis(1);
    }

    private final List<Entry> entries;

    private final List<Cell> reference;

    private final List<Cell> holdout;

    private final List<Cell> third;

    private History(List<Entry> entries, List<Cell> reference, List<Cell> holdout, List<Cell> third) {
        this.entries = List.copyOf(entries);
        this.reference = List.copyOf(reference);
        this.holdout = List.copyOf(holdout);
        this.third = List.copyOf(third);
    }

    /**
     * Loads the bundled history from the classpath and checks every entry against the
     * corpus.
     * @param corpus the reference data whose layer and company ids the entries must use
     * @return the history
     * @throws CorpusException naming the file and field of the first problem: a missing
     * or unknown field, a malformed or out-of-range date, an unknown layer or company, a
     * source that is not https, a repeated id, or a repeated story (two entries on one
     * source URL or one headline)
     */
    public static History loadBundled(ChainReference corpus) {
        String base = BUNDLED_LOCATION + "/";
        NamedText signals = TextFiles.bundled(base + SIGNALS_FILE);
        NamedText reference = TextFiles.bundled(base + REFERENCE_FILE);
        NamedText holdout = TextFiles.bundled(base + HOLDOUT_FILE);
        NamedText thirdText = TextFiles.bundled(base + THIRD_FILE);
        History h = parse(signals.name(), signals.text(), reference.name(), reference.text(), corpus,
                LocalDate.now(ZoneOffset.UTC));
        Set<String> layers = corpus.layers().stream().map(ChainLayer::getId).collect(Collectors.toSet());
        List<Cell> held = reference(holdout.name(), holdout.text(), layers);
        Set<String> labelled = h.reference.stream().map(c -> c.layer() + " " + c.quarter()).collect(Collectors.toSet());
        for (Cell c : held) {
            if (labelled.contains(c.layer() + " " + c.quarter())) {
                throw new CorpusException(holdout.name(), c.layer() + " " + c.quarter(),
                        "is labelled in " + REFERENCE_FILE + " too: the held-out reference labels other cells");
            }
        }
        List<Cell> third = reference(thirdText.name(), thirdText.text(), layers);
        for (Cell c : third) {
            if (c.quarter().compareTo(LAST_TUNING_QUARTER) <= 0 && labelled.contains(c.layer() + " " + c.quarter())) {
                throw new CorpusException(thirdText.name(), c.layer() + " " + c.quarter(),
                        "is a tuning cell of " + REFERENCE_FILE + " (" + LAST_TUNING_QUARTER
                                + " or before): the third set scores only cells the model is not tuned on");
            }
        }
        return new History(h.entries, h.reference, held, third);
    }

    /**
     * Parses and checks history files.
     * @param signalsName the signals file's name, for errors
     * @param signalsText its YAML
     * @param referenceName the reference file's name, for errors
     * @param referenceText its YAML
     * @param corpus the reference data whose layer and company ids the entries must use
     * @param today the latest day an entry may carry (UTC)
     * @return the history
     * @throws CorpusException as {@link #loadBundled}
     */
    static History parse(String signalsName, String signalsText, String referenceName, String referenceText,
            ChainReference corpus, LocalDate today) {
        Set<String> layers = corpus.layers().stream().map(ChainLayer::getId).collect(Collectors.toSet());
        Set<String> companies = corpus.companies().stream().map(Company::getId).collect(Collectors.toSet());
        List<Entry> entries = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Map<String, String> byUrl = new HashMap<>();
        Map<String, String> byHeadline = new HashMap<>();
        for (YamlFields item : YamlFields.parse(signalsName, signalsText).requiredObjectList("signals")) {
            item.allowOnly(SIGNAL_FIELDS);
            String id = item.requiredText("id");
            if (!ID.matcher(id).matches()) {
                throw item.error("id",
                        "'" + id + "' is not h-<yyyy-mm-dd>-<slug> (lower-case letters, digits, dashes)");
            }
            if (!ids.add(id)) {
                throw item.error("id", "'" + id + "' is used twice");
            }
            LocalDate date = day(item, "date", item.requiredText("date"), today);
            if (!id.startsWith("h-" + date + "-")) {
                throw item.error("id", "'" + id + "' does not start with its date h-" + date);
            }
            String untilText = item.optionalText("until");
            LocalDate until = untilText == null ? null : LocalDate.parse(untilText);
            List<String> named = item.textList("layers");
            if (named.isEmpty()) {
                throw item.error("layers", "names no layer");
            }
            for (String l : named) {
                if (!layers.contains(l)) {
                    throw item.error("layers", "'" + l + "' is not a layer id of layers.yaml");
                }
            }
            String segment = item.optionalText("segment");
            String segmentRefused = corpus.segments().refusal(segment, named);
            if (segmentRefused != null) {
                throw item.error("segment", segmentRefused);
            }
            List<String> about = item.textList("companies");
            for (String c : about) {
                if (!companies.contains(c)) {
                    throw item.error("companies", "'" + c + "' is not a company id of companies.yaml");
                }
            }
            Direction direction = switch (item.requiredText("direction")) {
                case "tightening" -> Direction.TIGHTENING;
                case "easing" -> Direction.EASING;
                default -> throw item.error("direction", "must be tightening or easing");
            };
            int magnitude = integer(item, "magnitude", 1, 5, null);
            int revision = integer(item, "revision", 1, Integer.MAX_VALUE, 1);
            YamlFields source = source(item);
            String sourceName = source.requiredText("name");
            String url = https(source, source.requiredText("url"));
            String headline = item.requiredText("headline");
            String storyUrl = url.toLowerCase(Locale.ROOT).replaceAll("[/#]+$", "");
            String other = byUrl.putIfAbsent(storyUrl, id);
            if (other != null) {
                throw item.error("source.url", "the same story as " + other + " (one source URL, one entry)");
            }
            other = byHeadline.putIfAbsent(headline.toLowerCase(Locale.ROOT), id);
            if (other != null) {
                throw item.error("headline", "the same headline as " + other);
            }
            ConstraintSignal signal = ConstraintSignal.newBuilder()
                .setId(id)
                .setHeadline(headline)
                .setBody(item.requiredText("body"))
                .setLayerHints(named)
                .setDirection(direction)
                .setMagnitude(magnitude)
                .setObservedAt(date.atStartOfDay().toInstant(ZoneOffset.UTC))
                .setObservedAtBasis(ObservedAtBasis.GIVEN)
                .setUntil(until == null ? null : until.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC))
                .setSegment(segment)
                .setSource(new Source(sourceName, url))
                .setVersion(revision)
                .build();
            entries.add(new Entry(signal, List.copyOf(about)));
        }
        return new History(entries, reference(referenceName, referenceText, layers), List.of(), List.of());
    }

    private static List<Cell> reference(String name, String text, Set<String> layers) {
        List<Cell> cells = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (YamlFields layer : YamlFields.parse(name, text).requiredObjectList("reference")) {
            layer.allowOnly(Set.of("layer", "quarters"));
            String id = layer.requiredText("layer");
            if (!layers.contains(id)) {
                throw layer.error("layer", "'" + id + "' is not a layer id of layers.yaml");
            }
            for (YamlFields q : layer.requiredObjectList("quarters")) {
                q.allowOnly(CELL_FIELDS);
                String quarter = q.requiredText("quarter");
                if (!QUARTER.matcher(quarter).matches()) {
                    throw q.error("quarter", "'" + quarter + "' is not <year>Q<1-4>");
                }
                if (!seen.add(id + " " + quarter)) {
                    throw q.error("quarter", id + " " + quarter + " is labelled twice");
                }
                Status status;
                try {
                    status = Status.valueOf(q.requiredText("status").toUpperCase(Locale.ROOT));
                }
                catch (IllegalArgumentException e) {
                    throw q.error("status", "must be tight, balanced or loose");
                }
                cells.add(new Cell(id, quarter, status, q.requiredText("note"), https(q, q.requiredText("source"))));
            }
        }
        return cells;
    }

    private static YamlFields source(YamlFields item) {
        JsonNode node = item.node().get("source");
        if (node == null || !node.isObject()) {
            throw item.error("source", "must be a mapping with name and url");
        }
        YamlFields source = new YamlFields(item.file(), item.pathOf("source"), node);
        source.allowOnly(Set.of("name", "url"));
        return source;
    }

    private static LocalDate day(YamlFields item, String field, String text, LocalDate today) {
        LocalDate d;
        try {
            d = LocalDate.parse(text);
        }
        catch (DateTimeParseException e) {
            throw item.error(field, "'" + text + "' is not an ISO-8601 day (yyyy-mm-dd)");
        }
        if (d.isBefore(START) || d.isAfter(today)) {
            throw item.error(field, d + " is outside " + START + " .. " + today);
        }
        return d;
    }

    private static int integer(YamlFields item, String field, int min, int max, Integer absent) {
        JsonNode v = item.node().get(field);
        if (v == null || v.isNull()) {
            if (absent == null) {
                throw item.error(field, "missing");
            }
            return absent;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.intValue() < min || v.intValue() > max) {
            throw item.error(field,
                    "must be an integer " + min + (max == Integer.MAX_VALUE ? " or more" : " to " + max));
        }
        return v.intValue();
    }

    private static String https(YamlFields item, String url) {
        try {
            URI uri = new URI(url);
            if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw item.error("url", "'" + url + "' is not an absolute https URL");
            }
        }
        catch (URISyntaxException e) {
            throw item.error("url", "'" + url + "' is not a valid URL: " + e.getReason());
        }
        return url;
    }

    /**
     * @return the bundled signals, in file order
     */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * @return the bundled signals as published
     */
    public List<ConstraintSignal> signals() {
        return entries.stream().map(Entry::signal).toList();
    }

    /**
     * @return the labelled cells of the reference timeline, in file order
     */
    public List<Cell> reference() {
        return reference;
    }

    /**
     * @return the cells of the held-out reference
     * ({@code history/reference-holdout.yaml}): other layer-quarters, labelled from other
     * reports after the calibration was chosen, so that the backtest is also checked
     * where it was not tuned; empty when parsed without it
     */
    public List<Cell> holdout() {
        return holdout;
    }

    /**
     * @return the third reference set (history/reference-third.yaml, issue 37): cells
     * written from other reports than the reference and the held-out set, none of them a
     * reference cell of the tuning quarters; empty when parsed from text
     */
    public List<Cell> third() {
        return third;
    }

}
