package io.chainfeed.ingest.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.chain.reference.CorpusException;
import io.chainfeed.chain.reference.LayerGraph;
import io.chainfeed.ingest.Slugs;
import io.chainfeed.ingest.TermContent;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the bundled corpus (content and references) and the loader's error reporting.
 *
 * <p>
 * <b>Advice-language rule.</b> The definition and every section (heading and body) of
 * every term must not contain, as whole words and ignoring case: the rating vocabulary
 * ({@code strong buy}, {@code price target(s)}, {@code outperform*},
 * {@code underperform*}, {@code overweight}, {@code underweight}, {@code upgrade*},
 * {@code downgrade*}, {@code rating(s)}) or the bare trading verbs {@code buy},
 * {@code buys}, {@code buying}, {@code sell}, {@code sells}, {@code selling} and
 * {@code hold}. The rule is deliberately broader than "advice" so that it needs no
 * judgement: the corpus is written without these words at all ("TSMC makes wafers for its
 * customers", not "TSMC sells wafers"; "grid reinforcement", not "grid upgrades"). Nouns
 * for market participants ({@code buyers}, {@code sellers}) and
 * {@code holds}/{@code holding} are allowed. The disclaimer is exempt: it has to name
 * what it disclaims.
 */
class CorpusTest {

    /** See the class comment. */
    static final Pattern ADVICE = Pattern
        .compile("\\b(strong buy|buy|buys|buying|sell|sells|selling|hold|price targets?|outperform\\w*|underperform\\w*"
                + "|overweight|underweight|upgrade\\w*|downgrade\\w*|ratings?)\\b", Pattern.CASE_INSENSITIVE);

    /** Exchange-local symbol format and display suffix per ISO 10383 MIC. */
    record Exchange(Pattern symbol, String displaySuffix) {
        static Exchange of(String regex, String suffix) {
            return new Exchange(Pattern.compile(regex), suffix);
        }
    }

    static final Map<String, Exchange> EXCHANGES = Map.ofEntries(
            Map.entry("XNAS", Exchange.of("[A-Z]{1,5}(\\.[A-Z])?", "")), // Nasdaq
            // New York Stock Exchange
            Map.entry("XNYS", Exchange.of("[A-Z]{1,5}(\\.[A-Z])?", "")),
            Map.entry("XTAI", Exchange.of("\\d{4}", ".TW")), // Taiwan Stock Exchange
            Map.entry("ROCO", Exchange.of("\\d{4}", ".TWO")), // Taipei Exchange (TPEx)
            Map.entry("XKRX", Exchange.of("\\d{6}", ".KS")), // Korea Exchange (KOSPI)
            // Tokyo; 2024+ codes may end in a letter (285A)
            Map.entry("XTKS", Exchange.of("\\d{3}[0-9A-Z]", ".T")), Map.entry("XHKG", Exchange.of("\\d{4,5}", ".HK")), // Hong
                                                                                                                       // Kong
            // Shanghai (main board and STAR)
            Map.entry("XSHG", Exchange.of("6\\d{5}", ".SS")),
            // Shenzhen (main board and ChiNext)
            Map.entry("XSHE", Exchange.of("[03]\\d{5}", ".SZ")), Map.entry("XAMS", Exchange.of("[A-Z]{2,6}", ".AS")), // Euronext
                                                                                                                      // Amsterdam
            Map.entry("XPAR", Exchange.of("[A-Z]{2,6}", ".PA")), // Euronext Paris
            Map.entry("XMIL", Exchange.of("[A-Z]{2,6}", ".MI")), // Euronext Milan
            Map.entry("XETR", Exchange.of("[A-Z][A-Z0-9]{1,4}", ".DE")), // Xetra
            Map.entry("XSWX", Exchange.of("[A-Z]{2,6}", ".SW")), // SIX Swiss Exchange
            Map.entry("XHEL", Exchange.of("[A-Z]{2,8}", ".HE")), // Nasdaq Helsinki
            // Toronto Stock Exchange
            Map.entry("XTSE", Exchange.of("[A-Z]{1,5}(\\.[A-Z])?", ".TO")),
            Map.entry("XASX", Exchange.of("[A-Z0-9]{3}", ".AX"))); // ASX

    private static Corpus corpus;

    @BeforeAll
    static void loadBundled() {
        corpus = Corpus.loadBundled();
    }

    // ------------------------------------------------------------------------ content

    @Test
    void bundledCorpusIsBigEnough() {
        assertThat(corpus.layers()).hasSizeGreaterThanOrEqualTo(12);
        assertThat(corpus.companies()).hasSizeGreaterThanOrEqualTo(150);
        assertThat(corpus.terms()).hasSizeGreaterThanOrEqualTo(50);
    }

    @Test
    void containsWhatOtherModulesRelyOn() {
        assertThat(corpus.layer("network-fabric").orElseThrow().getAliases()).contains("fabric layer", "network fabric",
                "networking layer");
        assertThat(corpus.layer("memory").orElseThrow().getAliases()).contains("memory layer", "DRAM");
        assertListing("ANET", "Arista Networks", "ANET", "XNYS");
        assertListing("ORCL", "Oracle Corporation", "ORCL", "XNYS");
        assertListing("HPE", "Hewlett Packard Enterprise", "HPE", "XNYS");
        assertListing("2345.TW", "Accton Technology", "2345", "XTAI");

        TermContent roce = corpus.term("roce").orElseThrow();
        assertThat(roce.title()).isEqualTo("RoCE");
        assertThat(roce.aliases()).contains("RDMA over Converged Ethernet", "AI Ethernet");
        assertThat(corpus.term("hbm").orElseThrow().aliases()).contains("high-bandwidth memory");
        TermContent rdma = corpus.term("rdma").orElseThrow();
        assertThat(rdma.layerHint()).isEqualTo("network-fabric");
        assertThat(rdma.origin()).isEqualTo(Corpus.ORIGIN);
        assertThat(rdma.related()).extracting(RelatedTerm::getSlug)
            .contains("infiniband", "roce", "network-fabric", "scale-out-vs-scale-up");
    }

    private static void assertListing(String display, String name, String symbol, String mic) {
        Company company = corpus.companyByDisplaySymbol(display).orElseThrow(() -> new AssertionError(display));
        assertThat(company.getName()).isEqualTo(name);
        assertThat(company.getListings()).anySatisfy(l -> {
            assertThat(l.getSymbol()).isEqualTo(symbol);
            assertThat(l.getMic()).isEqualTo(mic);
            assertThat(l.getDisplaySymbol()).isEqualTo(display);
        });
    }

    @Test
    void idsSlugsAndDisplaySymbolsAreUniqueSlugs() {
        List<String> layerIds = corpus.layers().stream().map(ChainLayer::getId).toList();
        List<String> companyIds = corpus.companies().stream().map(Company::getId).toList();
        List<String> slugs = corpus.terms().stream().map(TermContent::slug).toList();
        for (List<String> ids : List.of(layerIds, companyIds, slugs)) {
            assertThat(ids).doesNotHaveDuplicates();
            assertThat(ids).allSatisfy(id -> assertThat(Slugs.slugify(id)).as("slug form of %s", id).isEqualTo(id));
        }
        List<String> displays = corpus.companies()
            .stream()
            .flatMap(c -> c.getListings().stream())
            .map(Listing::getDisplaySymbol)
            .toList();
        assertThat(displays).doesNotHaveDuplicates();
        assertThat(corpus.terms().stream().map(t -> t.title().toLowerCase(Locale.ROOT)).toList())
            .doesNotHaveDuplicates();
    }

    @Test
    void namesAndAliasesPointToOneThingEach() {
        assertUnambiguous("layer", corpus.layers(), ChainLayer::getId, l -> concat(l.getName(), l.getAliases()));
        assertUnambiguous("company", corpus.companies(), Company::getId, c -> concat(c.getName(), c.getAliases()));
        assertUnambiguous("term", corpus.terms(), TermContent::slug, t -> concat(t.title(), t.aliases()));
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>(rest);
        all.add(0, first);
        return all;
    }

    private static <T> void assertUnambiguous(String kind, List<T> items, Function<T, String> id,
            Function<T, List<String>> names) {
        Map<String, Set<String>> owners = new HashMap<>();
        for (T item : items) {
            for (String name : names.apply(item)) {
                owners.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new HashSet<>()).add(id.apply(item));
            }
        }
        Map<String, Set<String>> clashes = owners.entrySet()
            .stream()
            .filter(e -> e.getValue().size() > 1)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertThat(clashes).as("%s names or aliases shared by more than one %s", kind, kind).isEmpty();
    }

    @Test
    void everyReferenceResolves() {
        Set<String> layerIds = corpus.layers().stream().map(ChainLayer::getId).collect(Collectors.toSet());
        Set<String> displays = corpus.companies()
            .stream()
            .flatMap(c -> c.getListings().stream())
            .map(Listing::getDisplaySymbol)
            .collect(Collectors.toSet());
        Map<String, TermContent> bySlug = corpus.terms().stream().collect(Collectors.toMap(TermContent::slug, t -> t));

        for (ChainLayer layer : corpus.layers()) {
            assertThat(layer.getUpstream()).as("upstream of %s", layer.getId())
                .isSubsetOf(layerIds)
                .doesNotContain(layer.getId());
        }
        for (Company company : corpus.companies()) {
            assertThat(layerIds).as("primaryLayer of %s", company.getId()).contains(company.getPrimaryLayer());
            assertThat(company.getLayers()).as("layers of %s", company.getId())
                .isSubsetOf(layerIds)
                .doesNotContain(company.getPrimaryLayer());
            assertThat(company.getListings()).as("listings of %s", company.getId()).isNotEmpty();
        }
        for (TermContent term : corpus.terms()) {
            assertThat(layerIds).as("layer of %s", term.slug()).contains(term.layerHint());
            assertThat(term.companies()).as("companies of %s", term.slug())
                .isNotEmpty()
                .allSatisfy(c -> assertThat(displays).contains(c.getSymbol()));
            assertThat(term.related()).as("related terms of %s", term.slug()).isNotEmpty();
            for (RelatedTerm related : term.related()) {
                TermContent target = bySlug.get(related.getSlug());
                assertThat(target).as("%s -> %s", term.slug(), related.getSlug()).isNotNull();
                assertThat(related.getTitle()).isEqualTo(target.title());
                assertThat(related.getSummary()).isEqualTo(target.definition());
            }
        }
    }

    @Test
    void layerGraphHasNoCycleAndEveryLayerFeedsApplications() {
        Map<String, List<String>> upstream = new LinkedHashMap<>();
        corpus.layers().forEach(l -> upstream.put(l.getId(), l.getUpstream()));
        Optional<List<String>> cycle = findCycle(upstream);
        if (cycle.isPresent()) {
            fail("layer graph has a cycle: " + String.join(" -> ", cycle.get()));
        }
        assertThat(LayerGraph.findCycle(corpus.layers())).isEmpty();

        // Walking upstream from the last layer reaches every layer: nothing hangs off the
        // chain.
        Set<String> reached = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of("applications"));
        while (!todo.isEmpty()) {
            String id = todo.pop();
            if (reached.add(id)) {
                todo.addAll(upstream.get(id));
            }
        }
        assertThat(reached).containsExactlyInAnyOrderElementsOf(upstream.keySet());
    }

    /**
     * Independent depth-first search; returns the ids along one cycle, first id repeated
     * last.
     */
    private static Optional<List<String>> findCycle(Map<String, List<String>> edges) {
        Map<String, Integer> state = new HashMap<>();
        for (String start : edges.keySet()) {
            List<String> path = new ArrayList<>();
            Optional<List<String>> found = dfs(start, edges, state, path);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<List<String>> dfs(String id, Map<String, List<String>> edges, Map<String, Integer> state,
            List<String> path) {
        Integer s = state.get(id);
        if (s != null && s == 2) {
            return Optional.empty();
        }
        if (s != null && s == 1) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(id), path.size()));
            cycle.add(id);
            return Optional.of(cycle);
        }
        state.put(id, 1);
        path.add(id);
        for (String next : edges.getOrDefault(id, List.of())) {
            Optional<List<String>> found = dfs(next, edges, state, path);
            if (found.isPresent()) {
                return found;
            }
        }
        path.remove(path.size() - 1);
        state.put(id, 2);
        return Optional.empty();
    }

    @Test
    void cycleCheckReportsThePath() {
        List<ChainLayer> layers = List.of(layer("a", "c"), layer("b", "a"), layer("c", "b"), layer("d"));
        assertThat(LayerGraph.findCycle(layers)).contains(List.of("a", "c", "b", "a"));
        assertThat(findCycle(Map.of("a", List.of("b"), "b", List.of("a")))).isPresent();
        assertThat(LayerGraph.findCycle(List.of(layer("a"), layer("b", "a"), layer("c", "a", "b")))).isEmpty();
    }

    private static ChainLayer layer(String id, String... upstream) {
        return ChainLayer.newBuilder().setId(id).setName(id).setUpstream(List.of(upstream)).build();
    }

    @Test
    void everyLayerHasCompaniesAndTerms() {
        for (ChainLayer layer : corpus.layers()) {
            assertThat(corpus.companies()).as("companies whose primary layer is %s", layer.getId())
                .anyMatch(c -> c.getPrimaryLayer().equals(layer.getId()));
            assertThat(corpus.terms()).as("terms on layer %s", layer.getId())
                .anyMatch(t -> t.layerHint().equals(layer.getId()));
        }
    }

    @Test
    void everyTermHasSourcesDisclaimerAndBothSections() {
        for (TermContent term : corpus.terms()) {
            assertThat(term.sources()).as("sources of %s", term.slug()).isNotEmpty();
            for (Source source : term.sources()) {
                URI uri = URI.create(source.getUrl());
                assertThat(uri.getScheme()).as("%s: %s", term.slug(), source.getUrl()).isEqualTo("https");
                assertThat(uri.getHost()).as("%s: %s", term.slug(), source.getUrl()).isNotBlank();
                assertThat(source.getName()).isNotBlank();
            }
            assertThat(term.disclaimer()).as("disclaimer of %s", term.slug()).isNotBlank();
            assertThat(term.definition()).as("definition of %s", term.slug()).endsWith(".");
            Map<String, String> bodies = term.sections()
                .stream()
                .collect(Collectors.toMap(Section::getKey, Section::getBody));
            assertThat(bodies).as("sections of %s", term.slug()).containsKeys("what_it_means", "why_it_matters");
            assertThat(bodies.values()).allSatisfy(b -> assertThat(b).isNotBlank());
            assertThat(term.sections()).extracting(Section::getHeading)
                .contains("What it means", "Why it matters to investors");
        }
    }

    @Test
    void noProseUsesAdviceLanguage() {
        List<String> found = new ArrayList<>();
        for (TermContent term : corpus.terms()) {
            check(term.slug() + " definition", term.definition(), found);
            for (Section s : term.sections()) {
                check(term.slug() + " " + s.getKey(), s.getHeading() + "\n" + s.getBody(), found);
            }
        }
        for (ChainLayer layer : corpus.layers()) {
            check("layer " + layer.getId(), layer.getSummary(), found);
        }
        assertThat(found).as("advice language (see the rule in CorpusTest's class comment)").isEmpty();
    }

    private static void check(String where, String text, List<String> found) {
        Matcher m = ADVICE.matcher(text);
        while (m.find()) {
            found.add(where + ": \"" + m.group() + "\"");
        }
    }

    @Test
    void adviceRuleCatchesRatingWordsButNotOrdinaryOnes() {
        assertThat(ADVICE.matcher("We rate it a Buy.").find()).isTrue();
        assertThat(ADVICE.matcher("an overweight position").find()).isTrue();
        assertThat(ADVICE.matcher("raised the price target").find()).isTrue();
        assertThat(ADVICE.matcher("analysts upgraded the stock").find()).isTrue();
        assertThat(ADVICE.matcher("TSMC sells wafers").find()).isTrue();
        assertThat(ADVICE.matcher("buyers of capacity; each stack holds data; a holding company").find()).isFalse();
        assertThat(ADVICE.matcher("outsell and buyback are other words").find()).isFalse();
    }

    @Test
    void everyListingFitsItsExchange() {
        List<String> bad = new ArrayList<>();
        for (Company company : corpus.companies()) {
            for (Listing listing : company.getListings()) {
                Exchange exchange = EXCHANGES.get(listing.getMic());
                String where = company.getId() + " " + listing.getSymbol() + "@" + listing.getMic();
                if (exchange == null) {
                    bad.add(where + ": MIC not in the table");
                    continue;
                }
                if (!exchange.symbol().matcher(listing.getSymbol()).matches()) {
                    bad.add(where + ": symbol does not match " + exchange.symbol().pattern());
                }
                String expected = listing.getSymbol() + exchange.displaySuffix();
                if (!listing.getDisplaySymbol().equals(expected)) {
                    bad.add(where + ": display " + listing.getDisplaySymbol() + ", expected " + expected);
                }
            }
        }
        assertThat(bad).isEmpty();
    }

    @Test
    void referenceDataMirrorsTheCorpus() {
        var reference = corpus.referenceData();
        assertThat(reference.layers()).isEqualTo(corpus.layers());
        assertThat(reference.companies()).isEqualTo(corpus.companies());
        assertThat(reference.terms()).hasSameSizeAs(corpus.terms());
        var rdma = reference.terms().stream().filter(t -> t.slug().equals("rdma")).findFirst().orElseThrow();
        assertThat(rdma.title()).isEqualTo("RDMA");
        assertThat(rdma.aliases()).contains("remote direct memory access");
    }

    @Test
    void versionsAreLeftToThePublisher() {
        assertThat(corpus.layers()).allSatisfy(l -> assertThat(l.getVersion()).isZero());
        assertThat(corpus.companies()).allSatisfy(c -> assertThat(c.getVersion()).isZero());
    }

    // ------------------------------------------------------------------------ loading
    // from disk

    private static final String LAYERS = """
            layers:
              - {id: alpha, name: Alpha, summary: First layer., aliases: [alpha layer], upstream: []}
              - {id: beta, name: Beta, summary: Second layer., upstream: [alpha]}
            """;

    private static final String COMPANIES = """
            companies:
              - id: acme
                name: Acme Corp
                aliases: [Acme]
                listings: [{symbol: "ACME", mic: XNAS, display: "ACME"}, {symbol: "1234", mic: XTAI, display: "1234.TW"}]
                primaryLayer: alpha
                layers: [beta]
            """;

    private static String term(String slug, String title, String extraFrontMatter, String related) {
        return """
                ---
                slug: %s
                title: %s
                aliases: [%s thing]
                definition: %s is a test term.
                layer: beta
                companies: [ACME, 1234.TW]
                related: [%s]
                sources:
                  - name: Example reference
                    url: https://example.org/%s
                %s---
                ## What it means
                First line
                continues here.

                Second paragraph.

                ## Why it matters to investors
                It matters.
                """.formatted(slug, title, title, title, related, slug, extraFrontMatter);
    }

    private static Path writeCorpus(Path dir, String layers, Map<String, String> terms) throws IOException {
        Files.writeString(dir.resolve("layers.yaml"), layers, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("companies.yaml"), COMPANIES, StandardCharsets.UTF_8);
        Path termsDir = Files.createDirectories(dir.resolve("terms"));
        for (Map.Entry<String, String> e : terms.entrySet()) {
            Files.writeString(termsDir.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
        }
        return dir;
    }

    @Test
    void loadsADirectoryWithTheBundledLayout(@TempDir Path dir) throws IOException {
        writeCorpus(dir, LAYERS, Map.of("one.md", term("one", "One", "disclaimer: Own disclaimer.\n", "two"), "two.md",
                term("two", "Two", "", "one"), "README.txt", "not a term"));
        Corpus loaded = Corpus.load(dir);

        assertThat(loaded.layers()).extracting(ChainLayer::getId).containsExactly("alpha", "beta");
        assertThat(loaded.companyByDisplaySymbol("1234.TW")).get().extracting(Company::getId).isEqualTo("acme");
        assertThat(loaded.terms()).extracting(TermContent::slug).containsExactly("one", "two");

        TermContent one = loaded.term("one").orElseThrow();
        assertThat(one.origin()).isEqualTo("corpus");
        assertThat(one.layerHint()).isEqualTo("beta");
        assertThat(one.disclaimer()).isEqualTo("Own disclaimer.");
        assertThat(one.sections()).extracting(Section::getKey).containsExactly("what_it_means", "why_it_matters");
        assertThat(one.sections().get(0).getHeading()).isEqualTo("What it means");
        assertThat(one.sections().get(0).getBody()).isEqualTo("First line continues here.\n\nSecond paragraph.");
        assertThat(one.companies()).extracting(c -> c.getName() + "|" + c.getSymbol())
            .containsExactly("Acme Corp|ACME", "Acme Corp|1234.TW");
        assertThat(one.related()).singleElement().satisfies(r -> {
            assertThat(r.getSlug()).isEqualTo("two");
            assertThat(r.getTitle()).isEqualTo("Two");
            assertThat(r.getSummary()).isEqualTo("Two is a test term.");
        });
        assertThat(loaded.term("two").orElseThrow().disclaimer()).isEqualTo(TermContent.DEFAULT_DISCLAIMER);
    }

    @Test
    void termWithoutDefinitionNamesFileAndField(@TempDir Path dir) throws IOException {
        String broken = term("one", "One", "", "two").replace("definition: One is a test term.\n", "");
        writeCorpus(dir, LAYERS, Map.of("one.md", broken, "two.md", term("two", "Two", "", "one")));

        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).startsWith(dir.resolve("terms").resolve("one.md").toString() + ": ");
            assertThat(e.getMessage()).contains(": field 'definition': ");
            assertThat(e.getMessage()).contains("one.md").contains("'definition'").contains("missing");
        });
    }

    @Test
    void unknownReferencesNameFileAndField(@TempDir Path dir) throws IOException {
        writeCorpus(dir, LAYERS, Map.of("one.md", term("one", "One", "", "nowhere")));
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).contains("one.md" + ": ");
            assertThat(e.getMessage()).contains(": field 'related[0]': ");
            assertThat(e.getMessage()).contains("nowhere");
        });

        writeCorpus(dir, LAYERS,
                Map.of("one.md", term("one", "One", "", "").replace("[ACME, 1234.TW]", "[ACME, ZZZZ]")));
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).contains(": field 'companies[1]': ");
            assertThat(e.getMessage()).contains("ZZZZ");
        });
    }

    @Test
    void layerCycleOnDiskIsReportedWithItsPath(@TempDir Path dir) throws IOException {
        String cyclic = LAYERS.replace("upstream: []", "upstream: [beta]");
        writeCorpus(dir, cyclic, Map.of());
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).contains("layers.yaml" + ": ");
            assertThat(e.getMessage()).contains(": field 'layers': ");
            assertThat(e.getMessage()).contains("alpha -> beta -> alpha");
        });
    }

    @Test
    void typeAndSpellingMistakesAreNamed(@TempDir Path dir) throws IOException {
        writeCorpus(dir, LAYERS, Map.of());
        Files.writeString(dir.resolve("companies.yaml"), COMPANIES.replace("symbol: \"1234\"", "symbol: 1234"));
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).contains("companies.yaml" + ": ");
            assertThat(e.getMessage()).contains(": field 'companies[0].listings[1].symbol': ");
            assertThat(e.getMessage()).contains("quote");
        });

        Files.writeString(dir.resolve("companies.yaml"), COMPANIES.replace("primaryLayer", "primaryLayr"));
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class,
                e -> assertThat(e.getMessage()).contains(": field 'companies[0].primaryLayr': "));

        Files.writeString(dir.resolve("companies.yaml"), COMPANIES);
        Files.writeString(dir.resolve("terms").resolve("one.md"),
                term("one", "One", "", "").replace("slug: one", "slug: uno"));
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).contains(": field 'slug': ");
            assertThat(e.getMessage()).contains("uno").contains("'one'");
        });

        Files.writeString(dir.resolve("terms").resolve("one.md"), term("one", "One", "title: Again\n", ""));
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).contains("one.md" + ": ");
            assertThat(e.getMessage()).contains("not valid YAML").contains("line 12").containsIgnoringCase("duplicate");
        });

        Files.writeString(dir.resolve("terms").resolve("one.md"),
                term("one", "One", "", "").replace("## Why it matters to investors\nIt matters.\n", ""));
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).contains(": field 'body': ");
            assertThat(e.getMessage()).contains("Why it matters to investors");
        });
    }

    @Test
    void missingFileIsNamed(@TempDir Path dir) {
        assertThatThrownBy(() -> Corpus.load(dir)).isInstanceOfSatisfying(CorpusException.class, e -> {
            assertThat(e.getMessage()).startsWith(dir.resolve("layers.yaml").toString() + ": ");
            assertThat(e.getMessage()).doesNotContain(": field '");
        });
    }

}
