package io.chainfeed.streams.tagging;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.chain.reference.ChainReference;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The bundled reference data (layers, companies, glossary terms), read straight from the
 * ingest module's corpus directory so the tagger is tested against exactly what the
 * product ships. The streams module does not depend on ingest, so this reads the YAML and
 * the term files itself: front matter, declared companies and related terms, and the
 * body's sections.
 */
public final class ReferenceData {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public final List<ChainLayer> layers;

    public final List<Company> companies;

    public final List<TermUpdate> terms;

    private ReferenceData(List<ChainLayer> layers, List<Company> companies, List<TermUpdate> terms) {
        this.layers = layers;
        this.companies = companies;
        this.terms = terms;
    }

    /**
     * The corpus directory, resolved from the streams module directory (Maven's working
     * dir).
     */
    public static Path corpusDir() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        for (Path p : List.of(module.resolve("../chain-model/src/main/resources/corpus"),
                module.resolve("chain-model/src/main/resources/corpus"))) {
            if (Files.isDirectory(p)) {
                return p.normalize();
            }
        }
        throw new IllegalStateException("corpus directory not found from " + module.toAbsolutePath());
    }

    /**
     * @return the bundled reference data
     */
    public static ReferenceData bundled() {
        Path dir = corpusDir();
        try {
            ChainReference reference = ChainReference.load(dir);
            List<ChainLayer> layers = reference.layers();
            List<Company> companies = reference.companies();
            Map<String, String> names = new HashMap<>();
            companies.forEach(c -> c.getListings().forEach(l -> names.put(l.getDisplaySymbol(), c.getName())));
            List<String[]> files = new ArrayList<>();
            try (Stream<Path> list = Files.list(dir.resolve("terms"))) {
                for (Path f : list.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                    files.add(Files.readString(f, StandardCharsets.UTF_8).split("(?m)^---\\s*$", 3));
                }
            }
            Map<String, TermUpdate> bySlug = new LinkedHashMap<>();
            for (String[] parts : files) {
                TermUpdate t = term(YAML.readTree(parts[1]), parts[2], names);
                bySlug.put(t.getSlug(), t);
            }
            // Related terms carry the title and definition of the term they name, as
            // ingest's corpus does.
            for (String[] parts : files) {
                JsonNode fm = YAML.readTree(parts[1]);
                List<RelatedTerm> related = new ArrayList<>();
                for (String slug : strings(fm.get("related"))) {
                    TermUpdate target = bySlug.get(slug);
                    related.add(new RelatedTerm(slug, target.getTitle(), target.getDefinition()));
                }
                bySlug.get(fm.get("slug").asText()).setRelated(related);
            }
            return new ReferenceData(layers, companies, List.copyOf(bySlug.values()));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return this data plus the companies in a YAML resource of the same shape as
     * companies.yaml
     */
    ReferenceData withCompaniesFrom(String resource) {
        try (InputStream in = ReferenceData.class.getResourceAsStream(resource)) {
            List<Company> all = new ArrayList<>(companies);
            all.addAll(companies(YAML.readTree(in)));
            return new ReferenceData(layers, all, terms);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Company> companies(JsonNode root) {
        List<Company> out = new ArrayList<>();
        for (JsonNode c : root.get("companies")) {
            List<Listing> listings = new ArrayList<>();
            for (JsonNode l : c.get("listings")) {
                listings.add(new Listing(l.get("symbol").asText(), l.get("mic").asText(), l.get("display").asText()));
            }
            out.add(Company.newBuilder()
                .setId(c.get("id").asText())
                .setName(c.get("name").asText())
                .setAliases(strings(c.get("aliases")))
                .setListings(listings)
                .setPrimaryLayer(c.get("primaryLayer").asText())
                .setLayers(strings(c.get("layers")))
                .build());
        }
        return out;
    }

    /**
     * A term file as ingest publishes it: front matter, the declared companies (display
     * symbols, named as in companies.yaml) and the {@code ## } sections of the body
     * (related terms are set by the caller).
     */
    private static TermUpdate term(JsonNode fm, String body, Map<String, String> companyNames) {
        List<CompanyMention> companies = new ArrayList<>();
        for (String symbol : strings(fm.get("companies"))) {
            companies.add(new CompanyMention(companyNames.getOrDefault(symbol, symbol), symbol));
        }
        return TermUpdate.newBuilder()
            .setSlug(fm.get("slug").asText())
            .setTitle(fm.get("title").asText())
            .setAliases(strings(fm.get("aliases")))
            .setDefinition(fm.path("definition").asText(""))
            .setLayerHint(fm.path("layer").asText(null))
            .setCompanies(companies)
            .setSections(sections(body))
            .setDisclaimer("Research, not advice.")
            .setVersion(1)
            .setUpdatedAt(Instant.EPOCH)
            .build();
    }

    /**
     * {@code ## Heading} blocks, keyed as ingest keys the two standard ones, the rest by
     * their slug.
     */
    private static List<Section> sections(String body) {
        List<Section> out = new ArrayList<>();
        for (String block : body.split("(?m)^## ")) {
            String[] lines = block.split("\n", 2);
            if (lines.length < 2 || lines[0].isBlank()) {
                continue;
            }
            String heading = lines[0].strip();
            String key = heading.equals("What it means") ? "what_it_means" : heading.startsWith("Why it matters")
                    ? "why_it_matters" : heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
            out.add(new Section(key, heading, lines[1].strip()));
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

}
