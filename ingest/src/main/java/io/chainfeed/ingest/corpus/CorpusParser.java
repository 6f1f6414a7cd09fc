package io.chainfeed.ingest.corpus;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.ingest.corpus.CorpusLoader.NamedText;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a corpus's file texts into a checked {@link Corpus}: every field and every
 * reference (the rules are listed on {@link Corpus}); the first problem found is a
 * {@link CorpusException} naming the file and field.
 */
final class CorpusParser {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    private static final Pattern MIC = Pattern.compile("[A-Z0-9]{4}");

    private static final Set<String> ROOT_LAYERS = Set.of("layers");

    private static final Set<String> LAYER_FIELDS = Set.of("id", "name", "aliases", "summary", "upstream");

    private static final Set<String> ROOT_COMPANIES = Set.of("companies");

    private static final Set<String> COMPANY_FIELDS = Set.of("id", "name", "aliases", "listings", "primaryLayer",
            "layers");

    private static final Set<String> LISTING_FIELDS = Set.of("symbol", "mic", "display");

    private static final Set<String> TERM_FIELDS = Set.of("slug", "title", "aliases", "definition", "layer",
            "companies", "related", "sources", "disclaimer");

    private static final Set<String> SOURCE_FIELDS = Set.of("name", "url");

    private CorpusParser() {
    }

    /**
     * @param layersFile {@code layers.yaml}
     * @param companiesFile {@code companies.yaml}
     * @param termFiles the {@code terms/*.md} files, in name order
     * @return the checked corpus
     * @throws CorpusException at the first problem
     */
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
            byId.put(id,
                    ChainLayer.newBuilder()
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
            checkLayerIds(item, "upstream", byId.get(id).getUpstream(), byId.keySet(), id,
                    "layer '" + id + "' cannot be upstream of itself");
        }
        LayerGraph.findCycle(byId.values()).ifPresent(cycle -> {
            throw new CorpusException(file.name(), "layers",
                    "the upstream edges form a cycle: " + LayerGraph.describe(cycle));
        });
        return new ArrayList<>(byId.values());
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
                    throw fm.error("companies[" + i + "]",
                            "'" + display + "' is not the display symbol of any company in companies.yaml");
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
                    throw fm.error("related[" + i + "]",
                            "no term has slug '" + slug + "' (expected terms/" + slug + CorpusLoader.TERM_SUFFIX + ")");
                }
                if (slug.equals(d.slug())) {
                    throw fm.error("related[" + i + "]", "a term cannot be related to itself");
                }
                if (!seen.add(slug)) {
                    throw fm.error("related[" + i + "]", "'" + slug + "' is listed twice");
                }
                related.add(RelatedTerm.newBuilder()
                    .setSlug(slug)
                    .setTitle(target.title())
                    .setSummary(target.definition())
                    .build());
            }
            terms.add(new TermContent(d.slug(), d.title(), d.aliases(), d.definition(), d.file().sections(), d.layer(),
                    mentions, related, d.sources(),
                    d.disclaimer() == null ? TermContent.DEFAULT_DISCLAIMER : d.disclaimer(), Corpus.ORIGIN));
        }
        terms.sort(Comparator.comparing(TermContent::slug));
        return terms;
    }

    private static TermDraft draft(NamedText named, Set<String> layerIds) {
        TermFile file = TermFile.parse(named.name(), named.text());
        YamlFields fm = file.frontMatter();
        fm.allowOnly(TERM_FIELDS);
        String stem = named.fileName().substring(0, named.fileName().length() - CorpusLoader.TERM_SUFFIX.length());
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
        }
        catch (URISyntaxException e) {
            throw source.error("url", "'" + url + "' is not a valid URL: " + e.getReason());
        }
    }

    private static String slug(YamlFields item, String field) {
        String value = item.requiredText(field);
        if (!SLUG.matcher(value).matches()) {
            throw item.error(field,
                    "'" + value + "' is not a slug (lower-case letters and digits joined by single hyphens)");
        }
        return value;
    }

}
