package io.chainfeed.streams.tagging;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The word lists the {@link Tagger}'s rules consult, read once from text files next to
 * this class ({@code io/chainfeed/streams/tagging/*.txt}: one entry a line, {@code #}
 * starts a comment line), so that a list can grow without touching the rules.
 */
final class TaggerWords {

    /**
     * Symbols that are common English words or acronyms: tagged only in explicit ticker
     * context (cashtag, brackets, exchange prefix, suffix), never from prose. Symbols
     * shorter than three letters are never tagged from prose anyway (A, F, T, D, SO, BE,
     * ON, IT, AI, MU, ...), so they are listed only for documentation and for the
     * abbreviation check in brackets.
     */
    static final Set<String> STOP_SYMBOLS = words("stop-symbols.txt");

    /**
     * Ordinary English words that are also company names or start them: such names are
     * matched only when written with their capital initials (and, alone at the start of a
     * sentence, only in a clause about a company).
     */
    static final Set<String> ORDINARY_WORDS = words("ordinary-words.txt");

    /**
     * Words after a sentence-initial ordinary-word name that show it is the subject of a
     * clause.
     */
    static final Set<String> CLAUSE_CUES = words("clause-cues.txt");

    /**
     * Generic words that are glossary terms ("Training", "Yield") or term aliases
     * ("resist"): tagged at lower confidence, and as aliases only when the term is found
     * by another name too.
     */
    static final Set<String> GENERIC_TERM_WORDS = words("generic-term-words.txt");

    /** Acronyms longer than three letters that are also English words in lower case. */
    static final Set<String> ACRONYM_WORDS = words("acronym-words.txt");

    /**
     * Generic-word term aliases that count only when the term is found by another name
     * too.
     */
    static final Set<String> CORROBORATED_TERM_ALIASES = words("corroborated-term-aliases.txt");

    /** Exchange names and codes as text writes them, to ISO 10383 MICs. */
    static final Map<String, String> EXCHANGES = exchanges("exchanges.txt");

    private TaggerWords() {
    }

    /**
     * @return the entries of a word list, as written
     */
    private static Set<String> words(String file) {
        return Set.copyOf(lines(file));
    }

    /**
     * @return the name-to-MIC pairs of a two-column list
     */
    private static Map<String, String> exchanges(String file) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : lines(file)) {
            String[] kv = line.split("\\s+");
            if (kv.length != 2 || out.putIfAbsent(kv[0], kv[1]) != null) {
                throw new IllegalStateException(file + ": not a unique 'NAME MIC' line: " + line);
            }
        }
        return Map.copyOf(out);
    }

    private static List<String> lines(String file) {
        try (InputStream in = TaggerWords.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("word list " + file + " missing from the classpath");
            }
            List<String> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#")) {
                    out.add(t);
                }
            }
            return out;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
