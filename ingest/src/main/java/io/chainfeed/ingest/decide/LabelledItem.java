package io.chainfeed.ingest.decide;

import io.chainfeed.avro.Direction;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * One labelled news item of the decision sets
 * ({@code ingest/src/test/resources/decide/*.tsv}): what a reader should decide from its
 * headline and body.
 *
 * @param line its line in the file (1-based), for reports
 * @param relevant whether it is a supply constraint on the chain (or its easing)
 * @param direction tightening or easing; null when not relevant
 * @param layer the primary layer id; null when not relevant
 * @param until the horizon label ({@code yyyy-MM-dd}, {@code +Nw}, {@code +Nm},
 * {@code +Ny}) or null when the text states none
 * @param tags the item's classes (tight, ease, irrelevant, neg, hedge, and the hard
 * kinds)
 * @param headline the headline
 * @param body the body, may be empty
 */
public record LabelledItem(int line, boolean relevant, Direction direction, String layer, String until,
        List<String> tags, String headline, String body) {

    public LabelledItem {
        tags = List.copyOf(tags);
    }

    private static final CSVFormat TSV = CSVFormat.TDF.builder()
        .setQuote(null)
        .setCommentMarker('#')
        .setIgnoreEmptyLines(true)
        .setIgnoreSurroundingSpaces(false)
        .setTrim(false)
        .get();

    /**
     * Reads a set: tab-separated columns relevant (1/0), direction (T/E/-), layer (id/-),
     * until (label/-), tags (comma-separated), headline, body (optional), source URL
     * (optional); lines starting with {@code #} are comments.
     * @param in the file's text; not closed
     * @return its items in file order
     * @throws IllegalArgumentException on a row with fewer than six columns or an unknown
     * relevance or direction value
     * @throws UncheckedIOException when reading fails
     */
    public static List<LabelledItem> read(Reader in) {
        List<LabelledItem> items = new ArrayList<>();
        try {
            CSVParser parser = TSV.parse(in);
            for (CSVRecord r : parser) {
                int line = (int) parser.getCurrentLineNumber();
                if (r.size() < 6) {
                    throw new IllegalArgumentException("line " + line + ": " + r.size() + " columns, want at least 6");
                }
                boolean relevant = switch (r.get(0)) {
                    case "1" -> true;
                    case "0" -> false;
                    default -> throw new IllegalArgumentException("line " + line + ": relevant is " + r.get(0));
                };
                Direction direction = switch (r.get(1)) {
                    case "T" -> Direction.TIGHTENING;
                    case "E" -> Direction.EASING;
                    case "-" -> null;
                    default -> throw new IllegalArgumentException("line " + line + ": direction is " + r.get(1));
                };
                items.add(new LabelledItem(line, relevant, direction, dash(r.get(2)), dash(r.get(3)),
                        List.of(r.get(4).split(",")), r.get(5), r.size() > 6 ? r.get(6) : ""));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return items;
    }

    private static String dash(String v) {
        return v.equals("-") ? null : v;
    }

}
