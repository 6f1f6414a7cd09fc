package io.chainfeed.streams.tagging;

import static io.chainfeed.streams.tagging.TaggerWords.ACRONYM_WORDS;
import static io.chainfeed.streams.tagging.TaggerWords.GENERIC_TERM_WORDS;
import static io.chainfeed.streams.tagging.TaggerWords.ORDINARY_WORDS;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.TermUpdate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.ahocorasick.trie.PayloadEmit;
import org.ahocorasick.trie.PayloadTrie;

/**
 * The reference data a {@link Tagger} reads with, as dictionaries: every company name and
 * alias, term title and alias and layer name and alias in a case-folded Aho-Corasick trie
 * ({@code org.ahocorasick} {@link PayloadTrie}), every listing symbol, display symbol and
 * exactly-written acronym in a case-sensitive one, and the lookups the rules need (by id,
 * by name, by symbol, by exchange and symbol). Immutable after construction.
 *
 * <p>
 * How a key must be written to count is decided here, once per key: acronyms (no
 * lower-case letter and at most three characters, or a longer one that is also an English
 * word, {@link TaggerWords#ACRONYM_WORDS}) exactly; company names that are or start with
 * an ordinary English word ({@link TaggerWords#ORDINARY_WORDS}) with their capital
 * initials; everything else in any case. {@code Kulicke & Soffa} is also keyed as
 * {@code Kulicke and Soffa} and {@code Kulicke&Soffa}, {@code Lowe's} also as
 * {@code Lowe’s}.
 */
final class TagDictionary {

    enum Kind {

        COMPANY, TERM, LAYER

    }

    /** How a dictionary key must be written to count. */
    enum CaseRule {

        ANY, EXACT, INITIALS

    }

    /**
     * One thing a dictionary key can mean.
     *
     * @param canonical the name or symbol as reference data writes it
     * @param rule the rule a hit on it is evidence of (for tickers, refined by the
     * context)
     * @param ordinary a company name that is an ordinary English word
     * @param plural whether a plural suffix may follow
     * @param confidence the confidence of a hit written as required
     * @param listing the listing a ticker key stands for; null for names
     */
    record Entry(Kind kind, String id, String canonical, TagRule rule, CaseRule caseRule, boolean ordinary,
            boolean plural, double confidence, Listing listing) {
        boolean ticker() {
            return listing != null;
        }
    }

    /**
     * A raw dictionary hit on a text, with its span (end exclusive) and every entry its
     * key has.
     */
    record Raw(int start, int end, List<Entry> entries) {
    }

    private final Map<String, ChainLayer> layers = new LinkedHashMap<>();

    private final Map<String, Company> companies = new LinkedHashMap<>();

    private final Map<String, TermUpdate> terms = new LinkedHashMap<>();

    private final Map<String, List<String>> companiesBySymbol = new HashMap<>();

    private final Map<String, List<String>> companiesByName = new HashMap<>();

    private final Map<String, List<String>> layersByName = new HashMap<>();

    /**
     * Lower-cased keys that name something other than a ticker (company, term, layer
     * names).
     */
    private final Map<String, Set<String>> nameOwners = new HashMap<>();

    /** Listings by display symbol, and by MIC + local symbol. */
    private final Map<String, List<Listing>> listingsByDisplay = new HashMap<>();

    private final Map<String, Listing> listingsByMicSymbol = new HashMap<>();

    /** Names matched case-insensitively (with the case rules checked after the scan). */
    private final PayloadTrie<List<Entry>> folded;

    /** Tickers and acronyms, matched exactly as written. */
    private final PayloadTrie<List<Entry>> exact;

    private final long signature;

    TagDictionary(Collection<ChainLayer> layerList, Collection<Company> companyList, Collection<TermUpdate> termList) {
        layerList.forEach(l -> layers.put(l.getId(), l));
        companyList.forEach(c -> companies.put(c.getId(), c));
        termList.forEach(t -> terms.put(t.getSlug(), t));

        Map<String, List<Entry>> keys = new HashMap<>();
        Map<String, List<Entry>> exactKeys = new HashMap<>();
        for (Company c : companies.values()) {
            for (Listing l : c.getListings()) {
                addUnique(companiesBySymbol, l.getDisplaySymbol(), c.getId());
                addUnique(companiesBySymbol, l.getSymbol(), c.getId());
                listingsByDisplay.computeIfAbsent(l.getDisplaySymbol(), k -> new ArrayList<>(1)).add(l);
                listingsByMicSymbol.put(l.getMic() + ":" + l.getSymbol(), l);
                addTicker(exactKeys, c, l, l.getSymbol());
                if (!l.getDisplaySymbol().equals(l.getSymbol())) {
                    addTicker(exactKeys, c, l, l.getDisplaySymbol());
                }
            }
            addNames(keys, companiesByName, Kind.COMPANY, c.getId(), c.getName(), c.getAliases());
        }
        for (TermUpdate t : terms.values()) {
            addNames(keys, null, Kind.TERM, t.getSlug(), t.getTitle(), t.getAliases());
        }
        for (ChainLayer l : layers.values()) {
            addNames(keys, layersByName, Kind.LAYER, l.getId(), l.getName(), l.getAliases());
        }
        signature = signature(layers.values(), companies.values(), terms.values());
        // Exact-case entries (acronyms) go to the case-sensitive dictionary, keyed as
        // written.
        PayloadTrie.PayloadTrieBuilder<List<Entry>> fb = PayloadTrie.<List<Entry>>builder().ignoreCase();
        keys.forEach((k, entries) -> {
            List<Entry> rest = new ArrayList<>(entries.size());
            for (Entry e : entries) {
                if (e.caseRule() == CaseRule.EXACT) {
                    exactKeys.computeIfAbsent(e.canonical(), x -> new ArrayList<>(1)).add(e);
                }
                else {
                    rest.add(e);
                }
            }
            if (!rest.isEmpty()) {
                fb.addKeyword(k, rest);
            }
        });
        folded = fb.build();
        PayloadTrie.PayloadTrieBuilder<List<Entry>> xb = PayloadTrie.<List<Entry>>builder();
        exactKeys.forEach((k, v) -> xb.addKeyword(k, List.copyOf(v)));
        exact = xb.build();
    }

    private static long signature(Collection<ChainLayer> layers, Collection<Company> companies,
            Collection<TermUpdate> terms) {
        long sig = 17;
        for (ChainLayer l : layers) {
            sig = 31 * sig + l.hashCode();
        }
        for (Company c : companies) {
            sig = 31 * sig + c.hashCode();
        }
        for (TermUpdate t : terms) {
            sig = 31 * sig
                    + Objects.hash(t.getSlug(), t.getTitle(), t.getAliases(), t.getDefinition(), t.getLayerHint());
        }
        return sig;
    }

    // ------------------------------------------------------------------------------
    // lookups

    /**
     * @return a hash of the layers, companies and each term's slug, title, aliases,
     * definition and layer
     */
    long signature() {
        return signature;
    }

    /**
     * @return the company of that id, or null
     */
    Company company(String id) {
        return companies.get(id);
    }

    /**
     * @return the term of that slug, or null
     */
    TermUpdate term(String slug) {
        return terms.get(slug);
    }

    /**
     * @return the name of a known layer id
     */
    String layerName(String id) {
        return layers.get(id).getName();
    }

    boolean isLayer(String id) {
        return layers.containsKey(id);
    }

    /**
     * @return the id of the one company that has this listing or display symbol, or null
     */
    String companyBySymbol(String symbol) {
        return unique(companiesBySymbol.get(symbol));
    }

    /**
     * @return the id of the one company that has this name or alias (any case), or null
     */
    String companyByName(String name) {
        return unique(companiesByName.get(norm(name)));
    }

    /**
     * @return whether two companies share this name or alias, so that it names neither
     */
    boolean sharedCompanyName(String name) {
        List<String> ids = companiesByName.get(norm(name));
        return ids != null && ids.size() > 1;
    }

    /**
     * @param hint a layer id, name or alias (any case), or null
     * @return the layer's id, or null when the hint is none of them or names two layers
     */
    String layerId(String hint) {
        if (hint == null) {
            return null;
        }
        return layers.containsKey(hint) ? hint : unique(layersByName.get(norm(hint)));
    }

    /**
     * @return the first layer whose name or alias the text contains (any case), or null
     */
    String layerNamedIn(String text) {
        for (PayloadEmit<List<Entry>> e : folded.parseText(text)) {
            for (Entry entry : e.getPayload()) {
                if (entry.kind() == Kind.LAYER) {
                    return entry.id();
                }
            }
        }
        return null;
    }

    /**
     * @return whether a symbol written in prose is also the name or alias of something
     * other than {@code companyId} ({@code SMR} is a term)
     */
    boolean namesSomethingElse(String written, String companyId) {
        Set<String> owners = nameOwners.get(fold(written));
        return owners != null && !(owners.size() == 1 && owners.contains(Kind.COMPANY + ":" + companyId));
    }

    /**
     * Whether this ticker entry is the listing the symbol means: on the given exchange if
     * one was written, else the one listing with that display symbol, else the one
     * listing with that local symbol.
     * @param mic the ISO 10383 MIC of the exchange written before the symbol, or null
     * @param symbol the symbol as written
     */
    boolean resolves(Entry entry, String mic, String symbol) {
        Listing l = entry.listing();
        if (mic != null) {
            Listing onExchange = listingsByMicSymbol.get(mic + ":" + symbol);
            if (onExchange != null) {
                return onExchange == l;
            }
            // Exchange not matching any listing: fall back to the symbol alone, if it is
            // not a number.
            if (symbol.chars().allMatch(Character::isDigit)) {
                return false;
            }
        }
        List<Listing> byDisplay = listingsByDisplay.getOrDefault(symbol, List.of());
        if (!byDisplay.isEmpty()) {
            return byDisplay.size() == 1 && byDisplay.get(0) == l;
        }
        return companyBySymbol(symbol) != null && l.getSymbol().equals(symbol);
    }

    /**
     * Scans a text with both dictionaries, passing each raw hit (folded ones first) to
     * {@code hits}.
     * @return how many raw hits there were
     */
    int scan(String text, Consumer<Raw> hits) {
        int[] n = new int[1];
        for (PayloadTrie<List<Entry>> trie : List.of(folded, exact)) {
            trie.parseText(text, (PayloadEmit<List<Entry>> e) -> {
                n[0]++;
                hits.accept(new Raw(e.getStart(), e.getEnd() + 1, e.getPayload()));
                return true;
            });
        }
        return n[0];
    }

    // ------------------------------------------------------------------------------
    // building

    /**
     * Keys a name and its aliases, and records them in {@code byName} (when given) for
     * the id.
     */
    private void addNames(Map<String, List<Entry>> keys, Map<String, List<String>> byName, Kind kind, String id,
            String name, List<String> aliases) {
        List<String> all = new ArrayList<>(aliases.size() + 1);
        all.add(name);
        all.addAll(aliases);
        for (int i = 0; i < all.size(); i++) {
            String n = all.get(i);
            if (byName != null) {
                addUnique(byName, norm(n), id);
            }
            addName(keys, kind, id, n, i == 0);
        }
    }

    private void addName(Map<String, List<Entry>> keys, Kind kind, String id, String name, boolean isName) {
        if (name == null || name.isBlank()) {
            return;
        }
        String canonical = name.strip().replaceAll("\\s+", " ");
        for (String variant : variants(canonical)) {
            String key = fold(variant);
            nameOwners.computeIfAbsent(key, k -> new HashSet<>()).add(kind + ":" + id);
            boolean acronym = isAcronym(variant);
            String firstWord = variant.split("[\\s\\-]", 2)[0].toLowerCase(Locale.ROOT);
            boolean ordinary = !acronym && kind == Kind.COMPANY && ORDINARY_WORDS.contains(firstWord);
            CaseRule caseRule = acronym ? CaseRule.EXACT : ordinary ? CaseRule.INITIALS : CaseRule.ANY;
            TagRule rule = switch (kind) {
                case COMPANY -> isName ? TagRule.COMPANY_NAME : TagRule.COMPANY_ALIAS;
                case TERM -> isName ? TagRule.TERM_TITLE : TagRule.TERM_ALIAS;
                case LAYER -> isName ? TagRule.LAYER_NAME : TagRule.LAYER_ALIAS;
            };
            double confidence = switch (kind) {
                case COMPANY ->
                    acronym ? TagRule.ACRONYM_NAME : ordinary ? TagRule.ORDINARY_WORD_NAME : rule.confidence();
                case TERM -> GENERIC_TERM_WORDS.contains(key) ? TagRule.GENERIC_TERM_NAME : rule.confidence();
                case LAYER -> rule.confidence();
            };
            boolean plural = kind != Kind.COMPANY || !ordinary && variant.length() >= 3;
            List<Entry> entries = keys.computeIfAbsent(key, k -> new ArrayList<>(1));
            if (entries.stream()
                .noneMatch(x -> x.kind() == kind && x.id().equals(id) && x.listing() == null
                        && x.canonical().equals(variant))) {
                entries.add(new Entry(kind, id, variant, rule, caseRule, ordinary, plural, confidence, null));
            }
        }
    }

    private static void addTicker(Map<String, List<Entry>> keys, Company c, Listing l, String symbol) {
        if (symbol == null || symbol.isBlank()) {
            return;
        }
        TagRule rule = symbol.contains(".") ? TagRule.TICKER_SUFFIXED : TagRule.TICKER_IN_PROSE;
        keys.computeIfAbsent(symbol, k -> new ArrayList<>(1))
            .add(new Entry(Kind.COMPANY, c.getId(), symbol, rule, CaseRule.EXACT, false, false,
                    TagRule.TICKER_SUFFIXED.confidence(), l));
    }

    /**
     * {@code Kulicke & Soffa} is also written {@code Kulicke and Soffa} and
     * {@code Kulicke&Soffa}.
     */
    private static List<String> variants(String name) {
        List<String> out = new ArrayList<>(List.of(name));
        if (name.contains(" & ")) {
            out.add(name.replace(" & ", " and "));
            out.add(name.replace(" & ", "&"));
        }
        if (name.contains("'")) {
            out.add(name.replace('\'', '’')); // Lowe's, Lowe’s
        }
        return out;
    }

    /**
     * An acronym that must be written exactly: no lower-case letter, and either at most
     * three characters ({@code ASE}, {@code GF}, {@code K&S}, {@code UPS}, {@code HBM})
     * or a longer one that, lower-cased, is an English word
     * ({@link TaggerWords#ACRONYM_WORDS}: {@code DRAM}, {@code FLOPS}). Longer acronyms
     * ({@code TSMC}, {@code RDMA}) are matched in any case, like names.
     */
    private static boolean isAcronym(String s) {
        if (s.length() > 5 || s.codePoints().anyMatch(Character::isLowerCase)
                || s.codePoints().noneMatch(Character::isUpperCase)) {
            return false;
        }
        return s.length() <= 3 || ACRONYM_WORDS.contains(s.toLowerCase(Locale.ROOT));
    }

    private static void addUnique(Map<String, List<String>> map, String key, String id) {
        if (key == null || key.isBlank()) {
            return;
        }
        List<String> ids = map.computeIfAbsent(key, k -> new ArrayList<>(1));
        if (!ids.contains(id)) {
            ids.add(id);
        }
    }

    /** A key that names two different entities is ambiguous and tags nothing. */
    private static String unique(List<String> ids) {
        return ids != null && ids.size() == 1 ? ids.get(0) : null;
    }

    static String norm(String s) {
        return s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
    }

    /** Lower-cases char by char, as the trie does with text, so offsets line up. */
    static String fold(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            b.append(Character.toLowerCase(s.charAt(i)));
        }
        return b.toString();
    }

}
