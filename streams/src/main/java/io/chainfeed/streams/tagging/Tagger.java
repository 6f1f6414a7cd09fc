package io.chainfeed.streams.tagging;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.TermTag;
import io.chainfeed.avro.TermUpdate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ahocorasick.trie.PayloadEmit;
import org.ahocorasick.trie.PayloadTrie;

/**
 * Tags a term update with chain layers and companies, each tag with its evidence, and turns it into
 * a {@link Read}. Immutable and thread-safe; build a new one when reference data changes.
 *
 * <p>Rules, in falling order of confidence:
 * <ul>
 *   <li>{@code declared-company} (1.0, primary): a company the source lists, resolved by display
 *       symbol, exchange symbol, or name and alias;</li>
 *   <li>{@code ticker-in-context} (0.95): a symbol in explicit ticker context, {@code (ANET)},
 *       {@code (NASDAQ: ANET)}, {@code $ANET}, {@code (2345.TW)}; tickers are case-sensitive and never
 *       tagged from bare prose, so ordinary words that are also tickers stay untagged;</li>
 *   <li>{@code company-name} (0.9): a company name or alias, case-insensitive, whole words, so
 *       "Nvidia's" matches "Nvidia", found by an Aho-Corasick scan of every field;</li>
 *   <li>{@code declared-layer} (1.0, primary): the layer the source declares, by id, name or alias;</li>
 *   <li>{@code layer-name} (0.7): a layer name or alias in the text;</li>
 *   <li>{@code company-primary-layer} (0.5 + 0.1 per company, at most 0.9): the primary layer of a
 *       tagged company.</li>
 * </ul>
 * A company reached by several aliases or rules is one tag that keeps every piece of evidence.
 * Tags are ordered primary first, then by confidence, then in the order the source gave or
 * mentioned them (declared companies in page order), so the output is deterministic.
 */
public final class Tagger {

    /** Explicit ticker context: a parenthesised symbol, optionally exchange-prefixed. */
    private static final Pattern PAREN_TICKER = Pattern.compile(
            "\\((?:([A-Za-z]{2,8})\\s*:\\s*)?([A-Z0-9]{1,6}(?:\\.[A-Z]{1,2})?)\\)");
    /** A cashtag: {@code $ANET}. */
    private static final Pattern CASHTAG = Pattern.compile("(?<![\\w$])\\$([A-Z]{1,6}(?:\\.[A-Z]{1,2})?)\\b");

    private final Map<String, ChainLayer> layers;
    private final Map<String, Company> companies;
    private final Map<String, List<String>> companiesBySymbol;
    private final Map<String, List<String>> companiesByName;
    private final PayloadTrie<String> companyNames;
    private final PayloadTrie<String> layerNames;
    private final Map<String, List<String>> layersByName;

    private Tagger(Collection<ChainLayer> layerList, Collection<Company> companyList) {
        this.layers = new LinkedHashMap<>();
        layerList.forEach(l -> layers.put(l.getId(), l));
        this.companies = new LinkedHashMap<>();
        companyList.forEach(c -> companies.put(c.getId(), c));

        companiesBySymbol = new HashMap<>();
        companiesByName = new HashMap<>();
        for (Company c : companies.values()) {
            for (Listing l : c.getListings()) {
                addUnique(companiesBySymbol, l.getDisplaySymbol(), c.getId());
                addUnique(companiesBySymbol, l.getSymbol(), c.getId());
            }
            addUnique(companiesByName, norm(c.getName()), c.getId());
            c.getAliases().forEach(a -> addUnique(companiesByName, norm(a), c.getId()));
        }
        PayloadTrie.PayloadTrieBuilder<String> names = PayloadTrie.<String>builder().ignoreCase().onlyWholeWords();
        companiesByName.keySet().forEach(k -> names.addKeyword(k, k));
        companyNames = names.build();

        layersByName = new HashMap<>();
        for (ChainLayer l : layers.values()) {
            addUnique(layersByName, norm(l.getName()), l.getId());
            l.getAliases().forEach(a -> addUnique(layersByName, norm(a), l.getId()));
        }
        PayloadTrie.PayloadTrieBuilder<String> ln = PayloadTrie.<String>builder().ignoreCase().onlyWholeWords();
        layersByName.keySet().forEach(k -> ln.addKeyword(k, k));
        layerNames = ln.build();
    }

    /**
     * Builds a tagger over reference data.
     *
     * @param layers    chain layers (id, name, aliases)
     * @param companies companies (names, aliases, listings, layers)
     * @return an immutable tagger
     */
    public static Tagger build(Collection<ChainLayer> layers, Collection<Company> companies) {
        return new Tagger(layers, companies);
    }

    /** @return how many companies the dictionary knows */
    public int companyCount() {
        return companies.size();
    }

    /**
     * Tags a term and returns its read: id {@code term:<slug>}, kind TERM, the term's text, sources,
     * disclaimer and version, with layer, company and term tags.
     *
     * @param term a term update, not null
     * @return the tagged read
     */
    public Read tag(TermUpdate term) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("title", term.getTitle());
        fields.put("definition", term.getDefinition());
        for (Section s : term.getSections()) {
            fields.put(s.getKey(), s.getBody());
        }

        Map<String, CompanyAcc> companyTags = new LinkedHashMap<>();
        for (CompanyMention m : term.getCompanies()) {
            tagDeclaredCompany(m, companyTags);
        }
        fields.forEach((field, text) -> tagCompaniesInText(field, text, companyTags));

        Map<String, LayerAcc> layerTags = new LinkedHashMap<>();
        tagDeclaredLayer(term.getLayerHint(), layerTags);
        fields.forEach((field, text) -> tagLayersInText(field, text, layerTags));
        tagLayersOfCompanies(companyTags, layerTags);

        List<TermTag> terms = new ArrayList<>();
        for (RelatedTerm r : term.getRelated()) {
            terms.add(TermTag.newBuilder().setSlug(r.getSlug()).setTitle(r.getTitle()).setSummary(r.getSummary())
                    .setConfidence(1.0)
                    .setEvidence(List.of(evidence("declared-related", "metadata", -1, -1, r.getTitle())))
                    .build());
        }

        return Read.newBuilder()
                .setId(readId(term.getSlug()))
                .setKind(ReadKind.TERM)
                .setSlug(term.getSlug())
                .setTitle(term.getTitle())
                .setAliases(term.getAliases())
                .setSummary(term.getDefinition())
                .setSections(term.getSections())
                .setLayers(layerTags.values().stream().map(LayerAcc::toTag)
                        .sorted(Comparator.comparing(LayerTag::getPrimary).reversed()
                                .thenComparing(Comparator.comparing(LayerTag::getConfidence).reversed()))
                        .toList())
                .setCompanies(companyTags.values().stream().map(CompanyAcc::toTag)
                        .sorted(Comparator.comparing(CompanyTag::getPrimary).reversed()
                                .thenComparing(Comparator.comparing(CompanyTag::getConfidence).reversed()))
                        .toList())
                .setTerms(terms)
                .setSources(term.getSources())
                .setDisclaimer(term.getDisclaimer())
                .setVersion(term.getVersion())
                .setUpdatedAt(term.getUpdatedAt())
                .build();
    }

    /** @return the read id of a term slug: {@code term:<slug>} */
    public static String readId(String slug) {
        return "term:" + slug;
    }

    private void tagDeclaredCompany(CompanyMention m, Map<String, CompanyAcc> acc) {
        String text = m.getSymbol() == null ? m.getName() : m.getName() + " (" + m.getSymbol() + ")";
        String id = null;
        if (m.getSymbol() != null) {
            id = unique(companiesBySymbol.get(m.getSymbol()));
        }
        if (id == null) {
            id = unique(companiesByName.get(norm(m.getName())));
        }
        if (id == null) {
            // Not in reference data: keep what the source says, at lower confidence, so nothing is lost.
            String sym = m.getSymbol() == null ? "" : m.getSymbol();
            String unresolved = "unresolved:" + norm(m.getName()).replaceAll("[^a-z0-9]+", "-");
            acc.computeIfAbsent(unresolved, k -> new CompanyAcc(k, m.getName(), sym, ""))
                    .add(0.5, true, evidence("declared-company-unresolved", "metadata", -1, -1, text));
            return;
        }
        companyAcc(acc, id, m.getSymbol()).add(1.0, true, evidence("declared-company", "metadata", -1, -1, text));
    }

    private void tagCompaniesInText(String field, String text, Map<String, CompanyAcc> acc) {
        if (text == null || text.isEmpty()) {
            return;
        }
        boolean lead = field.equals("title") || field.equals("definition");
        for (PayloadEmit<String> e : companyNames.parseText(text)) {
            String id = unique(companiesByName.get(e.getPayload()));
            if (id != null) {
                companyAcc(acc, id, null).add(0.9, lead,
                        evidence("company-name", field, e.getStart(), e.getEnd() + 1,
                                text.substring(e.getStart(), e.getEnd() + 1)));
            }
        }
        tagTickers(field, text, PAREN_TICKER, 2, acc, lead);
        tagTickers(field, text, CASHTAG, 1, acc, lead);
    }

    private void tagTickers(String field, String text, Pattern p, int group, Map<String, CompanyAcc> acc,
            boolean lead) {
        Matcher m = p.matcher(text);
        while (m.find()) {
            String symbol = m.group(group);
            String id = unique(companiesBySymbol.get(symbol));
            if (id != null) {
                companyAcc(acc, id, symbol).add(0.95, lead,
                        evidence("ticker-in-context", field, m.start(), m.end(), m.group()));
            }
        }
    }

    private CompanyAcc companyAcc(Map<String, CompanyAcc> acc, String id, String symbolSeen) {
        Company c = companies.get(id);
        Listing listing = c.getListings().stream()
                .filter(l -> symbolSeen != null
                        && (symbolSeen.equals(l.getDisplaySymbol()) || symbolSeen.equals(l.getSymbol())))
                .findFirst()
                .orElse(c.getListings().isEmpty() ? null : c.getListings().get(0));
        CompanyAcc a = acc.computeIfAbsent(id, k -> new CompanyAcc(k, c.getName(),
                listing == null ? "" : listing.getDisplaySymbol(), listing == null ? "" : listing.getMic()));
        a.primaryLayer = c.getPrimaryLayer();
        return a;
    }

    private void tagDeclaredLayer(String hint, Map<String, LayerAcc> acc) {
        if (hint == null || hint.isBlank()) {
            return;
        }
        String id = layers.containsKey(hint) ? hint : unique(layersByName.get(norm(hint)));
        if (id == null) {
            for (PayloadEmit<String> e : layerNames.parseText(hint)) {
                id = unique(layersByName.get(e.getPayload()));
                if (id != null) {
                    break;
                }
            }
        }
        if (id != null) {
            layerAcc(acc, id).add(1.0, true, evidence("declared-layer", "metadata", -1, -1, hint));
        }
    }

    private void tagLayersInText(String field, String text, Map<String, LayerAcc> acc) {
        if (text == null || text.isEmpty()) {
            return;
        }
        for (PayloadEmit<String> e : layerNames.parseText(text)) {
            String id = unique(layersByName.get(e.getPayload()));
            if (id != null) {
                layerAcc(acc, id).add(0.7, false, evidence("layer-name", field, e.getStart(), e.getEnd() + 1,
                        text.substring(e.getStart(), e.getEnd() + 1)));
            }
        }
    }

    private void tagLayersOfCompanies(Map<String, CompanyAcc> companyTags, Map<String, LayerAcc> acc) {
        Map<String, List<CompanyAcc>> byLayer = new LinkedHashMap<>();
        for (CompanyAcc c : companyTags.values()) {
            if (c.primaryLayer != null && layers.containsKey(c.primaryLayer)) {
                byLayer.computeIfAbsent(c.primaryLayer, k -> new ArrayList<>()).add(c);
            }
        }
        byLayer.forEach((layerId, cs) -> {
            LayerAcc a = layerAcc(acc, layerId);
            double confidence = Math.min(0.9, 0.5 + 0.1 * cs.size());
            for (CompanyAcc c : cs) {
                a.add(confidence, false, evidence("company-primary-layer", "metadata", -1, -1,
                        (c.symbol.isEmpty() ? c.name : c.symbol) + " -> " + layerId));
            }
        });
    }

    private LayerAcc layerAcc(Map<String, LayerAcc> acc, String id) {
        return acc.computeIfAbsent(id, k -> new LayerAcc(k, layers.get(k).getName()));
    }

    private static Evidence evidence(String rule, String field, int start, int end, String text) {
        return Evidence.newBuilder().setRule(rule).setField(field).setStart(start).setEnd(end).setText(text).build();
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

    private static String norm(String s) {
        return s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
    }

    private static final class CompanyAcc {
        final String id;
        final String name;
        final String symbol;
        final String mic;
        String primaryLayer;
        double confidence;
        boolean primary;
        final Set<Evidence> evidence = new LinkedHashSet<>();

        CompanyAcc(String id, String name, String symbol, String mic) {
            this.id = id;
            this.name = name;
            this.symbol = symbol;
            this.mic = mic;
        }

        void add(double c, boolean isPrimary, Evidence e) {
            confidence = Math.max(confidence, c);
            primary |= isPrimary;
            evidence.add(e);
        }

        CompanyTag toTag() {
            return CompanyTag.newBuilder().setId(id).setName(name).setSymbol(symbol).setMic(mic)
                    .setConfidence(confidence).setPrimary(primary).setEvidence(List.copyOf(evidence)).build();
        }
    }

    private static final class LayerAcc {
        final String id;
        final String name;
        double confidence;
        boolean primary;
        final Set<Evidence> evidence = new LinkedHashSet<>();

        LayerAcc(String id, String name) {
            this.id = id;
            this.name = name;
        }

        void add(double c, boolean isPrimary, Evidence e) {
            confidence = Math.max(confidence, c);
            primary |= isPrimary;
            evidence.add(e);
        }

        LayerTag toTag() {
            return LayerTag.newBuilder().setId(id).setName(name).setConfidence(confidence).setPrimary(primary)
                    .setEvidence(List.copyOf(evidence)).build();
        }
    }
}
