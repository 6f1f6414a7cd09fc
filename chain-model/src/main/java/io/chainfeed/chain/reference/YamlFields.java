package io.chainfeed.chain.reference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * One YAML object read from a corpus file, with the path that leads to it, so that every
 * error names the file and the field. Values must have the YAML type asked for: a string
 * field holding {@code 2345} (a number) or {@code ON} (a boolean) is an error, not
 * silently converted.
 *
 * @param file the file, as given to the loader
 * @param path the path of this object in the file, e.g. {@code companies[3]}; empty for
 * the root
 * @param node the object
 */
public record YamlFields(String file, String path, JsonNode node) {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    private static final YAMLMapper MAPPER = YAMLMapper.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();

    /**
     * Parses a whole YAML document whose root must be a mapping.
     * @throws CorpusException if the text is not YAML (including a repeated key) or its
     * root is not a mapping
     */
    public static YamlFields parse(String file, String text) {
        return parse(file, text, 0);
    }

    /**
     * Parses YAML that starts further down a file, e.g. front matter after a {@code ---}
     * line.
     * @param linesBefore lines of the file before {@code text}, added to line numbers in
     * errors
     * @throws CorpusException if the text is not YAML (including a repeated key) or its
     * root is not a mapping
     */
    public static YamlFields parse(String file, String text, int linesBefore) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        }
        catch (JsonProcessingException e) {
            String where = e.getLocation() == null || e.getLocation().getLineNr() < 1 ? ""
                    : " (line " + (e.getLocation().getLineNr() + linesBefore) + ")";
            throw new CorpusException(file, null, "not valid YAML" + where + ": " + e.getOriginalMessage(), e);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new CorpusException(file, null, "empty document");
        }
        if (!root.isObject()) {
            throw new CorpusException(file, null, "the document must be a mapping of field names to values");
        }
        return new YamlFields(file, "", root);
    }

    /**
     * @return the path of {@code name} below this object, e.g.
     * {@code companies[3].listings}
     */
    public String pathOf(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /**
     * Raises a {@link CorpusException} naming this file and the given field of this
     * object.
     */
    public CorpusException error(String name, String problem) {
        return new CorpusException(file, pathOf(name), problem);
    }

    /**
     * Rejects misspelt or unsupported keys.
     * @throws CorpusException naming the first key that is not in {@code allowed}
     */
    public void allowOnly(Set<String> allowed) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw error(name, "unknown field (expected one of " + allowed.stream().sorted().toList() + ")");
            }
        }
    }

    /**
     * @return the trimmed string value of a required field
     * @throws CorpusException if the field is missing, not a string, or blank
     */
    public String requiredText(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw error(name, "missing");
        }
        return text(name, value);
    }

    /**
     * @param name the field
     * @return the field's value, a slug: lower-case letters and digits joined by single
     * hyphens (the rule for every id and term slug)
     * @throws CorpusException if the field is missing, not a string or not a slug
     */
    public String requiredSlug(String name) {
        String value = requiredText(name);
        if (!SLUG.matcher(value).matches()) {
            throw error(name, "'" + value + "' is not a slug (lower-case letters and digits joined by single hyphens)");
        }
        return value;
    }

    /**
     * @param name the field
     * @return the field's value, a YAML number (integer or decimal)
     * @throws CorpusException if the field is missing or not a number (a quoted
     * {@code "0.5"} is a string, and refused)
     */
    public double requiredNumber(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw error(name, "missing");
        }
        if (!value.isNumber()) {
            throw error(name, "must be a number, found " + describe(value));
        }
        return value.doubleValue();
    }

    /**
     * @return the trimmed string value, or null if the field is absent
     * @throws CorpusException if the field is present but not a non-blank string
     */
    public String optionalText(String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? null : text(name, value);
    }

    /**
     * @return the trimmed strings of a list field, empty if the field is absent
     * @throws CorpusException if the field is not a list of non-blank strings
     */
    public List<String> textList(String name) {
        return list(name, this::text);
    }

    /**
     * The items of a list field, each converted with its own field name ({@code name[i]})
     * for errors.
     * @return the converted items, in order; empty (and modifiable) if the field is
     * absent or null
     * @throws CorpusException if the field is not a list, or an item does not convert
     */
    private <T> List<T> list(String name, BiFunction<String, JsonNode, T> convert) {
        List<T> out = new ArrayList<>();
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return out;
        }
        if (!value.isArray()) {
            throw error(name, "must be a list");
        }
        for (int i = 0; i < value.size(); i++) {
            out.add(convert.apply(name + "[" + i + "]", value.get(i)));
        }
        return out;
    }

    /**
     * @return the mappings of a list field, empty if the field is absent
     * @throws CorpusException if the field is not a list of mappings
     */
    public List<YamlFields> objectList(String name) {
        return list(name, (itemName, item) -> {
            String itemPath = pathOf(itemName);
            if (!item.isObject()) {
                throw new CorpusException(file, itemPath, "must be a mapping of field names to values");
            }
            return new YamlFields(file, itemPath, item);
        });
    }

    /**
     * @return the mappings of a required list field
     * @throws CorpusException if the field is missing, empty, or not a list of mappings
     */
    public List<YamlFields> requiredObjectList(String name) {
        List<YamlFields> out = objectList(name);
        if (out.isEmpty()) {
            throw error(name, node.has(name) ? "must not be empty" : "missing");
        }
        return out;
    }

    private String text(String name, JsonNode value) {
        if (!value.isTextual()) {
            throw error(name, "must be a string, found " + describe(value) + " (quote the value)");
        }
        String text = value.textValue().strip();
        if (text.isEmpty()) {
            throw error(name, "must not be blank");
        }
        return text;
    }

    private static String describe(JsonNode value) {
        if (value.isNumber()) {
            return "the number " + value.asText();
        }
        if (value.isBoolean()) {
            return "the boolean " + value.asText();
        }
        if (value.isArray()) {
            return "a list";
        }
        if (value.isObject()) {
            return "a mapping";
        }
        return value.getNodeType().toString().toLowerCase(Locale.ROOT);
    }
}
