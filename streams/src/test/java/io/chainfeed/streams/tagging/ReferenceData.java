package io.chainfeed.streams.tagging;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.TermUpdate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The bundled reference data (layers, companies, glossary terms), read straight from the ingest
 * module's corpus directory so the tagger is tested against exactly what the product ships. The
 * streams module does not depend on ingest, so this reads the YAML and the terms' front matter
 * itself.
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

    /** The corpus directory, resolved from the streams module directory (Maven's working dir). */
    public static Path corpusDir() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        for (Path p : List.of(module.resolve("../ingest/src/main/resources/corpus"),
                module.resolve("ingest/src/main/resources/corpus"))) {
            if (Files.isDirectory(p)) {
                return p.normalize();
            }
        }
        throw new IllegalStateException("corpus directory not found from " + module.toAbsolutePath());
    }

    /** @return the bundled reference data */
    public static ReferenceData bundled() {
        Path dir = corpusDir();
        try {
            List<ChainLayer> layers = layers(YAML.readTree(dir.resolve("layers.yaml").toFile()));
            List<Company> companies = companies(YAML.readTree(dir.resolve("companies.yaml").toFile()));
            List<TermUpdate> terms = new ArrayList<>();
            try (Stream<Path> files = Files.list(dir.resolve("terms"))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                    terms.add(term(Files.readString(f, StandardCharsets.UTF_8)));
                }
            }
            return new ReferenceData(layers, companies, terms);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return this data plus the companies in a YAML resource of the same shape as companies.yaml */
    ReferenceData withCompaniesFrom(String resource) {
        try (InputStream in = ReferenceData.class.getResourceAsStream(resource)) {
            List<Company> all = new ArrayList<>(companies);
            all.addAll(companies(YAML.readTree(in)));
            return new ReferenceData(layers, all, terms);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<ChainLayer> layers(JsonNode root) {
        List<ChainLayer> out = new ArrayList<>();
        for (JsonNode l : root.get("layers")) {
            out.add(ChainLayer.newBuilder().setId(l.get("id").asText()).setName(l.get("name").asText())
                    .setSummary(l.path("summary").asText(""))
                    .setAliases(strings(l.get("aliases"))).setUpstream(strings(l.get("upstream"))).build());
        }
        return out;
    }

    private static List<Company> companies(JsonNode root) {
        List<Company> out = new ArrayList<>();
        for (JsonNode c : root.get("companies")) {
            List<Listing> listings = new ArrayList<>();
            for (JsonNode l : c.get("listings")) {
                listings.add(new Listing(l.get("symbol").asText(), l.get("mic").asText(), l.get("display").asText()));
            }
            out.add(Company.newBuilder().setId(c.get("id").asText()).setName(c.get("name").asText())
                    .setAliases(strings(c.get("aliases"))).setListings(listings)
                    .setPrimaryLayer(c.get("primaryLayer").asText()).setLayers(strings(c.get("layers"))).build());
        }
        return out;
    }

    private static TermUpdate term(String markdown) throws IOException {
        String[] parts = markdown.split("(?m)^---\\s*$", 3);
        JsonNode fm = YAML.readTree(parts[1]);
        return TermUpdate.newBuilder()
                .setSlug(fm.get("slug").asText()).setTitle(fm.get("title").asText())
                .setAliases(strings(fm.get("aliases"))).setDefinition(fm.path("definition").asText(""))
                .setLayerHint(fm.path("layer").asText(null))
                .setDisclaimer("Research, not advice.").setVersion(1).setUpdatedAt(Instant.EPOCH)
                .build();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
