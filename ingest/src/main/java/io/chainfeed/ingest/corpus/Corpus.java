package io.chainfeed.ingest.corpus;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.reference.ReferenceData;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The project's own research corpus: the chain layers, the companies with their listings, and the
 * glossary terms, read from the classpath ({@link #loadBundled()}) or from a directory
 * ({@link #load(Path)}) with the same layout:
 *
 * <pre>
 * layers.yaml        layers: [{id, name, aliases, summary, upstream}]
 * companies.yaml     companies: [{id, name, aliases, listings: [{symbol, mic, display}], primaryLayer, layers}]
 * terms/&lt;slug&gt;.md    YAML front matter (slug, title, aliases, definition, layer, companies, related,
 *                    sources, disclaimer) between '---' lines, then '## What it means' and
 *                    '## Why it matters to investors' sections
 * </pre>
 *
 * <p>Loading checks every field and every reference: ids and slugs are slugs and unique, a term's
 * {@code slug} equals its file name, layer ids ({@code upstream}, {@code primaryLayer},
 * {@code layers}, a term's {@code layer}) exist, the upstream edges have no cycle, display symbols
 * are unique, a term's {@code companies} are display symbols of listed companies and its
 * {@code related} are slugs of other terms, and sources carry absolute http(s) URLs. The first
 * problem found raises a {@link CorpusException} naming the file and field.
 *
 * <p>Versions: the {@code version} of every {@link ChainLayer} and {@link Company} is left at 0 and
 * terms carry none; the publisher stamps versions when it writes them to Kafka (for terms, via
 * {@link TermContent#toTermUpdate}).
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class Corpus {

    /** The {@code origin} of every term read from a corpus. */
    public static final String ORIGIN = "corpus";
    /** Classpath folder of the bundled corpus. */
    public static final String BUNDLED_LOCATION = "corpus";

    private static final String LAYERS_FILE = "layers.yaml";
    private static final String COMPANIES_FILE = "companies.yaml";
    private static final String TERMS_DIR = "terms";
    private static final String TERM_SUFFIX = ".md";

    private static final Pattern SLUG = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Pattern MIC = Pattern.compile("[A-Z0-9]{4}");

    private static final Set<String> ROOT_LAYERS = Set.of("layers");
    private static final Set<String> LAYER_FIELDS = Set.of("id", "name", "aliases", "summary", "upstream");
    private static final Set<String> ROOT_COMPANIES = Set.of("companies");
    private static final Set<String> COMPANY_FIELDS =
            Set.of("id", "name", "aliases", "listings", "primaryLayer", "layers");
    private static final Set<String> LISTING_FIELDS = Set.of("symbol", "mic", "display");
    private static final Set<String> TERM_FIELDS = Set.of("slug", "title", "aliases", "definition", "layer",
            "companies", "related", "sources", "disclaimer");
    private static final Set<String> SOURCE_FIELDS = Set.of("name", "url");

    private final List<ChainLayer> layers;
    private final List<Company> companies;
    private final List<TermContent> terms;
    private final Map<String, ChainLayer> layersById;
    private final Map<String, Company> companiesByDisplaySymbol;
    private final Map<String, TermContent> termsBySlug;
    private final ReferenceData referenceData;

    private Corpus(List<ChainLayer> layers, List<Company> companies, List<TermContent> terms) {
        this.layers = List.copyOf(layers);
        this.companies = List.copyOf(companies);
        this.terms = List.copyOf(terms);
        Map<String, ChainLayer> byId = new LinkedHashMap<>();
        layers.forEach(l -> byId.put(l.getId(), l));
        this.layersById = Map.copyOf(byId);
        Map<String, Company> byDisplay = new LinkedHashMap<>();
        companies.forEach(c -> c.getListings().forEach(l -> byDisplay.put(l.getDisplaySymbol(), c)));
        this.companiesByDisplaySymbol = Map.copyOf(byDisplay);
        Map<String, TermContent> bySlug = new LinkedHashMap<>();
        terms.forEach(t -> bySlug.put(t.slug(), t));
        this.termsBySlug = Map.copyOf(bySlug);
        this.referenceData = new ReferenceData(this.layers, this.companies, this.terms.stream()
                .map(t -> new ReferenceData.KnownTerm(t.slug(), t.title(), t.aliases()))
                .toList());
    }

    /**
     * Loads the corpus bundled in this module, from {@code corpus/} on the classpath (a directory
     * in development, the jar when packaged). Each call reads and checks the files again; callers
     * that need it often should keep the result.
     *
     * @return the bundled corpus
     * @throws CorpusException if a file is missing, unreadable or inconsistent
     */
    public static Corpus loadBundled() {
        PathMatchingResourcePatternResolver resolver =
                new PathMatchingResourcePatternResolver(Corpus.class.getClassLoader());
        String base = BUNDLED_LOCATION + "/";
        NamedText layers = read(resolver.getResource("classpath:" + base + LAYERS_FILE), base + LAYERS_FILE);
        NamedText companies = read(resolver.getResource("classpath:" + base + COMPANIES_FILE), base + COMPANIES_FILE);
        String pattern = "classpath:" + base + TERMS_DIR + "/*" + TERM_SUFFIX;
        Resource[] found;
        try {
            found = resolver.getResources(pattern);
        } catch (IOException e) {
            throw new CorpusException(base + TERMS_DIR, null, "cannot list the term files: " + e.getMessage(), e);
        }
        List<NamedText> termFiles = Arrays.stream(found)
                .filter(r -> r.getFilename() != null)
                .sorted(Comparator.comparing(Resource::getFilename))
                .map(r -> read(r, base + TERMS_DIR + "/" + r.getFilename()))
                .toList();
        return parse(layers, companies, termFiles);
    }

    /**
     * Loads a corpus from a directory with the bundled layout: {@code layers.yaml},
     * {@code companies.yaml} and {@code terms/*.md} (other files in {@code terms/} are ignored).
     *
     * @param dir the corpus directory
     * @return the corpus
     * @throws CorpusException if a file is missing, unreadable or inconsistent; its
     *     {@link CorpusException#file()} is the path of the file at fault
     */
    public static Corpus load(Path dir) {
        NamedText layers = read(dir.resolve(LAYERS_FILE));
        NamedText companies = read(dir.resolve(COMPANIES_FILE));
        Path termsDir = dir.resolve(TERMS_DIR);
        if (!Files.isDirectory(termsDir)) {
            throw new CorpusException(termsDir.toString(), null, "directory not found");
        }
        List<NamedText> termFiles;
        try (Stream<Path> files = Files.list(termsDir)) {
            termFiles = files
                    .filter(p -> p.getFileName().toString().endsWith(TERM_SUFFIX) && Files.isRegularFile(p))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .map(Corpus::read)
                    .toList();
        } catch (IOException e) {
            throw new CorpusException(termsDir.toString(), null, "cannot list the term files: " + e.getMessage(), e);
        }
        return parse(layers, companies, termFiles);
    }

    /** @return the chain layers in file order (upstream first) */
    public List<ChainLayer> layers() {
        return layers;
    }

    /** @return the companies in file order */
    public List<Company> companies() {
        return companies;
    }

    /**
     * @return the glossary terms ordered by slug, with origin {@value #ORIGIN}, sections keyed
     *     {@code what_it_means} and {@code why_it_matters} (plus any further sections), the layer id
     *     as layer hint, companies as (name, display symbol) and related terms as (slug, title,
     *     definition)
     */
    public List<TermContent> terms() {
        return terms;
    }

    /**
     * @param id a layer id such as {@code network-fabric}
     * @return the layer, if the corpus has it
     */
    public Optional<ChainLayer> layer(String id) {
        return Optional.ofNullable(layersById.get(id));
    }

    /**
     * @param displaySymbol a display symbol such as {@code ANET} or {@code 2345.TW} (exact match)
     * @return the company listed under it, if any
     */
    public Optional<Company> companyByDisplaySymbol(String displaySymbol) {
        return Optional.ofNullable(companiesByDisplaySymbol.get(displaySymbol));
    }

    /**
     * @param slug a term slug such as {@code rdma}
     * @return the term, if the corpus has it
     */
    public Optional<TermContent> term(String slug) {
        return Optional.ofNullable(termsBySlug.get(slug));
    }

    /** @return the layers, companies and terms (slug, title, aliases) as parser reference data */
    public ReferenceData referenceData() {
        return referenceData;
    }

    // ------------------------------------------------------------------------------------ parsing

    /** A file's text with the name used for it in errors. */
    record NamedText(String name, String fileName, String text) {
    }

    static Corpus parse(NamedText layersFile, NamedText companiesFile, List<NamedText> termFiles) {
        List<ChainLayer> layers = parseLayers(layersFile);
        Set<String> layerIds = new HashSet<>();
        layers.forEach(l -> layerIds.add(l.getId()));
        List<Company> companies = parseCompanies(companiesFile, layerIds);
        Map<String, Company> byDisplay = new LinkedHashMap<>();
        companies.forEach(c -> c.getListings().forEach(l -> byDisplay.put(l.getDisplaySymbol(), c)));
        List<TermContent> terms = parseTerms(termFiles, layerIds, byDisplay);
        return new Corpus(layers, companies, terms);
    }

    private static List<ChainLayer> parseLayers(NamedText file) {
        YamlFields root = YamlFields.parse(file.name(), file.text());
        root.allowOnly(ROOT_LAYERS);
        List<YamlFields> items = root.requiredObjectList("layers");
        Map<String, ChainLayer> byId = new LinkedHashMap<>();
        for (YamlFields item : items) {
            item.allowOnly(LAYER_FIELDS);
            String id = slug(item, "id");
            if (byId.containsKey(id)) {
                throw item.error("id", "duplicate layer id '" + id + "'");
            }
            byId.put(id, ChainLayer.newBuilder()
                    .setId(id)
                    .setName(item.requiredText("name"))
                    .setSummary(item.requiredText("summary"))
                    .setAliases(item.textList("aliases"))
                    .setUpstream(item.textList("upstream"))
                    .setVersion(0L)
                    .build());
        }
        for (YamlFields item : items) {
            String id = item.requiredText("id");
            List<String> upstream = byId.get(id).getUpstream();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < upstream.size(); i++) {
                String up = upstream.get(i);
                String field = "upstream[" + i + "]";
                if (!byId.containsKey(up)) {
                    throw item.error(field, "unknown layer id '" + up + "'");
                }
                if (up.equals(id)) {
                    throw item.error(field, "layer '" + id + "' cannot be upstream of itself");
                }
                if (!seen.add(up)) {
                    throw item.error(field, "'" + up + "' is listed twice");
                }
            }
        }
        LayerGraph.findCycle(byId.values()).ifPresent(cycle -> {
            throw new CorpusException(file.name(), "layers",
                    "the upstream edges form a cycle: " + LayerGraph.describe(cycle));
        });
        return new ArrayList<>(byId.values());
    }

    private static List<Company> parseCompanies(NamedText file, Set<String> layerIds) {
        YamlFields root = YamlFields.parse(file.name(), file.text());
        root.allowOnly(ROOT_COMPANIES);
        Map<String, Company> byId = new LinkedHashMap<>();
        Map<String, String> displayOwner = new LinkedHashMap<>();
        for (YamlFields item : root.requiredObjectList("companies")) {
            item.allowOnly(COMPANY_FIELDS);
            String id = slug(item, "id");
            if (byId.containsKey(id)) {
                throw item.error("id", "duplicate company id '" + id + "'");
            }
            List<Listing> listings = new ArrayList<>();
            for (YamlFields listing : item.objectList("listings")) {
                listing.allowOnly(LISTING_FIELDS);
                String symbol = listing.requiredText("symbol");
                String mic = listing.requiredText("mic");
                if (!MIC.matcher(mic).matches()) {
                    throw listing.error("mic", "'" + mic + "' is not an ISO 10383 MIC (four capitals or digits)");
                }
                String display = listing.requiredText("display");
                String owner = displayOwner.putIfAbsent(display, id);
                if (owner != null) {
                    throw listing.error("display", "display symbol '" + display + "' is already used by company '"
                            + owner + "'");
                }
                listings.add(Listing.newBuilder().setSymbol(symbol).setMic(mic).setDisplaySymbol(display).build());
            }
            String primary = item.requiredText("primaryLayer");
            if (!layerIds.contains(primary)) {
                throw item.error("primaryLayer", "unknown layer id '" + primary + "'");
            }
            List<String> others = item.textList("layers");
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < others.size(); i++) {
                String layer = others.get(i);
                String field = "layers[" + i + "]";
                if (!layerIds.contains(layer)) {
                    throw item.error(field, "unknown layer id '" + layer + "'");
                }
                if (layer.equals(primary)) {
                    throw item.error(field, "'" + layer + "' is already the primaryLayer");
                }
                if (!seen.add(layer)) {
                    throw item.error(field, "'" + layer + "' is listed twice");
                }
            }
            byId.put(id, Company.newBuilder()
                    .setId(id)
                    .setName(item.requiredText("name"))
                    .setAliases(item.textList("aliases"))
                    .setListings(listings)
                    .setPrimaryLayer(primary)
                    .setLayers(others)
                    .setVersion(0L)
                    .build());
        }
        return new ArrayList<>(byId.values());
    }

    /** A term as read from its file, before its references are resolved. */
    private record TermDraft(TermFile file, String slug, String title, List<String> aliases, String definition,
            String layer, List<String> companies, List<String> related, List<Source> sources, String disclaimer) {
    }

    private static List<TermContent> parseTerms(List<NamedText> files, Set<String> layerIds,
            Map<String, Company> companiesByDisplay) {
        Map<String, TermDraft> drafts = new LinkedHashMap<>();
        for (NamedText named : files) {
            TermDraft draft = draft(named, layerIds);
            if (drafts.containsKey(draft.slug())) {
                throw draft.file().frontMatter().error("slug", "duplicate term slug '" + draft.slug() + "'");
            }
            drafts.put(draft.slug(), draft);
        }
        List<TermContent> terms = new ArrayList<>();
        for (TermDraft d : drafts.values()) {
            YamlFields fm = d.file().frontMatter();
            List<CompanyMention> mentions = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < d.companies().size(); i++) {
                String display = d.companies().get(i);
                Company company = companiesByDisplay.get(display);
                if (company == null) {
                    throw fm.error("companies[" + i + "]", "'" + display
                            + "' is not the display symbol of any company in companies.yaml");
                }
                if (!seen.add(display)) {
                    throw fm.error("companies[" + i + "]", "'" + display + "' is listed twice");
                }
                mentions.add(CompanyMention.newBuilder().setName(company.getName()).setSymbol(display).build());
            }
            List<RelatedTerm> related = new ArrayList<>();
            seen.clear();
            for (int i = 0; i < d.related().size(); i++) {
                String slug = d.related().get(i);
                TermDraft target = drafts.get(slug);
                if (target == null) {
                    throw fm.error("related[" + i + "]", "no term has slug '" + slug + "' (expected terms/" + slug
                            + TERM_SUFFIX + ")");
                }
                if (slug.equals(d.slug())) {
                    throw fm.error("related[" + i + "]", "a term cannot be related to itself");
                }
                if (!seen.add(slug)) {
                    throw fm.error("related[" + i + "]", "'" + slug + "' is listed twice");
                }
                related.add(RelatedTerm.newBuilder()
                        .setSlug(slug).setTitle(target.title()).setSummary(target.definition()).build());
            }
            terms.add(new TermContent(d.slug(), d.title(), d.aliases(), d.definition(), d.file().sections(),
                    d.layer(), mentions, related, d.sources(),
                    d.disclaimer() == null ? TermContent.DEFAULT_DISCLAIMER : d.disclaimer(), ORIGIN));
        }
        terms.sort(Comparator.comparing(TermContent::slug));
        return terms;
    }

    private static TermDraft draft(NamedText named, Set<String> layerIds) {
        TermFile file = TermFile.parse(named.name(), named.text());
        YamlFields fm = file.frontMatter();
        fm.allowOnly(TERM_FIELDS);
        String stem = named.fileName().substring(0, named.fileName().length() - TERM_SUFFIX.length());
        String slug = slug(fm, "slug");
        if (!slug.equals(stem)) {
            throw fm.error("slug", "'" + slug + "' must equal the file name '" + stem + "'");
        }
        String title = fm.requiredText("title");
        List<String> aliases = fm.textList("aliases");
        String definition = fm.requiredText("definition");
        String layer = fm.requiredText("layer");
        if (!layerIds.contains(layer)) {
            throw fm.error("layer", "unknown layer id '" + layer + "'");
        }
        List<String> companies = fm.textList("companies");
        List<String> related = fm.textList("related");
        List<Source> sources = new ArrayList<>();
        for (YamlFields source : fm.requiredObjectList("sources")) {
            source.allowOnly(SOURCE_FIELDS);
            String name = source.requiredText("name");
            String url = source.requiredText("url");
            checkUrl(source, url);
            sources.add(Source.newBuilder().setName(name).setUrl(url).build());
        }
        String disclaimer = fm.optionalText("disclaimer");
        Set<String> keys = new HashSet<>();
        for (Section s : file.sections()) {
            keys.add(s.getKey());
        }
        if (!keys.contains(TermFile.WHAT_IT_MEANS)) {
            throw new CorpusException(named.name(), "body", "missing section '## What it means'");
        }
        if (!keys.contains(TermFile.WHY_IT_MATTERS)) {
            throw new CorpusException(named.name(), "body", "missing section '## Why it matters to investors'");
        }
        return new TermDraft(file, slug, title, aliases, definition, layer, companies, related, sources, disclaimer);
    }

    private static void checkUrl(YamlFields source, String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            if (scheme == null || !(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                throw source.error("url", "'" + url + "' is not an absolute http(s) URL");
            }
        } catch (URISyntaxException e) {
            throw source.error("url", "'" + url + "' is not a valid URL: " + e.getReason());
        }
    }

    private static String slug(YamlFields item, String field) {
        String value = item.requiredText(field);
        if (!SLUG.matcher(value).matches()) {
            throw item.error(field, "'" + value + "' is not a slug (lower-case letters and digits joined by single hyphens)");
        }
        return value;
    }

    // ------------------------------------------------------------------------------------ reading

    private static NamedText read(Resource resource, String name) {
        if (!resource.exists()) {
            throw new CorpusException(name, null, "not found on the classpath");
        }
        try (InputStream in = resource.getInputStream()) {
            return new NamedText(name, fileName(name), decode(name, in.readAllBytes()));
        } catch (IOException e) {
            throw new CorpusException(name, null, "cannot be read: " + e.getMessage(), e);
        }
    }

    private static NamedText read(Path path) {
        String name = path.toString();
        try {
            return new NamedText(name, path.getFileName().toString(), decode(name, Files.readAllBytes(path)));
        } catch (NoSuchFileException e) {
            throw new CorpusException(name, null, "file not found", e);
        } catch (IOException e) {
            throw new CorpusException(name, null, "cannot be read: " + e.getMessage(), e);
        }
    }

    private static String fileName(String name) {
        return name.substring(name.lastIndexOf('/') + 1);
    }

    private static String decode(String name, byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new CorpusException(name, null, "is not valid UTF-8", e);
        }
    }
}
