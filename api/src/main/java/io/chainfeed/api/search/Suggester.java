package io.chainfeed.api.search;

import io.chainfeed.api.reference.CompanyResolver;
import io.chainfeed.api.reference.ReferenceLayers;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.schemas.CompanyDirectory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.springframework.stereotype.Component;

/**
 * Autocomplete over the reference data: every company (id, name, aliases, every listing's
 * display symbol and MIC-qualified symbol, from {@link CompanyResolver}), every glossary
 * term (title, aliases, from {@link SearchCatalog}) and every chain layer (id, name,
 * aliases, from {@link ReferenceLayers}, and the layers reads are tagged with), whether
 * or not any read mentions it yet.
 *
 * <p>
 * Ranks, best first: {@link #EXACT_TICKER} the text is a listing's symbol; {@link #EXACT}
 * it is a whole name; {@link #PREFIX} a name starts with it; {@link #WORD_PREFIX} a later
 * word of a name does; {@link #FUZZY} + edits: a name or one of its words is within one
 * edit (texts of four to seven characters) or two (eight or more), Levenshtein distance.
 * Ties go to the company, then the term, then the layer, then by label. Names are
 * compared as {@link QueryText#words} joined by a space, symbols as
 * {@link CompanyDirectory#fold}. The entry list is rebuilt only when the reference data
 * changes; a lookup is a scan of a few thousand short strings.
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class Suggester {

    /** The text is a ticker (display, local or MIC-qualified symbol) of a listing. */
    public static final int EXACT_TICKER = 0;

    /**
     * The text is a whole name (company id, name or alias; term title or alias; layer id
     * or name).
     */
    public static final int EXACT = 1;

    /** A name starts with the text. */
    public static final int PREFIX = 2;

    /** A later word of a name starts with the text. */
    public static final int WORD_PREFIX = 3;

    /** Within a few edits; the rank is this plus the number of edits. */
    public static final int FUZZY = 4;

    /** What a suggestion is. */
    public enum Kind {

        COMPANY, TERM, LAYER

    }

    /**
     * One name of one thing.
     *
     * @param kind company, term or layer
     * @param id company id, term slug or layer id
     * @param text the name as written, e.g. {@code XNYS:TSM}
     * @param key the compared form
     * @param ticker whether it is a listing symbol
     */
    record Name(Kind kind, String id, String text, String key, boolean ticker) {
    }

    /**
     * One suggestion.
     *
     * @param kind company, term or layer
     * @param id company id, term slug or layer id
     * @param label what to show: company name, term title, layer name
     * @param symbol a company's canonical symbol, else null
     * @param matched the name that matched
     * @param rank see the class comment; lower is better
     * @param href the thing's web page, e.g. {@code /companies/2330.TW}
     */
    public record Suggestion(Kind kind, String id, String label, String symbol, String matched, int rank, String href) {
    }

    /** The names and labels in force, rebuilt when an input changes. */
    record Entries(Object directory, Object catalog, List<ChainLayer> layers, List<Name> names,
            Map<String, Suggestion> things) {
    }

    private final CompanyResolver companies;

    private final SearchCatalog catalog;

    private final ReferenceLayers layers;

    private volatile Entries entries;

    /**
     * @param text what was typed so far (any characters)
     * @param limit most suggestions to return
     * @return the suggestions, best first (empty for a text without letters or digits)
     * @throws IOException if the term catalogue cannot be loaded from the index
     */
    public List<Suggestion> suggest(String text, int limit) throws IOException {
        CompanyDirectory dir = companies.directory();
        SearchCatalog.Snapshot snap = catalog.current();
        List<ChainLayer> refLayers = layers.all();
        Entries e = entries;
        if (e == null || e.directory() != dir || e.catalog() != snap || !e.layers().equals(refLayers)) {
            e = build(dir, snap.terms(), refLayers, snap.layers());
            e = new Entries(dir, snap, refLayers, e.names(), e.things());
            entries = e;
        }
        return rank(e, text, limit);
    }

    /** Builds the entries from reference data (package-private for tests). */
    static Entries build(CompanyDirectory dir, List<SearchCatalog.TermNames> terms, List<ChainLayer> refLayers,
            List<SearchCatalog.LayerName> taggedLayers) {
        List<Name> names = new ArrayList<>();
        Map<String, Suggestion> things = new HashMap<>();
        for (Company c : dir.companies()) {
            String symbol = CompanyDirectory.canonicalSymbol(c);
            things.put(Kind.COMPANY + ":" + c.getId(),
                    new Suggestion(Kind.COMPANY, c.getId(), c.getName(), symbol, null, 0, "/companies/" + symbol));
        }
        for (CompanyDirectory.Key k : dir.keys()) {
            boolean ticker = switch (k.via()) {
                case DISPLAY_SYMBOL, MIC_SYMBOL, LOCAL_SYMBOL -> true;
                default -> false;
            };
            names.add(new Name(Kind.COMPANY, k.company().getId(), k.text(), ticker ? k.key() : key(k.text()), ticker));
        }
        for (SearchCatalog.TermNames t : terms) {
            things.put(Kind.TERM + ":" + t.slug(),
                    new Suggestion(Kind.TERM, t.slug(), t.title(), null, null, 0, "/terms/" + t.slug()));
            for (String n : t.names()) {
                names.add(new Name(Kind.TERM, t.slug(), n, key(n), false));
            }
        }
        Map<String, String> layerNames = new LinkedHashMap<>();
        for (ChainLayer l : refLayers) {
            layerNames.put(l.getId(), l.getName());
            for (String alias : l.getAliases()) {
                names.add(new Name(Kind.LAYER, l.getId(), alias, key(alias), false));
            }
        }
        for (SearchCatalog.LayerName l : taggedLayers) {
            layerNames.putIfAbsent(l.id(), l.name());
        }
        for (Map.Entry<String, String> l : layerNames.entrySet()) {
            things.put(Kind.LAYER + ":" + l.getKey(),
                    new Suggestion(Kind.LAYER, l.getKey(), l.getValue(), null, null, 0, "/layers/" + l.getKey()));
            names.add(new Name(Kind.LAYER, l.getKey(), l.getValue(), key(l.getValue()), false));
            names.add(new Name(Kind.LAYER, l.getKey(), l.getKey(), key(l.getKey()), false));
        }
        names.removeIf(n -> n.key().isEmpty());
        return new Entries(null, null, List.of(), List.copyOf(names), Map.copyOf(things));
    }

    private static String key(String name) {
        return String.join(" ", QueryText.words(name));
    }

    /** Ranks every thing by its best-matching name (package-private for tests). */
    static List<Suggestion> rank(Entries e, String text, int limit) {
        String words = key(text);
        String folded = CompanyDirectory.fold(text);
        if (words.isEmpty() || limit < 1) {
            return List.of();
        }
        LevenshteinDistance distance = words.length() >= 8 ? TWO_EDITS : ONE_EDIT;
        boolean fuzzy = words.length() >= 4;
        Map<String, Suggestion> best = new HashMap<>();
        for (Name n : e.names()) {
            int rank = rank(n, n.ticker() ? folded : words, words, fuzzy ? distance : null);
            if (rank == Integer.MAX_VALUE) {
                continue;
            }
            String thing = n.kind() + ":" + n.id();
            Suggestion held = best.get(thing);
            if (held == null || rank < held.rank()) {
                Suggestion t = e.things().get(thing);
                if (t != null) {
                    best.put(thing, new Suggestion(t.kind(), t.id(), t.label(), t.symbol(), n.text(), rank, t.href()));
                }
            }
        }
        return best.values()
            .stream()
            .sorted(Comparator.comparingInt(Suggestion::rank)
                .thenComparing(Suggestion::kind)
                .thenComparing(Suggestion::label, String.CASE_INSENSITIVE_ORDER))
            .limit(limit)
            .toList();
    }

    private static final LevenshteinDistance ONE_EDIT = new LevenshteinDistance(1);

    private static final LevenshteinDistance TWO_EDITS = new LevenshteinDistance(2);

    private static int rank(Name n, String typed, String words, LevenshteinDistance fuzzy) {
        String key = n.key();
        if (key.equals(typed) || (n.ticker() && key.equals(words))) {
            return n.ticker() ? EXACT_TICKER : EXACT;
        }
        if (key.startsWith(typed) || key.startsWith(words)) {
            return PREFIX;
        }
        if (!n.ticker() && key.contains(" " + words)) {
            return WORD_PREFIX;
        }
        if (fuzzy == null || n.ticker()) {
            return Integer.MAX_VALUE;
        }
        int d = fuzzy.apply(words, key);
        if (d < 0 && key.indexOf(' ') >= 0) {
            for (String w : key.split(" ")) {
                int dw = fuzzy.apply(words, w);
                if (dw >= 0 && (d < 0 || dw < d)) {
                    d = dw;
                }
            }
        }
        return d < 0 ? Integer.MAX_VALUE : FUZZY + d;
    }

}
