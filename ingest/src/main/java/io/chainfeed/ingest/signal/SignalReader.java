package io.chainfeed.ingest.signal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads batches of raw signals from JSON (one object or an array), JSON Lines / NDJSON
 * (one object a line; blank lines and lines starting with {@code #} are skipped) and CSV
 * with a header row
 * ({@code id,headline,body,layers,direction,magnitude,observedAt,sourceName,sourceUrl};
 * layers separated by {@code ;} or {@code |}). A record that cannot be read is kept as
 * unreadable with the reason, so the rest of the batch still goes through.
 */
public final class SignalReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private SignalReader() {
    }

    /**
     * @param text a JSON object or an array of objects
     * @return the raw signals, line 0
     * @throws IllegalArgumentException if the text is not JSON, or neither an object nor
     * an array
     */
    public static List<SignalInput> json(String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not JSON: " + e.getOriginalMessage());
        }
        List<SignalInput> out = new ArrayList<>();
        if (root != null && root.isObject()) {
            out.add(new SignalInput(0, 0, JSON.convertValue(root, MAP), null));
        }
        else if (root != null && root.isArray()) {
            for (int i = 0; i < root.size(); i++) {
                JsonNode n = root.get(i);
                out.add(n.isObject() ? new SignalInput(i, 0, JSON.convertValue(n, MAP), null)
                        : new SignalInput(i, 0, null, "is not a JSON object"));
            }
        }
        else {
            throw new IllegalArgumentException("the body must be a JSON object or an array of objects");
        }
        return out;
    }

    /**
     * @param text JSON Lines: one object a line
     * @return the raw signals with their line numbers
     */
    public static List<SignalInput> jsonLines(String text) {
        List<SignalInput> out = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int index = out.size();
            try {
                JsonNode n = JSON.readTree(line);
                out.add(n != null && n.isObject() ? new SignalInput(index, i + 1, JSON.convertValue(n, MAP), null)
                        : new SignalInput(index, i + 1, null, "is not a JSON object"));
            }
            catch (JsonProcessingException e) {
                out.add(new SignalInput(index, i + 1, null, "is not valid JSON: " + e.getOriginalMessage()));
            }
        }
        return out;
    }

    /**
     * @param text CSV with a header row naming the columns (case-insensitive;
     * {@code layerHints} and {@code observed_at} style names are accepted too)
     * @return the raw signals with their line numbers
     * @throws IllegalArgumentException if the CSV has no header or cannot be parsed
     */
    public static List<SignalInput> csv(String text) {
        CSVFormat format = CSVFormat.RFC4180.builder()
            .setHeader()
            .setSkipHeaderRecord(true)
            .setIgnoreEmptyLines(true)
            .setTrim(true)
            .setCommentMarker('#')
            .get();
        List<SignalInput> out = new ArrayList<>();
        try (CSVParser parser = CSVParser.parse(new StringReader(text), format)) {
            List<String> header = parser.getHeaderNames();
            if (header.isEmpty()) {
                throw new IllegalArgumentException("the CSV has no header row");
            }
            for (CSVRecord r : parser) {
                int index = out.size();
                int line = (int) r.getParser().getCurrentLineNumber();
                if (!r.isConsistent()) {
                    out.add(new SignalInput(index, line, null,
                            "has " + r.size() + " columns; the header has " + header.size()));
                    continue;
                }
                Map<String, Object> fields = new LinkedHashMap<>();
                Map<String, String> source = new LinkedHashMap<>();
                for (String column : header) {
                    String value = r.get(column);
                    if (value == null || value.isEmpty()) {
                        continue;
                    }
                    String key = canonical(column);
                    switch (key) {
                        case "sourcename" -> source.put("name", value);
                        case "sourceurl" -> source.put("url", value);
                        case "layers", "layerhints" -> fields.put("layers", List.of(value.split("\\s*[;|]\\s*")));
                        default -> fields.put(column, value);
                    }
                }
                if (!source.isEmpty()) {
                    fields.put("source", source);
                }
                out.add(new SignalInput(index, line, fields, null));
            }
        }
        catch (IOException | UncheckedIOException e) {
            throw new IllegalArgumentException("the CSV cannot be read: " + e.getMessage());
        }
        return out;
    }

    /**
     * @return a field name lower-cased without {@code _}, {@code -} or blanks
     */
    static String canonical(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[_\\-\\s]", "");
    }

}
