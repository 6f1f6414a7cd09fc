package io.chainfeed.ingest.decide;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The weights and thresholds of the rules decider, read from
 * {@code decider-weights.properties} in this package's resources (each key with a comment
 * saying what it does). Each step of {@link SignalDecider} reads its own keys once, when
 * built; the keys read are remembered so that a test can tell an unused key from a used
 * one. Not thread-safe while the steps are built; read-only after.
 */
final class DeciderWeights {

    /** The bundled weights file, beside cues.tsv and layer-words.tsv. */
    static final String RESOURCE = "decider-weights.properties";

    private final Properties values;

    private final Set<String> read = new TreeSet<>();

    /**
     * @param values the weights by key
     */
    DeciderWeights(Properties values) {
        this.values = values;
    }

    /**
     * @return the bundled weights
     * @throws IllegalStateException when the file is missing
     * @throws UncheckedIOException when it cannot be read
     */
    static DeciderWeights bundled() {
        return new DeciderWeights(bundledValues());
    }

    /**
     * @return the bundled weights file as read, a fresh copy on each call
     * @throws IllegalStateException when the file is missing
     * @throws UncheckedIOException when it cannot be read
     */
    static Properties bundledValues() {
        Properties p = new Properties();
        try (InputStream in = DeciderWeights.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /**
     * @param key a weight's key
     * @return its value
     * @throws IllegalStateException when the key is missing or not a number
     */
    double number(String key) {
        String v = raw(key);
        try {
            return Double.parseDouble(v);
        }
        catch (NumberFormatException e) {
            throw new IllegalStateException(RESOURCE + ": " + key + " = '" + v + "' is not a number", e);
        }
    }

    /**
     * @param key a count's or threshold's key
     * @return its value
     * @throws IllegalStateException when the key is missing or not a whole number
     */
    int whole(String key) {
        String v = raw(key);
        try {
            return Integer.parseInt(v);
        }
        catch (NumberFormatException e) {
            throw new IllegalStateException(RESOURCE + ": " + key + " = '" + v + "' is not a whole number", e);
        }
    }

    /**
     * @return the keys present that no step has read, sorted
     */
    Set<String> unread() {
        Set<String> out = new TreeSet<>(values.stringPropertyNames());
        out.removeAll(read);
        return out;
    }

    private String raw(String key) {
        String v = values.getProperty(key);
        if (v == null) {
            throw new IllegalStateException(RESOURCE + " has no " + key);
        }
        read.add(key);
        return v.strip();
    }

}
