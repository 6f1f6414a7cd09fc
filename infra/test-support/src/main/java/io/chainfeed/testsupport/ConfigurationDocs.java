package io.chainfeed.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks {@code docs/configuration.md} against the settings a service really has: the
 * {@code META-INF/spring-configuration-metadata.json} files that Spring Boot's
 * configuration processor writes from the {@code @ConfigurationProperties} records
 * (names, types, {@code @DefaultValue}s), read from the class path.
 *
 * <p>
 * The document's tables name one setting or a group per row: the first cell holds the
 * full name, then {@code /}-separated short forms that replace its last segment
 * ({@code `chainfeed.api.es.breaker.window` / `.minimum-calls`}); a list of records is
 * written with {@code [N]} ({@code chainfeed.ingest.feeds[N].url}) and stands for the
 * list's own name. The second cell holds the defaults in the same order; where both
 * counts match, each default's first {@code `code`} span must equal the record's default
 * (prose such as "none" or "bundled" is not compared).
 */
public final class ConfigurationDocs {

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private ConfigurationDocs() {
    }

    /**
     * One row of the document: the settings it names and the defaults it states.
     *
     * @param names the full names, in order
     * @param defaults the first code span of each {@code /}-separated default, or null
     * where that part has none; empty when the counts differ
     */
    record Row(List<String> names, List<String> defaults) {
    }

    /**
     * Fails (AssertJ) unless {@code docs/configuration.md}, read from the module's
     * directory ({@code ../docs}), agrees with the settings under the prefixes.
     * @param prefixes the name prefixes the calling service owns
     * @throws AssertionError listing every {@link #problems problem}
     */
    public static void assertDocumented(String... prefixes) {
        assertThat(problems(Path.of("..", "docs", "configuration.md"), List.of(prefixes)))
            .as("docs/configuration.md against the settings records under %s", List.of(prefixes))
            .isEmpty();
    }

    /**
     * @param doc the Markdown document
     * @param prefixes the name prefixes this service owns (e.g. {@code chainfeed.api.})
     * @return one line per problem: a setting the document does not name, a name the
     * service does not have, a default that differs; empty when they agree
     * @throws UncheckedIOException when the document or the metadata cannot be read
     */
    public static List<String> problems(Path doc, List<String> prefixes) {
        Map<String, String> settings = settings(prefixes);
        if (settings.isEmpty()) {
            return List.of("no configuration metadata on the class path for " + prefixes
                    + " (is spring-boot-configuration-processor running?)");
        }
        List<Row> rows = rows(read(doc));
        List<String> problems = new ArrayList<>();
        TreeSet<String> documented = new TreeSet<>();
        for (Row row : rows) {
            for (int i = 0; i < row.names().size(); i++) {
                String name = row.names().get(i);
                if (prefixes.stream().noneMatch(name::startsWith)) {
                    continue;
                }
                documented.add(name);
                if (!settings.containsKey(name)) {
                    problems.add(name + ": documented, but no such setting");
                    continue;
                }
                String expected = settings.get(name);
                String stated = row.defaults().isEmpty() ? null : row.defaults().get(i);
                if (expected != null && stated != null && !sameValue(expected, stated)) {
                    problems.add(name + ": documented default `" + stated + "`, the record's is `" + expected + "`");
                }
            }
        }
        for (String name : settings.keySet()) {
            if (!documented.contains(name)) {
                problems.add(name + ": a setting docs/configuration.md does not name");
            }
        }
        return problems;
    }

    /**
     * @param prefixes name prefixes
     * @return every setting in the class path's metadata under them, by name, with its
     * default as text (null when the record states none)
     */
    static Map<String, String> settings(List<String> prefixes) {
        ObjectMapper json = new ObjectMapper();
        Map<String, String> settings = new LinkedHashMap<>();
        try {
            for (URL url : Collections.list(ConfigurationDocs.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
                try (InputStream in = url.openStream()) {
                    for (JsonNode p : json.readTree(in).path("properties")) {
                        String name = p.path("name").asText();
                        if (prefixes.stream().anyMatch(name::startsWith)) {
                            JsonNode d = p.get("defaultValue");
                            settings.put(name, defaultText(d));
                        }
                    }
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return settings;
    }

    /**
     * @param d a property's {@code defaultValue} in the metadata, or null
     * @return it as a property value is written: a list comma-separated (the processor
     * writes a {@code @DefaultValue} list as an array or as its {@code toString()},
     * {@code [a, b]}); null when there is none or it is an object
     */
    static String defaultText(JsonNode d) {
        if (d == null || d.isNull() || d.isObject()) {
            return null;
        }
        if (d.isArray()) {
            List<String> items = new ArrayList<>();
            d.forEach(item -> items.add(item.asText()));
            return String.join(",", items);
        }
        String text = d.asText();
        if (text.startsWith("[") && text.endsWith("]")) {
            return String.join(",", List.of(text.substring(1, text.length() - 1).split(",\\s*")));
        }
        return text;
    }

    /**
     * @param markdown the document
     * @return its table rows whose first cell starts with a code span, header rows
     * excluded
     */
    static List<Row> rows(String markdown) {
        List<Row> rows = new ArrayList<>();
        for (String line : markdown.split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            List<String> cells = cells(line);
            if (cells.size() < 2) {
                continue;
            }
            List<String> names = names(cells.get(0));
            String[] parts = cells.get(1).split(" / ");
            List<String> defaults = new ArrayList<>();
            if (parts.length == names.size()) {
                for (String part : parts) {
                    Matcher m = CODE.matcher(part);
                    defaults.add(m.find() ? m.group(1) : null);
                }
            }
            rows.add(new Row(names, defaults));
        }
        return rows;
    }

    private static List<String> names(String cell) {
        List<String> names = new ArrayList<>();
        String first = null;
        for (String part : cell.split(" / ")) {
            Matcher m = CODE.matcher(part);
            if (!m.find()) {
                continue;
            }
            String token = m.group(1);
            String name;
            if (first == null || token.startsWith("chainfeed.") || token.startsWith("spring.")) {
                name = token;
                first = token;
            }
            else {
                String parent = first.substring(0, first.lastIndexOf('.'));
                name = parent + "." + (token.startsWith(".") ? token.substring(1) : token);
            }
            int list = name.indexOf('[');
            names.add(list < 0 ? name : name.substring(0, list));
        }
        return names;
    }

    /** Splits a table row on the pipes that are not escaped ({@code \|}). */
    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        for (int i = 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '|' && line.charAt(i - 1) != '\\') {
                cells.add(cell.toString().strip());
                cell.setLength(0);
            }
            else {
                cell.append(c);
            }
        }
        return cells;
    }

    private static boolean sameValue(String expected, String stated) {
        if (expected.equals(stated)) {
            return true;
        }
        try {
            return Double.parseDouble(expected) == Double.parseDouble(stated);
        }
        catch (NumberFormatException e) {
            return false;
        }
    }

    private static String read(Path doc) {
        try {
            return Files.readString(doc, StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
