package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.chainfeed.api.reads.ReadViews;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * What the reads index knows about names, refreshed from the index in the background once
 * older than {@link #TTL} (searches never wait for a refresh, only for the first load):
 * the glossary terms (slug, title, aliases), the companies (symbol, name) and the chain
 * layers (id, name) that reads are tagged with. It feeds two things:
 *
 * <ul>
 * <li><b>Synonyms drawn from the corpus.</b> Every name of a term (its title and its
 * aliases: acronym, expansion, other spellings) is a synonym of the others; a query that
 * contains one name also matches every other name, as a phrase. This is the query-time
 * equivalent of a {@code synonym_graph} filter, kept in the API rather than in index
 * settings because the names come from the reads themselves: a new or edited term changes
 * the synonyms shortly after {@link #TTL}, without closing the index to update its
 * analysis settings.</li>
 * <li>The terms, read counts per company and layer, for autocomplete
 * ({@link Suggester}).</li>
 * </ul>
 */
@Component
public class SearchCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(SearchCatalog.class);
    static final Duration TTL = Duration.ofSeconds(30);

    private static final int MAX_NAME_WORDS = 8;

    /**
     * A glossary term's names, and the terms its source declares related.
     *
     * @param slug its slug
     * @param title its title
     * @param aliases its aliases
     * @param related the slugs of the terms its source declares related (term tags with
     * {@code declared-related} evidence), in order
     */
    public record TermNames(String slug, String title, List<String> aliases, List<String> related) {
        /** A term without related terms. */
        public TermNames(String slug, String title, List<String> aliases) {
            this(slug, title, aliases, List.of());
        }

        List<String> names() {
            List<String> all = new ArrayList<>();
            all.add(title);
            all.addAll(aliases);
            return all;
        }
    }

    /** A company as tagged on reads. */
    public record CompanyName(String symbol, String name, long reads) {
    }

    /** A chain layer as tagged on reads. */
    public record LayerName(String id, String name, long reads) {
    }

    /** One loaded state of the catalogue. */
    record Snapshot(List<TermNames> terms, List<CompanyName> companies, List<LayerName> layers,
            Map<List<String>, TermNames> byNameWords, Instant loadedAt) {
    }

    private final ElasticsearchClient client;

    private final Clock clock;

    volatile Snapshot snapshot;

    private final AtomicBoolean reloading = new AtomicBoolean();

    @Autowired
    SearchCatalog(ElasticsearchClient client) {
        this(client, Clock.systemUTC());
    }

    SearchCatalog(ElasticsearchClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** A catalogue that never reloads: for tests. */
    static SearchCatalog of(List<TermNames> terms, List<CompanyName> companies, List<LayerName> layers) {
        Instant now = Instant.now();
        SearchCatalog c = new SearchCatalog(null, Clock.fixed(now, ZoneOffset.UTC));
        c.snapshot = build(terms, companies, layers, now);
        return c;
    }

    /**
     * The loaded state. Only the very first use (or the first after {@link #invalidate})
     * waits for a load; once older than {@link #TTL}, the state is still answered while
     * one background thread reloads it, so that no search waits for the reload (two
     * searches over the whole index) and searches arriving meanwhile do not queue behind
     * it. A failed reload keeps the old state and is tried again on a later use.
     */
    Snapshot current() throws IOException {
        Snapshot s = snapshot;
        if (s != null) {
            if (!s.loadedAt().plus(TTL).isAfter(clock.instant()) && reloading.compareAndSet(false, true)) {
                Thread reload = new Thread(this::reloadInBackground, "search-catalog-reload");
                reload.setDaemon(true);
                reload.start();
            }
            return s;
        }
        synchronized (this) {
            s = snapshot;
            if (s == null) {
                snapshot = s = load();
            }
            return s;
        }
    }

    private void reloadInBackground() {
        try {
            snapshot = load();
        }
        catch (IOException | RuntimeException e) {
            LOG.warn("search catalogue reload failed; keeping the names loaded at {}",
                    snapshot == null ? null : snapshot.loadedAt(), e);
        }
        finally {
            reloading.set(false);
        }
    }

    /** Forgets the loaded state; the next use reloads it. */
    public void invalidate() {
        snapshot = null;
    }

    /**
     * @return the layers that reads are tagged with, with read counts, by name
     */
    public List<LayerName> layers() throws IOException {
        return current().layers();
    }

    private Snapshot load() throws IOException {
        SearchResponse<ReadDocument> r = client.search(s -> s.index(ReadsIndex.ALIAS)
            .query(q -> q.term(t -> t.field(ReadFields.KIND).value("term")))
            .size(2000)
            .source(src -> src.filter(f -> f.includes(ReadFields.SLUG, ReadFields.TITLE, ReadFields.ALIASES,
                    ReadFields.TERMS_SLUG, ReadFields.TERMS_EVIDENCE_RULE))),
                ReadDocument.class);
        List<TermNames> terms = new ArrayList<>();
        for (Hit<ReadDocument> hit : r.hits().hits()) {
            ReadDocument src = hit.source();
            List<String> related = ReadViews.declaredRelated(src.terms())
                .stream()
                .map(ReadDocument.TermTag::slug)
                .filter(Objects::nonNull)
                .toList();
            terms.add(new TermNames(src.slug(), src.title(), src.aliases(), related));
        }
        SearchResponse<Void> all = client.search(s -> s.index(ReadsIndex.ALIAS)
            .size(0)
            .aggregations("companies", a -> a.terms(t -> t.field(ReadFields.COMPANY_REFS).size(5000)))
            .aggregations("layers", a -> a.terms(t -> t.field(ReadFields.LAYER_REFS).size(500))), Void.class);
        List<CompanyName> companies = new ArrayList<>();
        for (StringTermsBucket b : all.aggregations().get("companies").sterms().buckets().array()) {
            String[] ref = split(b.key().stringValue());
            companies.add(new CompanyName(ref[0], ref[1], b.docCount()));
        }
        List<LayerName> layers = new ArrayList<>();
        for (StringTermsBucket b : all.aggregations().get("layers").sterms().buckets().array()) {
            String[] ref = split(b.key().stringValue());
            layers.add(new LayerName(ref[0], ref[1], b.docCount()));
        }
        layers.sort(Comparator.comparing(LayerName::name, String.CASE_INSENSITIVE_ORDER));
        return build(terms, companies, layers, clock.instant());
    }

    /**
     * @return {@code [id, label]} of an {@code id|label} ref
     */
    static String[] split(String ref) {
        int bar = ref.indexOf('|');
        return bar < 0 ? new String[] { ref, ref } : new String[] { ref.substring(0, bar), ref.substring(bar + 1) };
    }

    static Snapshot build(List<TermNames> terms, List<CompanyName> companies, List<LayerName> layers, Instant at) {
        Map<List<String>, TermNames> byName = new HashMap<>();
        for (TermNames t : terms) {
            for (String name : t.names()) {
                List<String> words = singular(QueryText.words(name));
                if (!words.isEmpty() && words.size() <= MAX_NAME_WORDS) {
                    // A name shared by two terms is ambiguous: it is no synonym of
                    // either.
                    byName.merge(words, t, (a, b) -> a.slug().equals(b.slug()) ? a : AMBIGUOUS);
                }
            }
        }
        byName.values().removeIf(t -> t == AMBIGUOUS);
        return new Snapshot(List.copyOf(terms), List.copyOf(companies), List.copyOf(layers), Map.copyOf(byName), at);
    }

    private static final TermNames AMBIGUOUS = new TermNames("", "", List.of());

    /**
     * A run of the query's words that is a name of a term, or an entry of a line of
     * {@link #SYNONYMS_RESOURCE}.
     *
     * @param from first group index
     * @param to one past the last group index
     * @param term the term; {@code null} for a line of the synonyms file
     * @param names every name of the term (title first), or every entry of the line: the
     * synonyms
     */
    public record NameMatch(int from, int to, TermNames term, List<String> names) {
    }

    /**
     * Finds, left to right and longest first, the runs of single-word groups of the query
     * that spell a term's name or an entry of {@link #SYNONYMS_RESOURCE} (case,
     * punctuation, spacing and a plural s ignored; a term's name wins over a synonym of
     * the same length).
     */
    public List<NameMatch> names(QueryText query) throws IOException {
        Map<List<String>, TermNames> byName = current().byNameWords();
        List<NameMatch> out = new ArrayList<>();
        List<List<QueryText.Piece>> groups = query.groups();
        int i = 0;
        while (i < groups.size()) {
            NameMatch best = null;
            List<String> words = new ArrayList<>();
            for (int j = i; j < groups.size() && j - i < MAX_NAME_WORDS; j++) {
                List<QueryText.Piece> g = groups.get(j);
                if (g.size() != 1 || g.get(0).phrase()) {
                    break;
                }
                words.addAll(singular(g.get(0).words()));
                TermNames t = byName.get(words);
                List<String> same = SYNONYMS.get(words);
                if (t != null) {
                    best = new NameMatch(i, j + 1, t, distinctNames(t));
                }
                else if (same != null) {
                    best = new NameMatch(i, j + 1, null, same);
                }
            }
            if (best != null) {
                out.add(best);
                i = best.to();
            }
            else {
                i++;
            }
        }
        return out;
    }

    /**
     * @return the term whose name the whole text is, if any
     */
    public TermNames termNamed(String text) throws IOException {
        return current().byNameWords().get(singular(QueryText.words(text)));
    }

    /** Words ending in s that are not plurals. */
    static final Set<String> NOT_PLURAL = Set.of("status", "campus", "corpus", "focus", "bonus", "virus", "plus",
            "minus", "thus", "census", "consensus", "series", "species", "news", "physics", "economics", "always");

    /** The market vocabulary's synonyms, a classpath resource. */
    static final String SYNONYMS_RESOURCE = "/search/synonyms.txt";

    /**
     * Each entry of {@link #SYNONYMS_RESOURCE}, as its {@link #singular} words, to the
     * entries of its line.
     */
    static final Map<List<String>, List<String>> SYNONYMS = loadSynonyms();

    private static Map<List<String>, List<String>> loadSynonyms() {
        try (InputStream in = SearchCatalog.class.getResourceAsStream(SYNONYMS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SYNONYMS_RESOURCE + " is not on the class path");
            }
            return parseSynonyms(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the equivalence lines of the Solr synonyms format (the format of
     * Elasticsearch's {@code synonym_graph} filter: entries separated by commas, one
     * group a line, {@code #} to the end of a line a comment). Explicit mappings
     * ({@code a => b}) are refused: every entry of a line is a synonym of the others.
     * @param lines the file's lines
     * @return each entry's {@link #singular} words to the entries of its line (as
     * written)
     * @throws IllegalArgumentException on a mapping, a line of one entry, an entry
     * without words or one that stands on two lines, with the line's number
     */
    static Map<List<String>, List<String>> parseSynonyms(List<String> lines) {
        Map<List<String>, List<String>> out = new HashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            int hash = line.indexOf('#');
            String text = (hash < 0 ? line : line.substring(0, hash)).strip();
            if (text.isEmpty()) {
                continue;
            }
            if (text.contains("=>")) {
                throw new IllegalArgumentException(
                        "synonyms line " + (n + 1) + ": explicit mappings (=>) are not read");
            }
            List<String> entries = Arrays.stream(text.split(",")).map(String::strip).toList();
            if (entries.size() < 2) {
                throw new IllegalArgumentException("synonyms line " + (n + 1) + ": a group needs two entries or more");
            }
            for (String entry : entries) {
                List<String> words = singular(QueryText.words(entry));
                if (words.isEmpty()) {
                    throw new IllegalArgumentException("synonyms line " + (n + 1) + ": an entry without words");
                }
                if (out.put(words, entries) != null) {
                    throw new IllegalArgumentException(
                            "synonyms line " + (n + 1) + ": '" + entry + "' stands on another line too");
                }
            }
        }
        return Map.copyOf(out);
    }

    /**
     * Names are matched without their plural s ("contract manufacturers" is the name
     * "contract manufacturer"): a word of four letters or more ending in s, but not in ss
     * or is and not one of {@link #NOT_PLURAL}, loses that s. Both the names and the
     * query's words go through it, so a word that merely ends in s ("CoWoS") still meets
     * itself.
     * @param words lower-cased words ({@link QueryText#words})
     * @return the same words, plurals made singular
     */
    static List<String> singular(List<String> words) {
        List<String> out = new ArrayList<>(words.size());
        for (String w : words) {
            boolean plural = w.length() >= 4 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("is")
                    && !NOT_PLURAL.contains(w);
            out.add(plural ? w.substring(0, w.length() - 1) : w);
        }
        return out;
    }

    private static List<String> distinctNames(TermNames t) {
        Map<List<String>, String> byWords = new LinkedHashMap<>();
        for (String n : t.names()) {
            byWords.putIfAbsent(QueryText.words(n), n);
        }
        return List.copyOf(byWords.values());
    }

    /**
     * @return the companies reads are tagged with (canonical symbol, name), with read
     * counts
     */
    public List<CompanyName> companies() throws IOException {
        return current().companies();
    }

}
