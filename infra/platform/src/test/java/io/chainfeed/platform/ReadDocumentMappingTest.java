package io.chainfeed.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The read document record, the field-name constants and the strict reads-index mapping
 * say the same thing: every component is mapped with a type that fits it, every mapped
 * field is a component (the embedder's vector fields aside), and every {@link ReadFields}
 * constant names a real field.
 */
class ReadDocumentMappingTest {

    private static JsonNode properties;

    @BeforeAll
    static void readMapping() throws Exception {
        properties = new ObjectMapper().readTree(ReadsIndex.settingsAndMappings()).path("mappings").path("properties");
    }

    @Test
    void recordAndMappingNameTheSameFieldsWithFittingTypes() {
        List<String> problems = new ArrayList<>();
        compare("", ReadDocument.class, properties, problems);
        Set<String> unmapped = new TreeSet<>();
        properties.fieldNames().forEachRemaining(unmapped::add);
        for (RecordComponent c : ReadDocument.class.getRecordComponents()) {
            unmapped.remove(c.getName());
        }
        assertThat(unmapped).as("mapped fields the record does not carry")
            .containsExactlyInAnyOrderElementsOf(ReadsIndex.VECTOR_FIELDS);
        assertThat(problems).isEmpty();
    }

    @Test
    void everyFieldNameConstantIsAMappedFieldOrAStoredMember() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Field f : ReadFields.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                String path = (String) f.get(null);
                if (!resolves(path)) {
                    problems.add(f.getName() + " = " + path);
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(40);
        assertThat(problems).as("constants that name no field").isEmpty();
    }

    @Test
    void aFieldMissingFromTheRecordIsFound() {
        List<String> problems = new ArrayList<>();
        record Narrow(String id, int kind) {
        }
        compare("", Narrow.class, properties, problems);
        assertThat(problems).containsExactly("kind: mapped keyword, record has int");
        assertThat(resolves("title.nonsense")).isFalse();
        assertThat(resolves("sources.name")).as("a member of a stored, unindexed object").isTrue();
        assertThat(resolves("sources.nonsense")).isFalse();
    }

    /**
     * Checks each component of {@code type} against {@code props}, the mapping's
     * properties at {@code prefix}; nested records are compared member by member.
     */
    private static void compare(String prefix, Class<?> type, JsonNode props, List<String> problems) {
        Set<String> components = new TreeSet<>();
        for (RecordComponent c : type.getRecordComponents()) {
            String name = prefix + c.getName();
            components.add(c.getName());
            JsonNode mapped = props.get(c.getName());
            if (mapped == null) {
                problems.add(name + ": not in the mapping");
                continue;
            }
            Type javaType = element(c.getGenericType());
            if (!mapped.path("enabled").asBoolean(true)) {
                continue;
            }
            if (mapped.has("properties")) {
                if (javaType instanceof Class<?> nested && nested.isRecord()) {
                    compare(name + ".", nested, mapped.get("properties"), problems);
                }
                else {
                    problems.add(name + ": mapped as an object, record has " + javaType.getTypeName());
                }
                continue;
            }
            String esType = mapped.path("type").asText();
            if (!fits(esType, javaType)) {
                problems.add(name + ": mapped " + esType + ", record has " + javaType.getTypeName());
            }
        }
        if (!prefix.isEmpty()) {
            for (Iterator<String> it = props.fieldNames(); it.hasNext();) {
                String field = it.next();
                if (!components.contains(field)) {
                    problems.add(prefix + field + ": mapped, not in the record");
                }
            }
        }
    }

    /** The item type of a list, else the type itself. */
    private static Type element(Type type) {
        if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
            return p.getActualTypeArguments()[0];
        }
        return type;
    }

    private static boolean fits(String esType, Type javaType) {
        return switch (esType) {
            case "keyword", "text", "date" -> javaType == String.class;
            case "long" -> javaType == Long.class || javaType == long.class;
            case "integer" -> javaType == Integer.class || javaType == int.class;
            case "float", "double" -> javaType == Double.class || javaType == double.class;
            case "boolean" -> javaType == Boolean.class || javaType == boolean.class;
            default -> false;
        };
    }

    /**
     * A dotted path resolves through the mapping's properties and multi-fields; below an
     * object stored but not indexed ({@code enabled: false}) it resolves through the
     * record instead.
     */
    private static boolean resolves(String path) {
        JsonNode node = null;
        JsonNode level = properties;
        Type javaType = ReadDocument.class;
        for (String part : path.split("\\.")) {
            if (node != null && !node.path("enabled").asBoolean(true)) {
                javaType = member(javaType, part);
                if (javaType == null) {
                    return false;
                }
                continue;
            }
            node = level.get(part);
            if (node == null) {
                return false;
            }
            javaType = javaType == null ? null : member(javaType, part);
            level = node.has("properties") ? node.get("properties") : node.path("fields");
        }
        return true;
    }

    /** The item type of the record component {@code name} of {@code type}, or null. */
    private static Type member(Type type, String name) {
        if (!(type instanceof Class<?> c) || !c.isRecord()) {
            return type instanceof ParameterizedType p && p.getRawType() == Map.class ? Object.class : null;
        }
        for (RecordComponent rc : c.getRecordComponents()) {
            if (rc.getName().equals(name)) {
                return element(rc.getGenericType());
            }
        }
        return null;
    }

}
