package io.chainfeed.streams.tagging;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.TermUpdate;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The primary/passing rule for layers: declared by the source or named in the title (or
 * in the definition of a read that declares no layer) is primary; inferred from a company
 * or a term, or named only in passing, is not. Over the bundled corpus, the RDMA term
 * included.
 */
class PrimaryLayersTest {

    private static ReferenceData data;

    private static Tagger tagger;

    @BeforeAll
    static void setUp() {
        data = ReferenceData.bundled();
        tagger = Tagger.build(data.layers, data.companies, data.terms);
    }

    private static TermUpdate corpusTerm(String slug) {
        return data.terms.stream().filter(t -> t.getSlug().equals(slug)).findFirst().orElseThrow();
    }

    private static List<String> primary(Read read) {
        return read.getLayers().stream().filter(LayerTag::getPrimary).map(LayerTag::getId).toList();
    }

    private static List<String> passing(Read read) {
        return read.getLayers().stream().filter(l -> !l.getPrimary()).map(LayerTag::getId).toList();
    }

    private static TermUpdate text(String title, String definition, String body, String layer) {
        return TermUpdate.newBuilder()
            .setSlug("test")
            .setTitle(title)
            .setDefinition(definition)
            .setSections(List.of(new Section("body", "Body", body)))
            .setLayerHint(layer)
            .setDisclaimer("Research, not advice.")
            .setVersion(1)
            .setUpdatedAt(Instant.EPOCH)
            .build();
    }

    @Test
    void theRdmaTermsOnlyPrimaryLayerIsTheNetworkFabric() {
        TermUpdate rdma = corpusTerm("rdma");
        assertThat(rdma.getCompanies()).as("the corpus term declares its companies").hasSizeGreaterThanOrEqualTo(4);
        Read read = tagger.tag(rdma);
        assertThat(primary(read)).containsExactly("network-fabric");
        // The companies it names still place it on the chain, as passing layers, listed
        // after the primary one.
        assertThat(passing(read)).contains("cloud-compute", "servers-systems", "accelerators");
        assertThat(read.getLayers().get(0).getId()).isEqualTo("network-fabric");
        LayerTag cloud = read.getLayers()
            .stream()
            .filter(l -> l.getId().equals("cloud-compute"))
            .findFirst()
            .orElseThrow();
        assertThat(cloud.getEvidence()).extracting(Evidence::getRule).containsOnly("company-primary-layer");
    }

    @Test
    void aSeedPageThatSaysFabricLayerDeclaresTheNetworkFabricAndNothingElse() {
        // The glossary page parser hands over the page's own words for the layer
        // ("Sitting in the fabric
        // layer"), and the definition speaks of another computer's memory: neither makes
        // memory primary.
        TermUpdate seed = TermUpdate.newBuilder(corpusTerm("rdma"))
            .setLayerHint("fabric layer")
            .setDefinition("RDMA (remote direct memory access) lets one computer read from or write to another "
                    + "computer's memory directly over the network, bypassing the CPU and operating system.")
            .build();
        assertThat(primary(tagger.tag(seed))).containsExactly("network-fabric");
    }

    @Test
    void aLayerNamedInTheTitleIsPrimary() {
        Read read = tagger.tag(text("HBM supply sold out through next year", "Makers have no spare capacity.",
                "Packaging lines at the foundry layer are full too.", "advanced-packaging"));
        assertThat(primary(read)).containsExactlyInAnyOrder("advanced-packaging", "memory");
        assertThat(passing(read)).contains("foundry");
    }

    @Test
    void theDefinitionNamesAPrimaryLayerOnlyWhenTheSourceDeclaresNone() {
        String definition = "Spending on data centers keeps rising.";
        assertThat(primary(tagger.tag(text("Spending outlook", definition, "", null))))
            .containsExactly("datacenter-facilities");
        Read declared = tagger.tag(text("Spending outlook", definition, "", "cloud-compute"));
        assertThat(primary(declared)).containsExactly("cloud-compute");
        assertThat(passing(declared)).containsExactly("datacenter-facilities");
    }

    @Test
    void layersFromCompaniesTermsAndTheBodyArePassing() {
        Read read = tagger.tag(text("A quiet quarter", "",
                "SK hynix and Micron sold more HBM; the network fabric " + "layer was quiet.", null));
        assertThat(primary(read)).isEmpty();
        assertThat(passing(read)).contains("memory", "network-fabric");
    }

    /**
     * Every corpus term: its declared layer is primary, every primary layer is declared
     * or named in the title, and no lithography, foundry or materials term is a primary
     * read of memory. Prints the table.
     */
    @Test
    void everyCorpusTermsPrimaryLayersAreDeclaredOrInItsTitle() {
        TreeMap<String, List<String>> table = new TreeMap<>();
        for (TermUpdate term : data.terms) {
            Read read = tagger.tag(term);
            List<String> primary = primary(read);
            table.put(term.getSlug(), primary);
            assertThat(primary).as(term.getSlug()).contains(term.getLayerHint());
            for (LayerTag l : read.getLayers()) {
                if (l.getPrimary()) {
                    assertThat(l.getEvidence()).as("%s: %s", term.getSlug(), l.getId())
                        .anyMatch(e -> e.getRule().equals("declared-layer") || e.getField().equals("title"));
                }
            }
            if (Set.of("semiconductor-equipment", "foundry", "semiconductor-materials").contains(term.getLayerHint())) {
                assertThat(primary).as(term.getSlug()).doesNotContain("memory");
            }
        }
        long single = table.values().stream().filter(p -> p.size() == 1).count();
        System.out.println("Primary layers of the " + table.size() + " corpus terms (" + single + " with one):");
        table.forEach((slug, p) -> System.out.println("  " + slug + ": " + String.join(", ", p)));
        System.out.println("Terms per primary layer: " + table.values()
            .stream()
            .flatMap(List::stream)
            .collect(Collectors.groupingBy(l -> l, TreeMap::new, Collectors.counting())));
        assertThat(table).hasSize(data.terms.size());
    }

}
