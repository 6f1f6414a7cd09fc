package io.chainfeed.ingest.page;

import java.util.List;

/**
 * A glossary page was refused: it is empty, too large, or lacks something a term needs.
 * Unchecked, because callers (CLI, HTTP ingest, corpus loaders) report it rather than
 * recover from it; nothing half-parsed is ever returned alongside it.
 *
 * <p>
 * {@link #missing()} names each problem, e.g. {@code title}, {@code definition},
 * {@code What it means}, {@code Why it matters to investors},
 * {@code company/ticker split: <the offending line>},
 * {@code related term title/summary split: <the offending item>}, {@code content} (empty
 * input) or {@code input of at most 1 MiB}. Offending text is cut at 200 characters and
 * at most five failures of one kind are listed, then {@code "<label>N more"}. The message
 * lists the same items.
 */
public class PageParseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> missing;

    /**
     * @param message human-readable reason, naming what is missing
     * @param missing each missing or unparseable item, in page order; not null
     */
    public PageParseException(String message, List<String> missing) {
        super(message);
        this.missing = List.copyOf(missing);
    }

    /**
     * @return what the page lacks or what could not be parsed, one entry per problem;
     * never null, never empty
     */
    public List<String> missing() {
        return missing;
    }

}
