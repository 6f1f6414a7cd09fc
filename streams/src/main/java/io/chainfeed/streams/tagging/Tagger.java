package io.chainfeed.streams.tagging;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.TermUpdate;
import java.util.Collection;
import java.util.List;
import org.ahocorasick.trie.PayloadTrie;

/**
 * Tags a term update (or anything shaped like one, such as a signal) with companies,
 * glossary terms and chain layers, each tag with its evidence and a confidence, and turns
 * it into a {@link Read}. Immutable and thread-safe; build a new one when reference data
 * changes (the tagging topology does so without a restart).
 *
 * <h2>How text is matched</h2> Every company name and alias, every term title and alias
 * and every layer name and alias goes into a case-folded Aho-Corasick dictionary, and
 * every listing symbol, display symbol and acronym into a case-sensitive one
 * ({@code org.ahocorasick} {@link PayloadTrie}); each field of the read is scanned once
 * by each, and every hit is then checked against the rules below. The library's own
 * {@code onlyWholeWords} is not used: it only looks at {@link Character#isAlphabetic}
 * neighbours, so it accepts {@code HBM} inside {@code HBM3E} and {@code AT} inside
 * {@code AT&T}, and rejects {@code 台積電} inside {@code 台積電的}.
 *
 * <h2>Rules</h2>
 * <ul>
 * <li><b>Word boundaries.</b> A hit must not touch a letter or digit on either side
 * ({@link Character#isLetterOrDigit}); {@code _}, a {@code .} or {@code &} between two
 * letters or digits ({@code nvidia.com}, {@code AT&T}) join words too. Where the hit and
 * its neighbour are in different scripts and one of them is Han, kana or Hangul, the
 * script change is the boundary ({@code 台積電的}, {@code 삼성전자는}, {@code TSMC는}).</li>
 * <li><b>Possessives and plurals.</b> {@code 's}, {@code ’s} and a bare apostrophe after
 * an {@code s} are accepted after any name or ticker ({@code Nvidia's}, {@code Nvidia’s},
 * {@code Siemens'}); plurals ({@code s}, {@code es}) after term and layer names
 * ({@code GPUs}, {@code hyperscalers}) and after distinctive company names, never after a
 * ticker or an ordinary-word name.</li>
 * <li><b>Case.</b> Names are case-insensitive ({@code NVIDIA}, {@code Nvidia},
 * {@code nvidia}), except: acronyms (no lower-case letter and at most three characters,
 * {@code ASE}, {@code GF}, {@code HBM}, {@code K&S}, or longer ones that are also English
 * words, {@link TaggerWords#ACRONYM_WORDS}: {@code DRAM}, {@code FLOPS}) must be written
 * exactly, while longer acronyms ({@code TSMC}, {@code RDMA}) are matched in any case;
 * names that are or start with an ordinary English word
 * ({@link TaggerWords#ORDINARY_WORDS}: {@code Micron}, {@code Coherent}, {@code Arm},
 * {@code Applied Materials}, {@code Palo Alto}) must be written with the capital initials
 * of the name (all capitals too, unless that spelling is a stop-listed ticker such as
 * {@code ARM}). Tickers are always case-sensitive.</li>
 * <li><b>Ordinary-word names at the start of a sentence</b> ({@code Coherent optics ...})
 * count only when what follows reads like a clause about a company (a possessive, a
 * punctuation mark, a capitalised word, a verb from {@link TaggerWords#CLAUSE_CUES} or a
 * word ending in -ed) or the same company is found elsewhere in the read by another
 * rule.</li>
 * <li><b>Tickers in explicit context</b> (0.95): a cashtag {@code $ANET}; a parenthesised
 * symbol or list {@code (ANET)}, {@code (NASDAQ: ANET)},
 * {@code (NYSE: HPE; NASDAQ: NVDA)}; an exchange prefix {@code NASDAQ: ON},
 * {@code TWSE: 2330}; a suffixed listing {@code 2345.TW}, {@code AI.PA}. With an
 * exchange, the symbol resolves on that exchange's MIC. A bare number ({@code 2345}) is
 * never a ticker, not even in brackets without an exchange; a bracketed stop-listed
 * symbol that spells the initials of the words before it ({@code artificial
 *       intelligence (AI)}) is an abbreviation, not a ticker.</li>
 * <li><b>Tickers in prose</b> (0.8): only the symbol of a US listing (XNAS, XNYS), at
 * least three letters, written in capitals, not on the {@link TaggerWords#STOP_SYMBOLS}
 * list of common words and acronyms, and not also a name or alias of anything else in the
 * dictionary ({@code SMR} is a term). Everything else ({@code ON}, {@code IT},
 * {@code NOW}, {@code ARM}, {@code D}) needs explicit context, or the company's name
 * ({@code ON Semiconductor}).</li>
 * <li><b>Ambiguity.</b> A name or alias shared by two companies tags nothing; a symbol
 * shared by two listings resolves by display symbol first, then by exchange, else tags
 * nothing. Overlapping hits of one entity type keep the longest
 * ({@code Samsung Electro-Mechanics} is not also {@code Samsung}; {@code Quanta Services}
 * is not {@code Quanta}).</li>
 * <li><b>Once per entity.</b> A company (term, layer) reached by several aliases, tickers
 * or fields is one tag holding every piece of evidence; its confidence is the highest of
 * its evidence.</li>
 * </ul>
 *
 * <h2>Rules and confidences</h2> In full in {@link TagRule}. Companies:
 * {@code declared-company} 1.0; {@code ticker-cashtag}, {@code ticker-exchange},
 * {@code ticker-parenthesised}, {@code ticker-suffixed} 0.95; {@code company-name},
 * {@code company-alias} 0.9 (0.85 for acronyms, 0.8 for ordinary-word names, 0.7 for
 * those at the start of a sentence); {@code ticker-in-prose} 0.8;
 * {@code declared-company-unresolved} 0.5. Terms: {@code declared-related} 1.0;
 * {@code term-title} 0.9; {@code term-alias} 0.85; a title or alias that is a generic
 * word ({@link TaggerWords#GENERIC_TERM_WORDS}: training, yield, wafer ...) 0.6, and a
 * generic-word alias ({@code resist}, {@code etch}) only when the term is also found by
 * another name. A term never tags itself. Layers: {@code declared-layer} 1.0;
 * {@code layer-name}, {@code layer-alias} 0.7; {@code company-primary-layer} 0.5 + 0.1
 * per tagged company on it (at most 0.9); {@code term-layer}, the declared layer of terms
 * found in the text, 0.5 + 0.1 per term (at most 0.8).
 *
 * <h2>Primary subjects</h2> A company or term is a primary subject of the read when the
 * source declares it, when it is found in the title or the definition (a signal's
 * headline and summary), or when the body names it at least three times; everything else
 * is a passing mention.
 *
 * <p>
 * A layer is a primary layer of the read when the source declares it, when the title
 * names it, or, for a read whose source declares no layer, when the definition names it.
 * Layers inferred from a tagged company ({@code company-primary-layer}) or term
 * ({@code term-layer}), and layers named only in the body, or in the definition of a read
 * that declares its layer, are passing: the RDMA term declares the network fabric, and
 * the companies it names (Oracle, HPE, NVIDIA ...) add cloud, servers and accelerators as
 * passing layers only; EUV lithography names memory makers, which does not make it a read
 * about memory.
 *
 * <p>
 * Tags are ordered primary first, then by confidence, then in the order the source gave
 * or mentioned them, so the output is deterministic.
 *
 * <h2>Parts</h2> {@link TagDictionary} holds the reference data and its two tries,
 * {@link TextMatcher} applies the matching rules to one field, {@link ReadAssembler}
 * gathers the tags of one read ({@link TagAccumulators}) and decides what is primary;
 * {@link TagRule} names every rule with its confidence. The word lists are in
 * {@link TaggerWords} (text files), the boundary and suffix checks in
 * {@link TextBoundaries}.
 */
public final class Tagger {

    /** The field name of a read's title in evidence. */
    static final String TITLE = "title";

    /** The field name of a read's definition (a signal's first sentence) in evidence. */
    static final String DEFINITION = "definition";

    private final TagDictionary dictionary;

    private final TextMatcher matcher;

    private Tagger(TagDictionary dictionary) {
        this.dictionary = dictionary;
        this.matcher = new TextMatcher(dictionary);
    }

    /**
     * Builds a tagger over reference data without glossary terms.
     * @param layers chain layers (id, name, aliases)
     * @param companies companies (names, aliases, listings, layers)
     * @return an immutable tagger
     */
    public static Tagger build(Collection<ChainLayer> layers, Collection<Company> companies) {
        return build(layers, companies, List.of());
    }

    /**
     * Builds a tagger over reference data, glossary terms included.
     * @param layers chain layers (id, name, aliases)
     * @param companies companies (names, aliases, listings, layers)
     * @param terms glossary terms (slug, title, aliases, definition, declared layer)
     * @return an immutable tagger
     */
    public static Tagger build(Collection<ChainLayer> layers, Collection<Company> companies,
            Collection<TermUpdate> terms) {
        return new Tagger(new TagDictionary(layers, companies, terms));
    }

    /**
     * @return a hash of everything the dictionary was built from (layers, companies, and
     * each term's slug, title, aliases, definition and layer), so callers can tell
     * whether a rebuild changed it
     */
    public long signature() {
        return dictionary.signature();
    }

    /**
     * Runs only the dictionary scan over a text, with none of the rules: the baseline the
     * benchmark compares {@link #tag(TermUpdate)} with.
     * @param text any text
     * @return how many raw dictionary hits the scan produced
     */
    public int scan(String text) {
        return dictionary.scan(text, raw -> {
        });
    }

    /**
     * Tags a term and returns its read: id {@code term:<slug>}, kind TERM, the term's
     * text, sources, disclaimer and version, with layer, company and term tags (each list
     * primary first, then by confidence).
     * @param term a term update, not null
     * @return the tagged read
     */
    public Read tag(TermUpdate term) {
        return new ReadAssembler(dictionary, matcher).assemble(term);
    }

    /**
     * @return the read id of a term slug: {@code term:<slug>}
     */
    public static String readId(String slug) {
        return "term:" + slug;
    }

}
