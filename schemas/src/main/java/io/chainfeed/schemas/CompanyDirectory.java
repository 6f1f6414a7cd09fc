package io.chainfeed.schemas;

import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one resolver of company identifiers, built from the company reference data
 * ({@value Topics#COMPANIES}): every surface that takes a company from a person (company
 * API and page, search filter, feed selectors, webhooks, widget data, suggest) and the
 * tagger's output go through it.
 *
 * <p>
 * An identifier is any of, case-insensitively and with Unicode compatibility forms folded
 * (NFKC): the company id ({@code tsmc}), any listing's display symbol ({@code TSM},
 * {@code 2330.TW}), a listing qualified by its ISO 10383 MIC ({@code XNYS:TSM},
 * {@code XTAI:2330}), the name, an alias, or a listing's exchange-local symbol
 * ({@code 2330}). When the same text names two companies, the more specific kind wins, in
 * that order (id, display symbol, MIC-qualified, name, alias, local symbol); two
 * companies of the same kind make the text ambiguous and it resolves to nothing.
 *
 * <p>
 * A company's <b>canonical listing</b> is its first listing in the reference data (the
 * home exchange, e.g. {@code 2330.TW} for TSMC); tags and selectors name a company by
 * that listing's display symbol, so the same company is always labelled the same way.
 * Instances are immutable and thread-safe.
 */
public final class CompanyDirectory {

    /** Runs of white space, folded to one space ({@link #fold}); compiled once. */
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /** How an identifier named the company, most specific first. */
    public enum Via {

        ID, DISPLAY_SYMBOL, MIC_SYMBOL, NAME, ALIAS, LOCAL_SYMBOL

    }

    /**
     * One resolvable identifier of a company.
     *
     * @param text the identifier as the reference data writes it, e.g. {@code XNYS:TSM}
     * @param key its folded form, see {@link #fold(String)}
     * @param via what kind of identifier it is
     * @param company the company
     */
    public record Key(String text, String key, Via via, Company company) {
    }

    private static final CompanyDirectory EMPTY = new CompanyDirectory(List.of());

    private final List<Company> companies;

    private final Map<String, Company> byId;

    private final List<Map<String, Company>> tiers;

    private final List<Key> keys;

    private CompanyDirectory(Collection<Company> companies) {
        List<Company> sorted = new ArrayList<>(companies);
        sorted.sort(Comparator.comparing(Company::getId));
        this.companies = List.copyOf(sorted);
        this.byId = new HashMap<>();
        List<Map<String, Company>> tiers = new ArrayList<>();
        List<Set<String>> ambiguous = new ArrayList<>();
        for (int i = 0; i < Via.values().length; i++) {
            tiers.add(new HashMap<>());
            ambiguous.add(new HashSet<>());
        }
        List<Key> keys = new ArrayList<>();
        for (Company c : sorted) {
            byId.put(c.getId(), c);
            for (Key k : keysOf(c)) {
                keys.add(k);
                Map<String, Company> tier = tiers.get(k.via().ordinal());
                Company before = tier.putIfAbsent(k.key(), c);
                if (before != null && !before.getId().equals(c.getId())) {
                    ambiguous.get(k.via().ordinal()).add(k.key());
                }
            }
        }
        for (int i = 0; i < tiers.size(); i++) {
            tiers.get(i).keySet().removeAll(ambiguous.get(i));
            tiers.set(i, Map.copyOf(tiers.get(i)));
        }
        this.tiers = List.copyOf(tiers);
        this.keys = List.copyOf(keys);
    }

    /**
     * @param companies the latest record of every company (duplicated ids: the last one
     * wins)
     * @return a directory over them
     */
    public static CompanyDirectory of(Collection<Company> companies) {
        Map<String, Company> latest = new HashMap<>();
        for (Company c : companies) {
            latest.put(c.getId(), c);
        }
        return new CompanyDirectory(latest.values());
    }

    /**
     * @return a directory that knows no company
     */
    public static CompanyDirectory empty() {
        return EMPTY;
    }

    /**
     * @return every company, by id
     */
    public List<Company> companies() {
        return companies;
    }

    /**
     * @return every identifier of every company (see the class comment), companies by id
     */
    public List<Key> keys() {
        return keys;
    }

    /**
     * @return whether no company is known
     */
    public boolean isEmpty() {
        return companies.isEmpty();
    }

    /**
     * @param id a company id
     * @return the company with exactly that id
     */
    public Optional<Company> byId(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /**
     * @param identifier any identifier of a company (see the class comment), any case;
     * null or blank resolves to nothing
     * @return the company it names, unless it names none or is ambiguous
     */
    public Optional<Company> resolve(String identifier) {
        if (identifier == null || identifier.isBlank()) {
            return Optional.empty();
        }
        String key = fold(identifier);
        for (Map<String, Company> tier : tiers) {
            Company c = tier.get(key);
            if (c != null) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * @param identifier an identifier
     * @return how it names a company (the tier it resolves in), if it does
     */
    public Optional<Via> via(String identifier) {
        if (identifier == null || identifier.isBlank()) {
            return Optional.empty();
        }
        String key = fold(identifier);
        for (Via v : Via.values()) {
            if (tiers.get(v.ordinal()).containsKey(key)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /**
     * @param c a company
     * @return its canonical listing (the first one of the reference data), if it has any
     */
    public static Optional<Listing> canonicalListing(Company c) {
        return c.getListings().isEmpty() ? Optional.empty() : Optional.of(c.getListings().get(0));
    }

    /**
     * @param c a company
     * @return the display symbol of its canonical listing, or its id if it has no listing
     */
    public static String canonicalSymbol(Company c) {
        return canonicalListing(c).map(Listing::getDisplaySymbol).orElse(c.getId());
    }

    /**
     * @param c a company
     * @return the display symbols of all its listings, canonical first
     */
    public static List<String> displaySymbols(Company c) {
        Set<String> out = new LinkedHashSet<>();
        for (Listing l : c.getListings()) {
            out.add(l.getDisplaySymbol());
        }
        return List.copyOf(out);
    }

    /**
     * The folded form identifiers are compared in: NFKC, lower case (root locale), runs
     * of white space as one space, trimmed.
     * @param text any text
     * @return its folded form
     */
    public static String fold(String text) {
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT).strip();
        return WHITESPACE.matcher(folded).replaceAll(" ");
    }

    private static List<Key> keysOf(Company c) {
        List<Key> out = new ArrayList<>();
        add(out, c.getId(), Via.ID, c);
        for (Listing l : c.getListings()) {
            add(out, l.getDisplaySymbol(), Via.DISPLAY_SYMBOL, c);
            add(out, l.getMic() + ":" + l.getSymbol(), Via.MIC_SYMBOL, c);
            if (!l.getDisplaySymbol().equals(l.getSymbol())) {
                add(out, l.getMic() + ":" + l.getDisplaySymbol(), Via.MIC_SYMBOL, c);
            }
        }
        add(out, c.getName(), Via.NAME, c);
        for (String a : c.getAliases()) {
            add(out, a, Via.ALIAS, c);
        }
        for (Listing l : c.getListings()) {
            add(out, l.getSymbol(), Via.LOCAL_SYMBOL, c);
        }
        return out;
    }

    private static void add(List<Key> out, String text, Via via, Company c) {
        if (text == null || text.isBlank()) {
            return;
        }
        String key = fold(text);
        if (out.stream().noneMatch(k -> k.key().equals(key) && k.via() == via)) {
            out.add(new Key(text, key, via, c));
        }
    }

}
