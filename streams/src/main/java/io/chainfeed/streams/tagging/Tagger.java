package io.chainfeed.streams.tagging;

import static io.chainfeed.streams.tagging.TaggerWords.ACRONYM_WORDS;
import static io.chainfeed.streams.tagging.TaggerWords.CORROBORATED_TERM_ALIASES;
import static io.chainfeed.streams.tagging.TaggerWords.EXCHANGES;
import static io.chainfeed.streams.tagging.TaggerWords.GENERIC_TERM_WORDS;
import static io.chainfeed.streams.tagging.TaggerWords.ORDINARY_WORDS;
import static io.chainfeed.streams.tagging.TaggerWords.STOP_SYMBOLS;
import static io.chainfeed.streams.tagging.TextBoundaries.afterSuffix;
import static io.chainfeed.streams.tagging.TextBoundaries.boundaryBefore;
import static io.chainfeed.streams.tagging.TextBoundaries.bracket;
import static io.chainfeed.streams.tagging.TextBoundaries.clauseCue;
import static io.chainfeed.streams.tagging.TextBoundaries.initialsMatch;
import static io.chainfeed.streams.tagging.TextBoundaries.isJoiner;
import static io.chainfeed.streams.tagging.TextBoundaries.sentenceStart;
import static io.chainfeed.streams.tagging.TextBoundaries.spellsInitials;

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
import io.chainfeed.schemas.CompanyDirectory;
import io.chainfeed.streams.tagging.TagAccumulators.CompanyAcc;
import io.chainfeed.streams.tagging.TagAccumulators.LayerAcc;
import io.chainfeed.streams.tagging.TagAccumulators.TermAcc;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ahocorasick.trie.PayloadEmit;
import org.ahocorasick.trie.PayloadTrie;

/**
 * Tags a term update (or anything shaped like one, such as a signal) with companies, glossary terms
 * and chain layers, each tag with its evidence and a confidence, and turns it into a {@link Read}.
 * Immutable and thread-safe; build a new one when reference data changes (the tagging topology
 * does so without a restart).
 *
 * <h2>How text is matched</h2>
 * Every company name and alias, every term title and alias and every layer name and alias goes
 * into a case-folded Aho-Corasick dictionary, and every listing symbol, display symbol and acronym
 * into a case-sensitive one ({@code org.ahocorasick} {@link PayloadTrie}); each field of the read is
 * scanned once by each, and every hit is then checked against the rules below. The library's own {@code onlyWholeWords} is not used:
 * it only looks at {@link Character#isAlphabetic} neighbours, so it accepts {@code HBM} inside
 * {@code HBM3E} and {@code AT} inside {@code AT&T}, and rejects {@code 台積電} inside {@code 台積電的}.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li><b>Word boundaries.</b> A hit must not touch a letter or digit on either side
 *       ({@link Character#isLetterOrDigit}); {@code _}, a {@code .} or {@code &} between two letters or
 *       digits ({@code nvidia.com}, {@code AT&T}) join words too. Where the hit and its neighbour are in
 *       different scripts and one of them is Han, kana or Hangul, the script change is the boundary
 *       ({@code 台積電的}, {@code 삼성전자는}, {@code TSMC는}).</li>
 *   <li><b>Possessives and plurals.</b> {@code 's}, {@code ’s} and a bare apostrophe after an
 *       {@code s} are accepted after any name or ticker ({@code Nvidia's}, {@code Nvidia’s},
 *       {@code Siemens'}); plurals ({@code s}, {@code es}) after term and layer names
 *       ({@code GPUs}, {@code hyperscalers}) and after distinctive company names, never after a ticker or
 *       an ordinary-word name.</li>
 *   <li><b>Case.</b> Names are case-insensitive ({@code NVIDIA}, {@code Nvidia}, {@code nvidia}),
 *       except: acronyms (no lower-case letter and at most three characters, {@code ASE},
 *       {@code GF}, {@code HBM}, {@code K&S}, or longer ones that are also English words,
 *       {@link TaggerWords#ACRONYM_WORDS}: {@code DRAM}, {@code FLOPS}) must be written exactly, while longer
 *       acronyms ({@code TSMC}, {@code RDMA}) are matched in any case; names that are or start with an ordinary
 *       English word ({@link TaggerWords#ORDINARY_WORDS}: {@code Micron}, {@code Coherent}, {@code Arm},
 *       {@code Applied Materials}, {@code Palo Alto}) must be written with the capital initials of the
 *       name (all capitals too, unless that spelling is a stop-listed ticker such as {@code ARM}).
 *       Tickers are always case-sensitive.</li>
 *   <li><b>Ordinary-word names at the start of a sentence</b> ({@code Coherent optics ...}) count only
 *       when what follows reads like a clause about a company (a possessive, a punctuation mark, a
 *       capitalised word, a verb from {@link TaggerWords#CLAUSE_CUES} or a word ending in -ed) or the same
 *       company is found elsewhere in the read by another rule.</li>
 *   <li><b>Tickers in explicit context</b> (0.95): a cashtag {@code $ANET}; a parenthesised symbol or
 *       list {@code (ANET)}, {@code (NASDAQ: ANET)}, {@code (NYSE: HPE; NASDAQ: NVDA)}; an exchange
 *       prefix {@code NASDAQ: ON}, {@code TWSE: 2330}; a suffixed listing {@code 2345.TW},
 *       {@code AI.PA}. With an exchange, the symbol resolves on that exchange's MIC. A bare number
 *       ({@code 2345}) is never a ticker, not even in brackets without an exchange; a bracketed
 *       stop-listed symbol that spells the initials of the words before it ({@code artificial
 *       intelligence (AI)}) is an abbreviation, not a ticker.</li>
 *   <li><b>Tickers in prose</b> (0.8): only the symbol of a US listing (XNAS, XNYS), at least three
 *       letters, written in capitals, not on the {@link TaggerWords#STOP_SYMBOLS} list of common words and
 *       acronyms, and not also a name or alias of anything else in the dictionary ({@code SMR} is a
 *       term). Everything else ({@code ON}, {@code IT}, {@code NOW}, {@code ARM}, {@code D}) needs
 *       explicit context, or the company's name ({@code ON Semiconductor}).</li>
 *   <li><b>Ambiguity.</b> A name or alias shared by two companies tags nothing; a symbol shared by two
 *       listings resolves by display symbol first, then by exchange, else tags nothing. Overlapping
 *       hits of one entity type keep the longest ({@code Samsung Electro-Mechanics} is not also
 *       {@code Samsung}; {@code Quanta Services} is not {@code Quanta}).</li>
 *   <li><b>Once per entity.</b> A company (term, layer) reached by several aliases, tickers or fields
 *       is one tag holding every piece of evidence; its confidence is the highest of its evidence.</li>
 * </ul>
 *
 * <h2>Rules and confidences</h2>
 * Companies: {@code declared-company} 1.0; {@code ticker-cashtag}, {@code ticker-exchange},
 * {@code ticker-parenthesised}, {@code ticker-suffixed} 0.95; {@code company-name},
 * {@code company-alias} 0.9 (0.85 for acronyms, 0.8 for ordinary-word names, 0.7 for those at the
 * start of a sentence); {@code ticker-in-prose} 0.8; {@code declared-company-unresolved} 0.5.
 * Terms: {@code declared-related} 1.0; {@code term-title} 0.9; {@code term-alias} 0.85; a title or
 * alias that is a generic word ({@link TaggerWords#GENERIC_TERM_WORDS}: training, yield, wafer ...) 0.6, and a
 * generic-word alias ({@code resist}, {@code etch}) only when the term is also found by another name.
 * A term never tags itself. Layers: {@code declared-layer} 1.0; {@code layer-name},
 * {@code layer-alias} 0.7; {@code company-primary-layer} 0.5 + 0.1 per tagged company on it (at most
 * 0.9); {@code term-layer}, the declared layer of terms found in the text, 0.5 + 0.1 per term (at most
 * 0.8).
 *
 * <h2>Primary subjects</h2>
 * A company or term is a primary subject of the read when the source declares it, when it is found
 * in the title or the definition (a signal's headline and summary), or when the body names it at
 * least three times; everything else is a passing mention. Tags are ordered primary first, then by
 * confidence, then in the order the source gave or mentioned them, so the output is deterministic.
 *
 * <p>The word lists are in {@link TaggerWords} (text files), the boundary and suffix checks in
 * {@link TextBoundaries}, and what each tag gathers in {@link TagAccumulators}.
 */
public final class Tagger {

    private static final Set<String> US_MICS = Set.of("XNAS", "XNYS");
    private static final String SYM = "[A-Z0-9][A-Za-z0-9.\\-]{0,11}";
    private static final String EXCH = "[A-Za-z]{2,10}\\s*[:：]\\s*";
    /** The inside of a bracket that holds only symbols, optionally exchange-prefixed. */
    private static final Pattern TICKER_LIST = Pattern.compile(
            "\\s*(?:" + EXCH + ")?" + SYM + "(?:\\s*[,;/]\\s*(?:" + EXCH + ")?" + SYM + ")*\\s*");
    private static final Pattern EXCHANGE_BEFORE = Pattern.compile("([A-Za-z]{2,10})\\s*[:：]\\s*$");

    enum Kind { COMPANY, TERM, LAYER }

    /** How a dictionary key must be written to count. */
    enum CaseRule { ANY, EXACT, INITIALS }

    /** One thing a dictionary key can mean. */
    record Entry(Kind kind, String id, String canonical, String rule, CaseRule caseRule, boolean ordinary,
            boolean generic, boolean plural, double confidence, Listing listing) {
        boolean ticker() {
            return listing != null;
        }
    }

    private final Map<String, ChainLayer> layers;
    private final Map<String, Company> companies;
    private final Map<String, TermUpdate> terms;
    private final Map<String, List<String>> companiesBySymbol;
    private final Map<String, List<String>> companiesByName;
    private final Map<String, List<String>> layersByName;
    /** Lower-cased keys that name something other than a ticker (company, term, layer names). */
    private final Map<String, Set<String>> nameOwners;
    /** Listings by display symbol, and by MIC + local symbol. */
    private final Map<String, List<Listing>> listingsByDisplay;
    private final Map<String, Listing> listingsByMicSymbol;
    /** Names matched case-insensitively (with the case rules checked after the scan). */
    private final PayloadTrie<List<Entry>> folded;
    /** Tickers and acronyms, matched exactly as written. */
    private final PayloadTrie<List<Entry>> exact;
    private final long signature;

    private Tagger(Collection<ChainLayer> layerList, Collection<Company> companyList,
            Collection<TermUpdate> termList) {
        this.layers = new LinkedHashMap<>();
        layerList.forEach(l -> layers.put(l.getId(), l));
        this.companies = new LinkedHashMap<>();
        companyList.forEach(c -> companies.put(c.getId(), c));
        this.terms = new LinkedHashMap<>();
        termList.forEach(t -> terms.put(t.getSlug(), t));

        companiesBySymbol = new HashMap<>();
        companiesByName = new HashMap<>();
        layersByName = new HashMap<>();
        nameOwners = new HashMap<>();
        listingsByDisplay = new HashMap<>();
        listingsByMicSymbol = new HashMap<>();
        Map<String, List<Entry>> keys = new HashMap<>();
        Map<String, List<Entry>> exactKeys = new HashMap<>();

        for (Company c : companies.values()) {
            for (Listing l : c.getListings()) {
                addUnique(companiesBySymbol, l.getDisplaySymbol(), c.getId());
                addUnique(companiesBySymbol, l.getSymbol(), c.getId());
                listingsByDisplay.computeIfAbsent(l.getDisplaySymbol(), k -> new ArrayList<>(1)).add(l);
                listingsByMicSymbol.put(l.getMic() + ":" + l.getSymbol(), l);
            }
            addUnique(companiesByName, norm(c.getName()), c.getId());
            c.getAliases().forEach(a -> addUnique(companiesByName, norm(a), c.getId()));
            addName(keys, Kind.COMPANY, c.getId(), c.getName(), "company-name");
            for (String a : c.getAliases()) {
                addName(keys, Kind.COMPANY, c.getId(), a, "company-alias");
            }
        }
        for (TermUpdate t : terms.values()) {
            addName(keys, Kind.TERM, t.getSlug(), t.getTitle(), "term-title");
            for (String a : t.getAliases()) {
                addName(keys, Kind.TERM, t.getSlug(), a, "term-alias");
            }
        }
        for (ChainLayer l : layers.values()) {
            addUnique(layersByName, norm(l.getName()), l.getId());
            l.getAliases().forEach(a -> addUnique(layersByName, norm(a), l.getId()));
            addName(keys, Kind.LAYER, l.getId(), l.getName(), "layer-name");
            for (String a : l.getAliases()) {
                addName(keys, Kind.LAYER, l.getId(), a, "layer-alias");
            }
        }
        for (Company c : companies.values()) {
            for (Listing l : c.getListings()) {
                addTicker(exactKeys, c, l, l.getSymbol());
                if (!l.getDisplaySymbol().equals(l.getSymbol())) {
                    addTicker(exactKeys, c, l, l.getDisplaySymbol());
                }
            }
        }
        // Exact-case entries (acronyms) move to the case-sensitive dictionary, keyed as written.
        keys.forEach((k, entries) -> {
            for (Entry e : entries) {
                if (e.caseRule() == CaseRule.EXACT) {
                    exactKeys.computeIfAbsent(e.canonical(), x -> new ArrayList<>(1)).add(e);
                }
            }
        });
        long sig = 17;
        for (ChainLayer l : layers.values()) {
            sig = 31 * sig + l.hashCode();
        }
        for (Company c : companies.values()) {
            sig = 31 * sig + c.hashCode();
        }
        for (TermUpdate t : terms.values()) {
            sig = 31 * sig + java.util.Objects.hash(t.getSlug(), t.getTitle(), t.getAliases(), t.getDefinition(),
                    t.getLayerHint());
        }
        signature = sig;
        PayloadTrie.PayloadTrieBuilder<List<Entry>> fb = PayloadTrie.<List<Entry>>builder().ignoreCase();
        keys.forEach((k, v) -> {
            List<Entry> rest = v.stream().filter(e -> e.caseRule() != CaseRule.EXACT).toList();
            if (!rest.isEmpty()) {
                fb.addKeyword(k, rest);
            }
        });
        folded = fb.build();
        PayloadTrie.PayloadTrieBuilder<List<Entry>> xb = PayloadTrie.<List<Entry>>builder();
        exactKeys.forEach((k, v) -> xb.addKeyword(k, List.copyOf(v)));
        exact = xb.build();
    }

    /**
     * Builds a tagger over reference data without glossary terms.
     *
     * @param layers    chain layers (id, name, aliases)
     * @param companies companies (names, aliases, listings, layers)
     * @return an immutable tagger
     */
    public static Tagger build(Collection<ChainLayer> layers, Collection<Company> companies) {
        return new Tagger(layers, companies, List.of());
    }

    /**
     * Builds a tagger over reference data, glossary terms included.
     *
     * @param layers    chain layers (id, name, aliases)
     * @param companies companies (names, aliases, listings, layers)
     * @param terms     glossary terms (slug, title, aliases, definition, declared layer)
     * @return an immutable tagger
     */
    public static Tagger build(Collection<ChainLayer> layers, Collection<Company> companies,
            Collection<TermUpdate> terms) {
        return new Tagger(layers, companies, terms);
    }

    /** @return how many companies the dictionary knows */
    public int companyCount() {
        return companies.size();
    }

    /**
     * @return a hash of everything the dictionary was built from (layers, companies, and each term's
     *     slug, title, aliases, definition and layer), so callers can tell whether a rebuild changed it
     */
    public long signature() {
        return signature;
    }

    /** @return how many glossary terms the dictionary knows */
    public int termCount() {
        return terms.size();
    }

    /**
     * Runs only the dictionary scan over a text, with none of the rules: the baseline the benchmark
     * compares {@link #tag(TermUpdate)} with.
     *
     * @param text any text
     * @return how many raw dictionary hits the scan produced
     */
    public int scan(String text) {
        int[] n = new int[1];
        folded.parseText(text, e -> {
            n[0]++;
            return true;
        });
        exact.parseText(text, e -> {
            n[0]++;
            return true;
        });
        return n[0];
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
        Map<String, TermAcc> termTags = new LinkedHashMap<>();
        for (RelatedTerm r : term.getRelated()) {
            if (!r.getSlug().equals(term.getSlug())) {
                termTags.computeIfAbsent(r.getSlug(), k -> new TermAcc(k, r.getTitle(), r.getSummary()))
                        .add(1.0, true, evidence("declared-related", "metadata", -1, -1, r.getTitle()));
            }
        }
        Map<String, LayerAcc> layerTags = new LinkedHashMap<>();
        tagDeclaredLayer(term.getLayerHint(), layerTags);

        List<Hit> deferred = new ArrayList<>();
        fields.forEach((field, text) -> tagText(term.getSlug(), field, text, companyTags, termTags, layerTags,
                deferred));
        for (Hit h : deferred) {
            // Corroborated elsewhere in the read: an ordinary word at a sentence start, or a generic alias.
            if (h.entry.kind() == Kind.COMPANY && companyTags.containsKey(h.entry.id())) {
                companyAcc(companyTags, h.entry.id()).add(h.confidence, h.lead, h.evidence);
            } else if (h.entry.kind() == Kind.TERM && termTags.containsKey(h.entry.id())) {
                termAcc(termTags, h.entry.id()).add(h.confidence, h.lead, h.evidence);
            }
        }
        companyTags.values().forEach(CompanyAcc::settlePrimary);
        termTags.values().forEach(TermAcc::settlePrimary);
        tagLayersOfCompanies(companyTags, layerTags);
        tagLayersOfTerms(termTags, layerTags);

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
                .setTerms(termTags.values().stream().map(TermAcc::toTag)
                        .sorted(Comparator.comparing((TermTag t) -> t.getConfidence()).reversed())
                        .toList())
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

    // ------------------------------------------------------------------------------ dictionary

    private void addName(Map<String, List<Entry>> keys, Kind kind, String id, String name, String rule) {
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
            boolean generic = kind == Kind.TERM && GENERIC_TERM_WORDS.contains(key);
            CaseRule caseRule = acronym ? CaseRule.EXACT : ordinary ? CaseRule.INITIALS : CaseRule.ANY;
            double confidence = switch (kind) {
                case COMPANY -> acronym ? 0.85 : ordinary ? 0.8 : 0.9;
                case TERM -> generic ? 0.6 : rule.equals("term-title") ? 0.9 : 0.85;
                case LAYER -> 0.7;
            };
            boolean plural = kind != Kind.COMPANY || !ordinary && variant.length() >= 3;
            List<Entry> entries = keys.computeIfAbsent(key, k -> new ArrayList<>(1));
            Entry e = new Entry(kind, id, variant, rule, caseRule, ordinary, generic, plural, confidence, null);
            if (entries.stream().noneMatch(x -> x.kind() == kind && x.id().equals(id) && x.listing() == null
                    && x.canonical().equals(variant))) {
                entries.add(e);
            }
        }
    }

    private void addTicker(Map<String, List<Entry>> keys, Company c, Listing l, String symbol) {
        if (symbol == null || symbol.isBlank()) {
            return;
        }
        String rule = symbol.contains(".") ? "ticker-suffixed" : "ticker";
        keys.computeIfAbsent(symbol, k -> new ArrayList<>(1)).add(new Entry(Kind.COMPANY, c.getId(), symbol,
                rule, CaseRule.EXACT, false, false, false, 0.95, l));
    }

    /** {@code Kulicke & Soffa} is also written {@code Kulicke and Soffa} and {@code Kulicke&Soffa}. */
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
     * An acronym that must be written exactly: no lower-case letter, and either at most three
     * characters ({@code ASE}, {@code GF}, {@code K&S}, {@code UPS}, {@code HBM}) or a longer one that,
     * lower-cased, is an English word ({@link TaggerWords#ACRONYM_WORDS}: {@code DRAM}, {@code FLOPS}). Longer
     * acronyms ({@code TSMC}, {@code RDMA}) are matched in any case, like names.
     */
    private static boolean isAcronym(String s) {
        if (s.length() > 5 || s.codePoints().anyMatch(Character::isLowerCase)
                || s.codePoints().noneMatch(Character::isUpperCase)) {
            return false;
        }
        return s.length() <= 3 || ACRONYM_WORDS.contains(s.toLowerCase(Locale.ROOT));
    }

    // ------------------------------------------------------------------------------ matching

    /** A hit that passed the rules, waiting for corroboration. */
    private record Hit(Entry entry, double confidence, boolean lead, Evidence evidence) {
    }

    /** A raw dictionary hit on a field, with its span (end exclusive). */
    private record Raw(int start, int end, List<Entry> entries) {
    }

    private void tagText(String self, String field, String text, Map<String, CompanyAcc> companyTags,
            Map<String, TermAcc> termTags, Map<String, LayerAcc> layerTags, List<Hit> deferred) {
        if (text == null || text.isEmpty()) {
            return;
        }
        boolean lead = field.equals("title") || field.equals("definition");
        List<Raw> raws = new ArrayList<>();
        folded.parseText(text, (PayloadEmit<List<Entry>> e) -> {
            raws.add(new Raw(e.getStart(), e.getEnd() + 1, e.getPayload()));
            return true;
        });
        exact.parseText(text, (PayloadEmit<List<Entry>> e) -> {
            raws.add(new Raw(e.getStart(), e.getEnd() + 1, e.getPayload()));
            return true;
        });
        // Accepted spans per kind, to let the longest of overlapping hits win.
        Map<Kind, List<Accepted>> accepted = new HashMap<>();
        for (Raw raw : raws) {
            for (Entry entry : raw.entries()) {
                if (entry.kind() == Kind.TERM && entry.id().equals(self)) {
                    continue;
                }
                Accepted a = entry.ticker() ? acceptTicker(text, raw, entry) : acceptName(text, raw, entry);
                if (a != null) {
                    accepted.computeIfAbsent(entry.kind(), k -> new ArrayList<>()).add(a);
                }
            }
        }
        for (Map.Entry<Kind, List<Accepted>> byKind : accepted.entrySet()) {
            List<Accepted> kept = longestWins(byKind.getValue());
            for (Accepted a : kept) {
                Entry entry = a.entry;
                Evidence ev = evidence(a.rule, field, a.start, a.end, text.substring(a.start, a.end));
                switch (entry.kind()) {
                    case COMPANY -> {
                        if (a.deferred) {
                            deferred.add(new Hit(entry, a.confidence, lead, ev));
                        } else {
                            companyAcc(companyTags, entry.id()).add(a.confidence, lead, ev);
                        }
                    }
                    case TERM -> {
                        if (a.deferred) {
                            deferred.add(new Hit(entry, a.confidence, lead, ev));
                        } else {
                            termAcc(termTags, entry.id()).add(a.confidence, lead, ev);
                        }
                    }
                    case LAYER -> layerAcc(layerTags, entry.id()).add(a.confidence, false, ev);
                }
            }
        }
    }

    /** A hit accepted by the rules. {@code id} resolved (for tickers, the listing's company). */
    private static final class Accepted {
        final Entry entry;
        final int start;
        final int end;
        final String rule;
        final double confidence;
        final boolean deferred;
        final String symbol;

        Accepted(Entry entry, int start, int end, String rule, double confidence, boolean deferred, String symbol) {
            this.entry = entry;
            this.start = start;
            this.end = end;
            this.rule = rule;
            this.confidence = confidence;
            this.deferred = deferred;
            this.symbol = symbol;
        }
    }

    /** Of overlapping hits of one kind keeps the longest (then the earliest); disjoint hits all stay. */
    private static List<Accepted> longestWins(List<Accepted> hits) {
        if (hits.size() < 2) {
            return hits;
        }
        List<Accepted> sorted = new ArrayList<>(hits);
        sorted.sort(Comparator.comparingInt((Accepted a) -> -(a.end - a.start)).thenComparingInt(a -> a.start));
        List<Accepted> kept = new ArrayList<>();
        for (Accepted a : sorted) {
            boolean overlaps = false;
            for (Accepted k : kept) {
                if (a.start < k.end && k.start < a.end && !(a.start == k.start && a.end == k.end)) {
                    overlaps = true;
                    break;
                }
            }
            if (!overlaps) {
                kept.add(a);
            }
        }
        kept.sort(Comparator.comparingInt(a -> a.start));
        return kept;
    }

    private Accepted acceptName(String text, Raw raw, Entry entry) {
        int s = raw.start();
        int e = raw.end();
        String written = text.substring(s, e);
        if (!boundaryBefore(text, s) || s > 0 && text.charAt(s - 1) == '$') {
            return null; // $SMR is a ticker, not the term
        }
        int after = afterSuffix(text, e, entry.plural(), entry.canonical());
        if (after < 0) {
            return null;
        }
        if (entry.ordinary() && after < text.length() && text.charAt(after) == '-' ) {
            return null; // "Micron-scale", "Extreme-ultraviolet"
        }
        switch (entry.caseRule()) {
            case EXACT -> {
                if (!written.equals(entry.canonical())) {
                    return null;
                }
            }
            case INITIALS -> {
                if (!initialsMatch(written, entry.canonical())) {
                    return null;
                }
            }
            case ANY -> {
            }
        }
        if (entry.kind() == Kind.COMPANY && unique(companiesByName.get(norm(entry.canonical()))) == null
                && companiesByName.containsKey(norm(entry.canonical()))) {
            return null; // a name two companies share names neither
        }
        boolean deferred = false;
        double confidence = entry.confidence();
        if (entry.ordinary() && !entry.canonical().contains(" ") && sentenceStart(text, s)) {
            confidence = 0.7;
            deferred = !clauseCue(text, e, after);
        }
        if (entry.kind() == Kind.TERM && entry.rule().equals("term-alias")
                && CORROBORATED_TERM_ALIASES.contains(fold(entry.canonical()))) {
            deferred = true;
        }
        return new Accepted(entry, s, e, entry.rule(), confidence, deferred, null);
    }

    private Accepted acceptTicker(String text, Raw raw, Entry entry) {
        int s = raw.start();
        int e = raw.end();
        String written = text.substring(s, e);
        if (!written.equals(entry.canonical())) {
            return null; // tickers are case-sensitive
        }
        if (!boundaryBefore(text, s) && !(s > 0 && text.charAt(s - 1) == '$')) {
            return null;
        }
        if (afterSuffix(text, e, false, entry.canonical()) < 0) {
            return null;
        }
        Listing l = entry.listing();
        boolean numeric = entry.canonical().chars().allMatch(Character::isDigit);
        boolean suffixed = entry.rule().equals("ticker-suffixed");

        // $ANET
        if (s > 0 && text.charAt(s - 1) == '$' && (s < 2 || !isJoiner(text.charAt(s - 2)))) {
            if (numeric || !resolves(entry, null, written)) {
                return null;
            }
            return new Accepted(entry, s - 1, e, "ticker-cashtag", 0.95, false, written);
        }
        // NASDAQ: ON, (NYSE: ANET), (TWSE: 2330)
        Matcher m = EXCHANGE_BEFORE.matcher(text.substring(Math.max(0, s - 16), s));
        if (m.find()) {
            String mic = EXCHANGES.get(m.group(1).toUpperCase(Locale.ROOT));
            if (mic != null) {
                if (!resolves(entry, mic, written)) {
                    return null;
                }
                int from = s - (m.end() - m.start());
                return new Accepted(entry, from, e, "ticker-exchange", 0.95, false, written);
            }
        }
        // 2345.TW, AI.PA
        if (suffixed) {
            return resolves(entry, null, written)
                    ? new Accepted(entry, s, e, "ticker-suffixed", 0.95, false, written) : null;
        }
        // (ANET), (AMD, NVDA)
        int[] group = bracket(text, s, e);
        if (group != null && TICKER_LIST.matcher(text.substring(group[0] + 1, group[1])).matches()) {
            if (numeric || written.length() < 2 || !resolves(entry, null, written)) {
                return null; // a bare number or letter in brackets is a year, a count or an enumeration
            }
            if (STOP_SYMBOLS.contains(written) && spellsInitials(text, group[0], written)) {
                return null; // "artificial intelligence (AI)" defines an abbreviation
            }
            return new Accepted(entry, s, e, "ticker-parenthesised", 0.95, false, written);
        }
        // ANET in prose
        if (numeric || written.length() < 3 || !written.chars().allMatch(c -> c >= 'A' && c <= 'Z')
                || STOP_SYMBOLS.contains(written) || !US_MICS.contains(l.getMic())
                || nameOwners.containsKey(fold(written)) && !ownedOnlyBy(fold(written), entry.id())) {
            return null;
        }
        if (!resolves(entry, null, written)) {
            return null;
        }
        return new Accepted(entry, s, e, "ticker-in-prose", 0.8, false, written);
    }

    private boolean ownedOnlyBy(String key, String companyId) {
        Set<String> owners = nameOwners.get(key);
        return owners != null && owners.size() == 1 && owners.contains("COMPANY:" + companyId);
    }

    /**
     * Whether this entry is the listing the symbol means: on the given exchange if one was written,
     * else the one listing with that display symbol, else the one listing with that local symbol.
     */
    private boolean resolves(Entry entry, String mic, String symbol) {
        Listing l = entry.listing();
        if (mic != null) {
            Listing onExchange = listingsByMicSymbol.get(mic + ":" + symbol);
            if (onExchange != null) {
                return onExchange == l;
            }
            // Exchange not matching any listing: fall back to the symbol alone, if it is not a number.
            if (symbol.chars().allMatch(Character::isDigit)) {
                return false;
            }
        }
        List<Listing> byDisplay = listingsByDisplay.getOrDefault(symbol, List.of());
        if (!byDisplay.isEmpty()) {
            return byDisplay.size() == 1 && byDisplay.get(0) == l;
        }
        return unique(companiesBySymbol.get(symbol)) != null && l.getSymbol().equals(symbol);
    }

    // ------------------------------------------------------------------------------ declared

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
        companyAcc(acc, id).add(1.0, true, evidence("declared-company", "metadata", -1, -1, text));
    }

    private CompanyAcc companyAcc(Map<String, CompanyAcc> acc, String id) {
        Company c = companies.get(id);
        CompanyAcc existing = acc.get(id);
        if (existing != null) {
            return existing;
        }
        // Whichever listing the text named (TSM, 2330.TW), the tag names the company by its canonical
        // listing, so one company always carries one symbol (CompanyDirectory); the evidence keeps what
        // the text wrote.
        Listing listing = CompanyDirectory.canonicalListing(c).orElse(null);
        CompanyAcc a = new CompanyAcc(id, c.getName(), listing == null ? "" : listing.getDisplaySymbol(),
                listing == null ? "" : listing.getMic());
        a.primaryLayer = c.getPrimaryLayer();
        acc.put(id, a);
        return a;
    }

    private TermAcc termAcc(Map<String, TermAcc> acc, String slug) {
        TermUpdate t = terms.get(slug);
        return acc.computeIfAbsent(slug, k -> new TermAcc(k, t == null ? k : t.getTitle(),
                t == null ? "" : t.getDefinition()));
    }

    private void tagDeclaredLayer(String hint, Map<String, LayerAcc> acc) {
        if (hint == null || hint.isBlank()) {
            return;
        }
        String id = layers.containsKey(hint) ? hint : unique(layersByName.get(norm(hint)));
        if (id == null) {
            for (PayloadEmit<List<Entry>> e : folded.parseText(hint)) {
                for (Entry entry : e.getPayload()) {
                    if (entry.kind() == Kind.LAYER) {
                        id = entry.id();
                        break;
                    }
                }
                if (id != null) {
                    break;
                }
            }
        }
        if (id != null) {
            layerAcc(acc, id).add(1.0, true, evidence("declared-layer", "metadata", -1, -1, hint));
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

    /** The declared layers of terms found in the text (not merely declared as related). */
    private void tagLayersOfTerms(Map<String, TermAcc> termTags, Map<String, LayerAcc> acc) {
        Map<String, List<TermAcc>> byLayer = new LinkedHashMap<>();
        for (TermAcc t : termTags.values()) {
            TermUpdate term = terms.get(t.slug);
            if (!t.foundInText || term == null || term.getLayerHint() == null) {
                continue;
            }
            String layer = layers.containsKey(term.getLayerHint()) ? term.getLayerHint()
                    : unique(layersByName.get(norm(term.getLayerHint())));
            if (layer != null) {
                byLayer.computeIfAbsent(layer, k -> new ArrayList<>()).add(t);
            }
        }
        byLayer.forEach((layerId, ts) -> {
            LayerAcc a = layerAcc(acc, layerId);
            double confidence = Math.min(0.8, 0.5 + 0.1 * ts.size());
            for (TermAcc t : ts) {
                a.add(confidence, false, evidence("term-layer", "metadata", -1, -1, t.title + " -> " + layerId));
            }
        });
    }

    private LayerAcc layerAcc(Map<String, LayerAcc> acc, String id) {
        return acc.computeIfAbsent(id, k -> new LayerAcc(k, layers.get(k).getName()));
    }

    private static Evidence evidence(String rule, String field, int start, int end, String text) {
        return new Evidence(rule, field, start, end, text); // the all-fields constructor: no builder copies per hit
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

    /** Lower-cases char by char, as the trie does with text, so offsets line up. */
    private static String fold(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            b.append(Character.toLowerCase(s.charAt(i)));
        }
        return b.toString();
    }
}
