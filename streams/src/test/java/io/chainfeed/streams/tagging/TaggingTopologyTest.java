package io.chainfeed.streams.tagging;

import static io.chainfeed.schemas.SampleRecords.company;
import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.CompanyMention;
import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.RelatedTerm;
import io.chainfeed.avro.Section;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.TopologyTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TaggingTopologyTest extends TopologyTest {

    private static final Instant REFERENCE_TIME = Instant.parse("2026-01-01T00:00:00Z");

    private static final Instant TERM_VERSION = Instant.parse("2026-11-01T00:00:00Z");

    private TestInputTopic<String, TermUpdate> terms;

    private TestOutputTopic<String, TermUpdate> referenceTerms;

    @BeforeEach
    void setUp() {
        open("tagging-test", TaggingTopology::buildTopology, null, REFERENCE_TIME);
        terms = topology.input(Topics.TERMS, TermUpdate.class);
        referenceTerms = topology.output(Topics.REFERENCE_TERMS, TermUpdate.class);

        layers.pipeInput("network-fabric",
                ChainLayer.newBuilder()
                    .setId("network-fabric")
                    .setName("Network fabric")
                    .setAliases(List.of("fabric layer"))
                    .build());
        layers.pipeInput("cloud-compute",
                ChainLayer.newBuilder().setId("cloud-compute").setName("Cloud and compute").build());
        companies.pipeInput("arista-networks", company("arista-networks", "Arista Networks", List.of("Arista"),
                "network-fabric", new Listing("ANET", "XNYS", "ANET")));
        companies.pipeInput("oracle", company("oracle", "Oracle Corporation", List.of("Oracle"), "cloud-compute",
                new Listing("ORCL", "XNYS", "ORCL")));
        companies.pipeInput("accton-technology", company("accton-technology", "Accton Technology", List.of("Accton"),
                "network-fabric", new Listing("2345", "XTAI", "2345.TW")));
        companies.pipeInput("on-semiconductor", company("on-semiconductor", "ON Semiconductor", List.of("onsemi"),
                "energy-power", new Listing("ON", "XNAS", "ON")));
    }

    private static TermUpdate term(String slug, String why, List<CompanyMention> declared, String layerHint) {
        return TermUpdate.newBuilder()
            .setSlug(slug)
            .setTitle("Lossless Ethernet")
            .setDefinition("Ethernet tuned so that frames are not dropped.")
            .setSections(List.of(new Section("why_it_matters", "Why it matters to investors", why)))
            .setLayerHint(layerHint)
            .setCompanies(declared)
            .setRelated(List.of(new RelatedTerm("rdma", "RDMA", "Direct memory access across machines.")))
            .setSources(List.of(new Source("IEEE 802.1 DCB", "https://www.ieee802.org/1/pages/dcbridges.html")))
            .setDisclaimer("Research, not advice.")
            .setVersion(TERM_VERSION.toEpochMilli())
            .setUpdatedAt(Instant.parse("2026-11-01T00:00:00Z"))
            .build();
    }

    @Test
    void eachReadSentCountsOnTheRegistryTheTopologyWasBuiltWith() {
        TermUpdate lossless = term("lossless-ethernet", "Arista Networks ships it.", List.of(), "fabric layer");
        terms.pipeInput("lossless-ethernet", lossless);
        // the same term again changes nothing a reader sees: no read, no count
        terms.pipeInput("lossless-ethernet", lossless);

        assertThat(reads.readKeyValuesToList()).hasSize(1);
        assertThat(topology.registry().get("chainfeed.records.tagged").tag("kind", "term").counter().count())
            .isEqualTo(1.0);
    }

    @Test
    void tagsDeclaredCompaniesAndLayerWithEvidence() {
        terms.pipeInput("lossless-ethernet", term("lossless-ethernet",
                "Switch makers such as Arista Networks (ANET) and Taiwan's Accton (2345.TW) ship it; we use it on it.",
                List.of(new CompanyMention("Arista Networks", "ANET"),
                        new CompanyMention("Oracle Corporation", "ORCL")),
                "fabric layer"));

        Map<String, Read> out = reads.readKeyValuesToMap();
        assertThat(out).containsOnlyKeys("term:lossless-ethernet");
        Read read = out.get("term:lossless-ethernet");
        assertThat(read.getVersion()).isEqualTo(TERM_VERSION.toEpochMilli());
        assertThat(read.getDisclaimer()).isEqualTo("Research, not advice.");
        assertThat(read.getTerms()).extracting(t -> t.getSlug()).containsExactly("rdma");

        assertThat(read.getCompanies()).extracting(CompanyTag::getSymbol)
            .containsExactlyInAnyOrder("ANET", "ORCL", "2345.TW");
        CompanyTag anet = companyTag(read, "ANET");
        assertThat(anet.getPrimary()).isTrue();
        assertThat(anet.getConfidence()).isEqualTo(1.0);
        assertThat(anet.getEvidence()).extracting(e -> e.getRule())
            .contains("declared-company", "company-name", "ticker-parenthesised");
        CompanyTag accton = companyTag(read, "2345.TW");
        assertThat(accton.getMic()).isEqualTo("XTAI");
        assertThat(accton.getPrimary()).isFalse();
        var span = accton.getEvidence()
            .stream()
            .filter(e -> e.getRule().equals("company-alias"))
            .findFirst()
            .orElseThrow();
        String why = read.getSections().get(0).getBody();
        assertThat(why.substring(span.getStart(), span.getEnd())).isEqualTo("Accton");

        LayerTag fabric = read.getLayers().get(0);
        assertThat(fabric.getId()).isEqualTo("network-fabric");
        assertThat(fabric.getPrimary()).isTrue();
        assertThat(fabric.getEvidence()).extracting(e -> e.getRule())
            .contains("declared-layer", "company-primary-layer");
        assertThat(read.getLayers()).extracting(LayerTag::getId).contains("cloud-compute");
    }

    private static CompanyTag companyTag(Read read, String symbol) {
        return read.getCompanies().stream().filter(c -> c.getSymbol().equals(symbol)).findFirst().orElseThrow();
    }

    private static TermUpdate glossary(String slug, String title, List<String> aliases, String text, String layer) {
        return TermUpdate.newBuilder()
            .setSlug(slug)
            .setTitle(title)
            .setAliases(aliases)
            .setDefinition(title + " is a term.")
            .setSections(List.of(new Section("what_it_means", "What it means", text)))
            .setLayerHint(layer)
            .setDisclaimer("Research, not advice.")
            .setVersion(TERM_VERSION.toEpochMilli())
            .setUpdatedAt(TERM_VERSION)
            .build();
    }

    @Test
    void copiesEveryTermToTheReferenceTopicAndTagsGlossaryTermsFromIt() {
        terms.pipeInput("rdma",
                glossary("rdma", "RDMA", List.of("remote direct memory access"),
                        "Remote direct memory access moves data between servers; RDMA is built into InfiniBand.",
                        "network-fabric"));
        terms.pipeInput("roce", glossary("roce", "RoCE", List.of("RDMA over Converged Ethernet"),
                "It carries RDMA over Ethernet, as switch makers like Arista (ANET) ship it.", null));

        assertThat(referenceTerms.readKeyValuesToMap()).containsOnlyKeys("rdma", "roce");
        Map<String, Read> out = reads.readKeyValuesToMap();
        Read rdma = out.get("term:rdma");
        assertThat(rdma.getTerms()).as("a term never tags itself").isEmpty();
        Read roce = out.get("term:roce");
        var tag = roce.getTerms().stream().filter(t -> t.getSlug().equals("rdma")).findFirst().orElseThrow();
        assertThat(tag.getTitle()).isEqualTo("RDMA");
        assertThat(tag.getSummary()).isEqualTo("RDMA is a term.");
        assertThat(tag.getConfidence()).isEqualTo(0.9);
        var evidence = tag.getEvidence().get(0);
        assertThat(evidence.getRule()).isEqualTo("term-title");
        String body = roce.getSections().get(0).getBody();
        assertThat(body.substring(evidence.getStart(), evidence.getEnd())).isEqualTo("RDMA");
        assertThat(roce.getLayers()).as("the layer of a tagged term").anySatisfy(l -> {
            assertThat(l.getId()).isEqualTo("network-fabric");
            assertThat(l.getEvidence()).extracting(e -> e.getRule()).contains("term-layer");
        });
    }

    @Test
    void retagsKeptTermsWhenATermTheyMentionArrivesOrGoes() {
        terms.pipeInput("roce", glossary("roce", "RoCE", List.of(), "It carries RDMA over Ethernet.", null));
        assertThat(reads.readValue().getTerms()).isEmpty();
        topology.advanceWallClockTime(Duration.ofSeconds(2));
        assertThat(reads.isEmpty()).as("roce joined the dictionary, but no read changed").isTrue();

        terms.pipeInput("rdma", glossary("rdma", "RDMA", List.of(), "Direct memory access across machines.", null));
        assertThat(reads.readValue().getId()).isEqualTo("term:rdma");
        topology.advanceWallClockTime(Duration.ofSeconds(2));
        Read retagged = reads.readValue();
        assertThat(retagged.getId()).isEqualTo("term:roce");
        assertThat(retagged.getTerms()).extracting(t -> t.getSlug()).containsExactly("rdma");
        assertThat(reads.isEmpty()).isTrue();

        terms.pipeInput("rdma", (TermUpdate) null);
        assertThat(reads.readKeyValue().value).isNull();
        topology.advanceWallClockTime(Duration.ofSeconds(2));
        assertThat(reads.readValue().getTerms()).as("the term left the dictionary").isEmpty();
    }

    private static List<String> changes(Read read) {
        return read.getChanges()
            .stream()
            .map(c -> c.getField() + " " + c.getChange() + " " + c.getKey() + " " + c.getDetail())
            .toList();
    }

    @Test
    void anEditedTermsReadSaysWhatChangedAgainstThePreviousVersion() {
        TermUpdate first = term("lossless-ethernet", "Switch makers such as Arista Networks ship it.",
                List.of(new CompanyMention("Arista Networks", "ANET")), "fabric layer");
        terms.pipeInput("lossless-ethernet", first);
        Read v1 = reads.readValue();
        assertThat(v1.getPreviousVersion()).as("a first version supersedes nothing").isNull();
        assertThat(v1.getChanges()).isEmpty();
        assertThat(v1.getSequence()).isEqualTo(1L);

        Instant edited = TERM_VERSION.plus(Duration.ofDays(3));
        TermUpdate second = TermUpdate.newBuilder(first)
            .setDefinition("Ethernet configured so that no frame is dropped under load.")
            .setSections(List.of(
                    new Section("why_it_matters", "Why it matters to investors",
                            "Oracle Corporation builds its cloud on it."),
                    new Section("how_it_works", "How it works", "Pause frames & priority flow control.")))
            .setCompanies(List.of(new CompanyMention("Oracle Corporation", "ORCL")))
            .setRelated(List.of(new RelatedTerm("roce", "RoCE", "RDMA over Ethernet.")))
            .setSources(List.of(new Source("IEEE 802.1 DCB", "https://www.ieee802.org/1/pages/dcbridges.html"),
                    new Source("IEEE 802.1Qbb", "https://www.ieee802.org/1/pages/802.1bb.html")))
            .setVersion(edited.toEpochMilli())
            .setUpdatedAt(edited)
            .build();
        terms.pipeInput("lossless-ethernet", second);
        Read v2 = reads.readValue();
        assertThat(v2.getVersion()).isGreaterThanOrEqualTo(edited.toEpochMilli());
        assertThat(v2.getUpdatedAt()).isEqualTo(edited);
        assertThat(v2.getPreviousVersion()).isEqualTo(v1.getVersion());
        assertThat(v2.getSequence()).isEqualTo(2L);
        assertThat(changes(v2)).containsExactly(
                "summary changed  Ethernet configured so that no frame is dropped under load.",
                "sections changed why_it_matters Why it matters to investors",
                "sections added how_it_works How it works", "layers added cloud-compute Cloud and compute",
                "companies removed arista-networks Arista Networks (ANET)",
                "companies added oracle Oracle Corporation (ORCL)", "related removed rdma RDMA",
                "related added roce RoCE", "sources added https://www.ieee802.org/1/pages/802.1bb.html IEEE 802.1Qbb");

        // The same content again (a replay, or a re-post with a newer version and an
        // unchanged text): no
        // new version is published at all.
        terms.pipeInput("lossless-ethernet", second);
        terms.pipeInput("lossless-ethernet",
                TermUpdate.newBuilder(second)
                    .setVersion(edited.toEpochMilli() + 1000)
                    .setUpdatedAt(edited.plusSeconds(1))
                    .build());
        assertThat(reads.isEmpty()).as("a version that changes nothing is never written").isTrue();

        // Deleted, then published anew: a first version again.
        terms.pipeInput("lossless-ethernet", (TermUpdate) null);
        assertThat(reads.readValue()).isNull();
        terms.pipeInput("lossless-ethernet", first);
        Read reborn = reads.readValue();
        assertThat(reborn.getPreviousVersion()).isNull();
        assertThat(reborn.getChanges()).isEmpty();
        assertThat(reborn.getSequence()).isEqualTo(1L);
    }

    @Test
    void aRetagByAReferenceChangeSaysWhichTagsChangedAndMovesUpdatedAt() {
        terms.pipeInput("x", term("x", "Celestica builds the switches.", List.of(), null));
        Read before = reads.readValue();
        assertThat(before.getCompanies()).isEmpty();

        Instant later = Instant.parse("2027-01-01T00:00:00Z");
        Read retagged = addCelesticaAt(later);
        assertThat(retagged.getPreviousVersion()).isEqualTo(before.getVersion());
        assertThat(retagged.getSequence()).isEqualTo(2L);
        assertThat(retagged.getPublishedAt()).as("published at the processor's wall clock")
            .isAfter(before.getPublishedAt());
        assertThat(retagged.getUpdatedAt()).as("a tag change is an update, at the reference change's time")
            .isEqualTo(later);
        assertThat(changes(retagged)).containsExactly("layers added network-fabric Network fabric",
                "companies added celestica Celestica (CLS)");

        // The company goes again: the tag goes, and the read says so.
        Instant gone = Instant.parse("2027-02-01T00:00:00Z");
        companies.pipeInput("celestica", null, gone);
        topology.advanceWallClockTime(Duration.ofSeconds(2));
        Read untagged = reads.readValue();
        assertThat(untagged.getPreviousVersion()).isEqualTo(retagged.getVersion());
        assertThat(untagged.getSequence()).isEqualTo(3L);
        assertThat(changes(untagged)).containsExactly("layers removed network-fabric Network fabric",
                "companies removed celestica Celestica (CLS)");
        assertThat(reads.isEmpty()).isTrue();
    }

    /**
     * Adds Celestica (CLS, network fabric) to the reference data at {@code at}, lets the
     * re-tagging run, and returns the read it re-published.
     */
    private Read addCelesticaAt(Instant at) {
        companies.pipeInput("celestica",
                company("celestica", "Celestica", List.of(), "network-fabric", new Listing("CLS", "XNYS", "CLS")), at);
        topology.advanceWallClockTime(Duration.ofSeconds(2));
        return reads.readValue();
    }

    @Test
    void neverTagsACommonWordTickerFromProse() {
        terms.pipeInput("x", term("x", "Turn it ON when the fabric is on; it runs ON top.", List.of(), null));
        Read read = reads.readValue();
        assertThat(read.getCompanies()).isEmpty();
    }

    @Test
    void retagsKeptTermsWhenReferenceDataChangesWithoutRestart() {
        terms.pipeInput("x", term("x", "Celestica builds the switches.", List.of(), null));
        assertThat(reads.readValue().getCompanies()).isEmpty();
        topology.advanceWallClockTime(Duration.ofSeconds(2));
        assertThat(reads.isEmpty()).as("nothing changed, nothing re-tagged").isTrue();

        Instant later = Instant.parse("2027-01-01T00:00:00Z");
        Read retagged = addCelesticaAt(later);
        assertThat(retagged.getCompanies()).extracting(CompanyTag::getSymbol).containsExactly("CLS");
        assertThat(retagged.getVersion()).as("supersedes the earlier read").isEqualTo(later.toEpochMilli());
        assertThat(reads.isEmpty()).isTrue();
    }

    @Test
    void keepsUnknownDeclaredCompaniesAtLowerConfidence() {
        terms.pipeInput("x", term("x", "Nothing here.", List.of(new CompanyMention("Example Optics", "EXOP")), null));
        CompanyTag tag = reads.readValue().getCompanies().get(0);
        assertThat(tag.getSymbol()).isEqualTo("EXOP");
        assertThat(tag.getConfidence()).isEqualTo(0.5);
        assertThat(tag.getEvidence().get(0).getRule()).isEqualTo("declared-company-unresolved");
    }

    @Test
    void tombstoneForATermBecomesATombstoneForItsRead() {
        terms.pipeInput("x", (TermUpdate) null);
        var kv = reads.readKeyValue();
        assertThat(kv.key).isEqualTo("term:x");
        assertThat(kv.value).isNull();
    }

    @Test
    void aRealStreamsInstanceAcceptsTheTopologyWithExactlyOnce() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "tagging-validate");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, System.getProperty("java.io.tmpdir") + "/tagging-validate");
        // The terms sink and the global reference-terms source share a topic; the
        // constructor validates it.
        try (KafkaStreams streams = new KafkaStreams(
                TaggingTopology.buildTopology(props, new StreamsMeters(new SimpleMeterRegistry())), props)) {
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.CREATED);
        }
    }

    @Test
    void storesAndProcessorsKeepTheirNames() {
        Topology built = TaggingTopology.buildTopology(new Properties(), new StreamsMeters(new SimpleMeterRegistry()));
        String described = built.describe().toString();
        assertThat(described).contains(TaggingTopology.REFERENCE_STORES.layers(),
                TaggingTopology.REFERENCE_STORES.companies(), "terms-source", "tag-terms", "reads-sink",
                TaggingTopology.TERMS_STORE, "reference-layers-source", "reference-companies-source",
                TaggingTopology.REFERENCE_STORES.terms(), "reference-terms-source", "reference-terms-sink",
                Topics.REFERENCE_TERMS, TaggingTopology.READS_STORE);
        assertThat(described).doesNotContain("KSTREAM-");
    }

}
