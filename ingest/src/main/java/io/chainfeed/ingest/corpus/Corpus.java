package io.chainfeed.ingest.corpus;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.chain.reference.ChainReference;
import io.chainfeed.chain.reference.CorpusException;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.reference.ReferenceData;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The project's own research corpus: the chain layers, the companies with their listings,
 * and the glossary terms, read from the classpath ({@link #loadBundled()}) or from a
 * directory ({@link #load(Path)}) with the same layout:
 *
 * <pre>
 * layers.yaml        layers: [{id, name, aliases, summary, upstream, segments: [{id, share}]}]
 * companies.yaml     companies: [{id, name, aliases, listings: [{symbol, mic, display}], primaryLayer, layers}]
 * terms/&lt;slug&gt;.md    YAML front matter (slug, title, aliases, definition, layer, companies, related,
 *                    sources, disclaimer) between '---' lines, then '## What it means' and
 *                    '## Why it matters to investors' sections
 * </pre>
 *
 * <p>
 * Loading checks every field and every reference: ids and slugs are slugs and unique, a
 * term's {@code slug} equals its file name, layer ids ({@code upstream},
 * {@code primaryLayer}, {@code layers}, a term's {@code layer}) exist, the upstream edges
 * have no cycle, display symbols are unique, a term's {@code companies} are display
 * symbols of listed companies and its {@code related} are slugs of other terms, and
 * sources carry absolute http(s) URLs. The first problem found raises a
 * {@link CorpusException} naming the file and field.
 *
 * <p>
 * Versions: the {@code version} of every {@link ChainLayer} and {@link Company} is left
 * at 0 and terms carry none; the publisher stamps versions when it writes them to Kafka
 * (for terms, via {@link TermContent#toTermUpdate}).
 *
 * <p>
 * Instances are immutable and safe to share between threads. {@link CorpusLoader} reads
 * the files and {@link CorpusParser} checks them; this class is the checked value. The
 * layers and companies are the chain's reference data, read and checked by
 * {@link ChainReference} (module chain-model, which bundles the files); this class adds
 * the glossary terms.
 */
public final class Corpus {

    /** The {@code origin} of every term read from a corpus. */
    public static final String ORIGIN = "corpus";

    /** Classpath folder of the bundled corpus. */
    public static final String BUNDLED_LOCATION = "corpus";

    private final ChainReference reference;

    private final List<TermContent> terms;

    private final Map<String, TermContent> termsBySlug;

    private final ReferenceData referenceData;

    /** Only {@link CorpusParser} makes one, from checked parts. */
    Corpus(ChainReference reference, List<TermContent> terms) {
        this.reference = reference;
        this.terms = List.copyOf(terms);
        Map<String, TermContent> bySlug = new LinkedHashMap<>();
        terms.forEach(t -> bySlug.put(t.slug(), t));
        this.termsBySlug = Map.copyOf(bySlug);
        this.referenceData = new ReferenceData(reference.layers(), reference.companies(),
                this.terms.stream().map(t -> new ReferenceData.KnownTerm(t.slug(), t.title(), t.aliases())).toList());
    }

    /**
     * Loads the corpus bundled in this module, from {@code corpus/} on the classpath (a
     * directory in development, the jar when packaged). Each call reads and checks the
     * files again; callers that need it often should keep the result.
     * @return the bundled corpus
     * @throws CorpusException if a file is missing, unreadable or inconsistent
     */
    public static Corpus loadBundled() {
        return CorpusLoader.loadBundled();
    }

    /**
     * Loads a corpus from a directory with the bundled layout: {@code layers.yaml},
     * {@code companies.yaml} and {@code terms/*.md} (other files in {@code terms/} are
     * ignored).
     * @param dir the corpus directory
     * @return the corpus
     * @throws CorpusException if a file is missing, unreadable or inconsistent; its
     * {@link CorpusException#file()} is the path of the file at fault
     */
    public static Corpus load(Path dir) {
        return CorpusLoader.load(dir);
    }

    /**
     * @return the chain's reference data (layers with their segments, companies)
     */
    public ChainReference reference() {
        return reference;
    }

    /**
     * @return the chain layers in file order (upstream first)
     */
    public List<ChainLayer> layers() {
        return reference.layers();
    }

    /**
     * @return the companies in file order
     */
    public List<Company> companies() {
        return reference.companies();
    }

    /**
     * @return the glossary terms ordered by slug, with origin {@value #ORIGIN}, sections
     * keyed {@code what_it_means} and {@code why_it_matters} (plus any further sections),
     * the layer id as layer hint, companies as (name, display symbol) and related terms
     * as (slug, title, definition)
     */
    public List<TermContent> terms() {
        return terms;
    }

    /**
     * @param id a layer id such as {@code network-fabric}
     * @return the layer, if the corpus has it
     */
    public Optional<ChainLayer> layer(String id) {
        return reference.layer(id);
    }

    /**
     * @param displaySymbol a display symbol such as {@code ANET} or {@code 2345.TW}
     * (exact match)
     * @return the company listed under it, if any
     */
    public Optional<Company> companyByDisplaySymbol(String displaySymbol) {
        return reference.companyByDisplaySymbol(displaySymbol);
    }

    /**
     * @param slug a term slug such as {@code rdma}
     * @return the term, if the corpus has it
     */
    public Optional<TermContent> term(String slug) {
        return Optional.ofNullable(termsBySlug.get(slug));
    }

    /**
     * @return the layers, companies and terms (slug, title, aliases) as parser reference
     * data
     */
    public ReferenceData referenceData() {
        return referenceData;
    }

}
