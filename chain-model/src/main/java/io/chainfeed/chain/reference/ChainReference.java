package io.chainfeed.chain.reference;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import io.chainfeed.chain.reference.TextFiles.NamedText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The chain's reference data: its layers (with their segments) and the companies on them
 * with their listings, read from {@code layers.yaml} and {@code companies.yaml} on the
 * classpath ({@link #loadBundled()}, folder {@code corpus/}) or in a directory
 * ({@link #load(Path)}):
 *
 * <pre>
 * layers.yaml      layers: [{id, name, aliases, summary, upstream, segments: [{id, share}]}]
 * companies.yaml   companies: [{id, name, aliases, listings: [{symbol, mic, display}], primaryLayer, layers}]
 * </pre>
 *
 * <p>
 * Loading checks every field and reference: ids are slugs and unique, layer ids
 * ({@code upstream}, {@code primaryLayer}, {@code layers}) exist, the upstream edges have
 * no cycle, MICs are ISO 10383 codes, display symbols are unique, segment ids are unique
 * across layers and a segmented layer's shares lie in (0, 1] and add up to 1. The first
 * problem raises a {@link CorpusException} naming the file and field.
 *
 * <p>
 * The {@code version} of every {@link ChainLayer} and {@link Company} is left at 0: the
 * publisher stamps versions when it writes them to Kafka. Instances are immutable and
 * safe to share between threads.
 */
public final class ChainReference {

    /**
     * Classpath folder of the bundled reference data (and of the glossary's term files).
     */
    public static final String BUNDLED_LOCATION = "corpus";

    /** The layers file's name. */
    public static final String LAYERS_FILE = "layers.yaml";

    /** The companies file's name. */
    public static final String COMPANIES_FILE = "companies.yaml";

    private static final Pattern MIC = Pattern.compile("[A-Z0-9]{4}");

    private static final double SHARE_TOLERANCE = 1e-9;

    private static final Set<String> ROOT_LAYERS = Set.of("layers");

    private static final Set<String> LAYER_FIELDS = Set.of("id", "name", "aliases", "summary", "upstream", "segments");

    private static final Set<String> SEGMENT_FIELDS = Set.of("id", "share");

    private static final Set<String> ROOT_COMPANIES = Set.of("companies");

    private static final Set<String> COMPANY_FIELDS = Set.of("id", "name", "aliases", "listings", "primaryLayer",
            "layers");

    private static final Set<String> LISTING_FIELDS = Set.of("symbol", "mic", "display");

    private final List<ChainLayer> layers;

    private final List<Company> companies;

    private final ChainSegments segments;

    private final Map<String, ChainLayer> layersById;

    private final Map<String, Company> companiesByDisplaySymbol;

    private ChainReference(List<ChainLayer> layers, List<Company> companies, ChainSegments segments) {
        this.layers = List.copyOf(layers);
        this.companies = List.copyOf(companies);
        this.segments = segments;
        Map<String, ChainLayer> byId = new LinkedHashMap<>();
        layers.forEach(l -> byId.put(l.getId(), l));
        this.layersById = Map.copyOf(byId);
        Map<String, Company> byDisplay = new LinkedHashMap<>();
        companies.forEach(c -> c.getListings().forEach(l -> byDisplay.put(l.getDisplaySymbol(), c)));
        this.companiesByDisplaySymbol = Map.copyOf(byDisplay);
    }

    /**
     * Reads the bundled reference data from {@code corpus/} on the classpath. Each call
     * reads and checks the files again.
     * @return the bundled reference data
     * @throws CorpusException if a file is missing, unreadable or inconsistent
     */
    public static ChainReference loadBundled() {
        String base = BUNDLED_LOCATION + "/";
        return parse(TextFiles.bundled(base + LAYERS_FILE), TextFiles.bundled(base + COMPANIES_FILE));
    }

    /**
     * @param dir a directory holding {@code layers.yaml} and {@code companies.yaml}
     * @return the reference data
     * @throws CorpusException if a file is missing, unreadable or inconsistent; its
     * {@link CorpusException#file()} is the path of the file at fault
     */
    public static ChainReference load(Path dir) {
        return parse(TextFiles.read(dir.resolve(LAYERS_FILE)), TextFiles.read(dir.resolve(COMPANIES_FILE)));
    }

    /**
     * @param layersFile the text of {@code layers.yaml}
     * @param companiesFile the text of {@code companies.yaml}
     * @return the checked reference data
     * @throws CorpusException at the first problem
     */
    public static ChainReference parse(NamedText layersFile, NamedText companiesFile) {
        List<ChainSegments.Segment> segments = new ArrayList<>();
        List<ChainLayer> layers = parseLayers(layersFile, segments);
        Set<String> layerIds = new HashSet<>();
        layers.forEach(l -> layerIds.add(l.getId()));
        return new ChainReference(layers, parseCompanies(companiesFile, layerIds), new ChainSegments(segments));
    }

    /**
     * @return the chain layers in file order (upstream first)
     */
    public List<ChainLayer> layers() {
        return layers;
    }

    /**
     * @return the companies in file order
     */
    public List<Company> companies() {
        return companies;
    }

    /**
     * @return the layers' segments
     */
    public ChainSegments segments() {
        return segments;
    }

    /**
     * @param id a layer id
     * @return the layer, if known
     */
    public Optional<ChainLayer> layer(String id) {
        return Optional.ofNullable(layersById.get(id));
    }

    /**
     * @param displaySymbol a listing's display symbol, e.g. {@code ANET} or
     * {@code 2345.TW}
     * @return the company with that listing, if any
     */
    public Optional<Company> companyByDisplaySymbol(String displaySymbol) {
        return Optional.ofNullable(companiesByDisplaySymbol.get(displaySymbol));
    }

    private static List<ChainLayer> parseLayers(NamedText file, List<ChainSegments.Segment> segments) {
        YamlFields root = YamlFields.parse(file.name(), file.text());
        root.allowOnly(ROOT_LAYERS);
        List<YamlFields> items = root.requiredObjectList("layers");
        Map<String, ChainLayer> byId = new LinkedHashMap<>();
        Set<String> segmentIds = new HashSet<>();
        for (YamlFields item : items) {
            item.allowOnly(LAYER_FIELDS);
            String id = item.requiredSlug("id");
            if (byId.containsKey(id)) {
                throw item.error("id", "duplicate layer id '" + id + "'");
            }
            byId.put(id,
                    ChainLayer.newBuilder()
                        .setId(id)
                        .setName(item.requiredText("name"))
                        .setSummary(item.requiredText("summary"))
                        .setAliases(item.textList("aliases"))
                        .setUpstream(item.textList("upstream"))
                        .setVersion(0L)
                        .build());
            segments.addAll(parseSegments(item, id, segmentIds));
        }
        for (YamlFields item : items) {
            String id = item.requiredText("id");
            checkLayerIds(item, "upstream", byId.get(id).getUpstream(), byId.keySet(), id,
                    "layer '" + id + "' cannot be upstream of itself");
        }
        LayerGraph.findCycle(byId.values()).ifPresent(cycle -> {
            throw new CorpusException(file.name(), "layers",
                    "the upstream edges form a cycle: " + LayerGraph.describe(cycle));
        });
        return new ArrayList<>(byId.values());
    }

    private static List<ChainSegments.Segment> parseSegments(YamlFields layer, String layerId, Set<String> seen) {
        List<ChainSegments.Segment> out = new ArrayList<>();
        double total = 0;
        for (YamlFields item : layer.objectList("segments")) {
            item.allowOnly(SEGMENT_FIELDS);
            String id = item.requiredSlug("id");
            if (!seen.add(id)) {
                throw item.error("id",
                        "segment id '" + id + "' is already used (segment ids are unique across layers)");
            }
            double share = item.requiredNumber("share");
            if (!(share > 0 && share <= 1)) {
                throw item.error("share", "must be in (0, 1], found " + share);
            }
            total += share;
            out.add(new ChainSegments.Segment(layerId, id, share));
        }
        if (!out.isEmpty() && Math.abs(total - 1) > SHARE_TOLERANCE) {
            throw layer.error("segments", "the shares of layer '" + layerId + "' add up to " + total + ", not 1");
        }
        return out;
    }

    /**
     * Checks the list of layer ids in field {@code name} of {@code item}: each one known,
     * none of them {@code self}, none listed twice.
     * @param self the one id the list may not hold (the layer itself, the company's
     * primary layer)
     * @param selfProblem the error when it does
     * @throws CorpusException naming the first item at fault, e.g. {@code upstream[2]}
     */
    private static void checkLayerIds(YamlFields item, String name, List<String> ids, Set<String> known, String self,
            String selfProblem) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            String field = name + "[" + i + "]";
            if (!known.contains(id)) {
                throw item.error(field, "unknown layer id '" + id + "'");
            }
            if (id.equals(self)) {
                throw item.error(field, selfProblem);
            }
            if (!seen.add(id)) {
                throw item.error(field, "'" + id + "' is listed twice");
            }
        }
    }

    private static List<Company> parseCompanies(NamedText file, Set<String> layerIds) {
        YamlFields root = YamlFields.parse(file.name(), file.text());
        root.allowOnly(ROOT_COMPANIES);
        Map<String, Company> byId = new LinkedHashMap<>();
        Map<String, String> displayOwner = new LinkedHashMap<>();
        for (YamlFields item : root.requiredObjectList("companies")) {
            item.allowOnly(COMPANY_FIELDS);
            String id = item.requiredSlug("id");
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
                    throw listing.error("display",
                            "display symbol '" + display + "' is already used by company '" + owner + "'");
                }
                listings.add(Listing.newBuilder().setSymbol(symbol).setMic(mic).setDisplaySymbol(display).build());
            }
            String primary = item.requiredText("primaryLayer");
            if (!layerIds.contains(primary)) {
                throw item.error("primaryLayer", "unknown layer id '" + primary + "'");
            }
            List<String> others = item.textList("layers");
            checkLayerIds(item, "layers", others, layerIds, primary, "'" + primary + "' is already the primaryLayer");
            byId.put(id,
                    Company.newBuilder()
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

}
