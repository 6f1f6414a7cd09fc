package io.chainfeed.ingest.page;

import java.util.ArrayList;
import java.util.List;

/**
 * What a page lacks or what could not be split, collected while its sections are
 * extracted; thrown as one {@link PageParseException} at the end so a refusal lists every
 * problem, not only the first.
 */
final class ParseRefusal {

    /**
     * At most this many failures of one kind are listed in a refusal, each cut to
     * MAX_REPORTED_CHARS.
     */
    private static final int MAX_REPORTED = 5;

    private static final int MAX_REPORTED_CHARS = 200;

    private final List<String> missing = new ArrayList<>();

    /**
     * @param what a missing part, e.g. {@code title}, as listed in
     * {@link PageParseException#missing()}
     */
    void missing(String what) {
        missing.add(what);
    }

    /**
     * Adds the first few failures (each cut to a readable length) and a count of the
     * rest.
     */
    void report(String label, List<String> failures) {
        for (int i = 0; i < Math.min(failures.size(), MAX_REPORTED); i++) {
            String f = failures.get(i);
            missing.add(label + (f.length() <= MAX_REPORTED_CHARS ? f : f.substring(0, MAX_REPORTED_CHARS) + "…"));
        }
        if (failures.size() > MAX_REPORTED) {
            missing.add(label + (failures.size() - MAX_REPORTED) + " more");
        }
    }

    /**
     * @param source the page's URL, or null
     * @throws PageParseException when anything was reported missing
     */
    void throwIfAny(Object source) {
        if (!missing.isEmpty()) {
            throw new PageParseException("Cannot parse glossary page" + (source == null ? "" : " " + source)
                    + ": missing or unparseable: " + String.join("; ", missing), missing);
        }
    }

}
