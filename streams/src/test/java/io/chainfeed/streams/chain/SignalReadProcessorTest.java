package io.chainfeed.streams.chain;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.chain.ChainFixtures;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.TopologyTest;
import io.chainfeed.streams.tagging.RetaggingProcessor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Signal reads are published only when what a reader sees changes: a re-tag after a
 * glossary or reference change, or a re-posted signal, that leaves a read as it was
 * writes nothing to the reads topic. Versions people see count 1, 2, 3 per read; the
 * ordering key grows underneath.
 */
class SignalReadProcessorTest extends TopologyTest {

    private static final Instant WALL = Instant.parse("2026-11-30T12:00:00Z");

    private static final Instant OBSERVED = WALL.minus(Duration.ofDays(2));

    private TestInputTopic<String, ConstraintSignal> signals;

    private TestInputTopic<String, TermUpdate> glossary;

    @BeforeEach
    void setUp() {
        open("signal-reads-test", ChainStateTopology::buildTopology, WALL);
        glossary = topology.input(Topics.REFERENCE_TERMS, TermUpdate.class);
        signals = topology.input(Topics.SIGNALS, ConstraintSignal.class);

        layers.pipeInput("memory", ChainLayer.newBuilder().setId("memory").setName("Memory").build());
        layers.pipeInput("advanced-packaging",
                ChainLayer.newBuilder()
                    .setId("advanced-packaging")
                    .setName("Advanced packaging")
                    .setUpstream(List.of("memory"))
                    .build());
        companies.pipeInput("sk-hynix",
                ChainFixtures.company("sk-hynix", "SK hynix", "memory", "000660", "XKRX", "000660.KS"));
        glossary.pipeInput("hbm", term("hbm", "HBM", "Stacked DRAM beside the accelerator."));
    }

    private static TermUpdate term(String slug, String title, String definition) {
        return TermUpdate.newBuilder()
            .setSlug(slug)
            .setTitle(title)
            .setDefinition(definition)
            .setDisclaimer("Research, not advice.")
            .setVersion(1)
            .setUpdatedAt(OBSERVED)
            .build();
    }

    private static ConstraintSignal signal(String id, String headline, String body, long version) {
        return ConstraintSignal
            .newBuilder(ChainFixtures.signal(id, headline, body, List.of("memory"), Direction.TIGHTENING, 3, OBSERVED))
            .setVersion(version)
            .build();
    }

    private void tick() {
        topology.advanceWallClockTime(RetaggingProcessor.RETAG_CHECK.plusMillis(10));
    }

    @Test
    void aGlossaryPageThatChangesNoSignalsTagsPublishesNoSignalRead() {
        signals.pipeInput("s1", signal("s1", "HBM allocation sold out", "SK hynix says HBM is allocated.", 100));
        signals.pipeInput("s2", signal("s2", "Substrate lead times stretch", "Lead times for substrates grow.", 101));
        signals.pipeInput("s3", signal("s3", "CoWoS capacity booked", "CoWoS lines are booked out.", 102));
        tick();
        Map<String, Read> all = reads.readKeyValuesToMap();
        // The signals also turn memory critical and packaging tight: those are state
        // reads, not this test's.
        assertThat(all.keySet()).filteredOn(id -> id.startsWith("state:"))
            .containsExactlyInAnyOrder("state:memory:1", "state:advanced-packaging:1");
        Map<String, Read> first = new java.util.HashMap<>(all);
        first.keySet().removeIf(id -> id.startsWith("state:"));
        assertThat(first).containsOnlyKeys("signal:s1", "signal:s2", "signal:s3");
        assertThat(first.values()).allSatisfy(r -> assertThat(r.getSequence()).isEqualTo(1L));
        assertThat(reads.isEmpty()).isTrue();

        // A glossary page no signal mentions: the dictionary changes, every signal is
        // re-tagged, none changes.
        glossary.pipeInput("rdma", term("rdma", "RDMA", "Direct memory access across machines."));
        tick();
        assertThat(reads.isEmpty()).as("no signal read whose tags did not change gets a new version").isTrue();

        // A page only s3 mentions: only s3's read gets a new version, and says what
        // changed.
        glossary.pipeInput("cowos", term("cowos", "CoWoS", "TSMC's chip-on-wafer-on-substrate packaging."));
        tick();
        List<org.apache.kafka.streams.KeyValue<String, Read>> out = reads.readKeyValuesToList();
        assertThat(out).extracting(kv -> kv.key).containsExactly("signal:s3");
        Read s3 = out.get(0).value;
        assertThat(s3.getSequence()).isEqualTo(2L);
        assertThat(s3.getPreviousVersion()).isEqualTo(first.get("signal:s3").getVersion());
        assertThat(s3.getVersion()).isGreaterThan(first.get("signal:s3").getVersion());
        assertThat(s3.getChanges()).extracting(c -> c.getField() + " " + c.getChange() + " " + c.getKey())
            .containsExactly("terms added cowos");

        // The same page posted again (a re-post with the same content): nothing.
        glossary.pipeInput("cowos", term("cowos", "CoWoS", "TSMC's chip-on-wafer-on-substrate packaging."));
        tick();
        assertThat(reads.isEmpty()).isTrue();
    }

    @Test
    void aCompanyChangeRepublishesOnlyTheSignalsThatNameIt() {
        signals.pipeInput("s1", signal("s1", "Celestica trims builds", "Celestica says switch builds slip.", 100));
        signals.pipeInput("s2", signal("s2", "HBM allocation sold out", "SK hynix says HBM is allocated.", 101));
        tick();
        assertThat(reads.readValuesToList()).extracting(Read::getId)
            .contains("signal:s1", "signal:s2", "state:memory:1");

        companies.pipeInput("celestica",
                ChainFixtures.company("celestica", "Celestica", "memory", "CLS", "XNYS", "CLS"));
        tick();
        List<Read> out = reads.readValuesToList();
        assertThat(out).extracting(Read::getId).containsExactly("signal:s1");
        assertThat(out.get(0).getCompanies()).extracting(c -> c.getSymbol()).contains("CLS");
        assertThat(out.get(0).getSequence()).isEqualTo(2L);
    }

    @Test
    void versionsCountOneTwoThreeAndAnUnchangedRepostIsNotAVersion() {
        signals.pipeInput("s1", signal("s1", "HBM allocation sold out", "SK hynix says HBM is allocated.", 100));
        Read v1 = reads.readValue();
        assertThat(v1.getSequence()).isEqualTo(1L);
        assertThat(v1.getPreviousVersion()).isNull();
        assertThat(v1.getObservedAt()).as("when the event was observed").isEqualTo(OBSERVED);
        assertThat(v1.getUpdatedAt()).isEqualTo(OBSERVED);
        assertThat(v1.getPublishedAt()).as("when chainfeed published it, not when it was observed").isEqualTo(WALL);

        // Posted again with a newer ingest version and the same content: not a version.
        signals.pipeInput("s1", signal("s1", "HBM allocation sold out", "SK hynix says HBM is allocated.", 200));
        assertThat(reads.isEmpty()).isTrue();

        topology.advanceWallClockTime(Duration.ofMinutes(5));
        signals.pipeInput("s1",
                signal("s1", "HBM allocation sold out to 2027", "SK hynix says HBM is allocated.", 300));
        Read v2 = reads.readValue();
        assertThat(v2.getSequence()).isEqualTo(2L);
        assertThat(v2.getPreviousVersion()).isEqualTo(v1.getVersion());
        // The candidate key (the newest reference timestamp here, larger than the ingest
        // versions) did not
        // move; the ordering key still grows, so the reads index (external versions)
        // never refuses v2.
        assertThat(v2.getVersion()).isGreaterThan(v1.getVersion());
        assertThat(v2.getPublishedAt()).isEqualTo(WALL.plus(Duration.ofMinutes(5)));
        assertThat(v2.getObservedAt()).isEqualTo(OBSERVED);

        signals.pipeInput("s1",
                signal("s1", "HBM allocation sold out to 2028", "SK hynix says HBM is allocated.", 301));
        Read v3 = reads.readValue();
        assertThat(v3.getSequence()).isEqualTo(3L);
        assertThat(v3.getVersion()).isGreaterThan(v2.getVersion());
        assertThat(v3.getChanges()).extracting(c -> c.getField()).containsExactly("title");
        assertThat(reads.isEmpty()).isTrue();

        // Deleted, then posted anew: a first version again.
        signals.pipeInput("s1", (ConstraintSignal) null);
        assertThat(reads.readValue()).isNull();
        signals.pipeInput("s1", signal("s1", "HBM allocation sold out", "SK hynix says HBM is allocated.", 400));
        assertThat(reads.readValue().getSequence()).isEqualTo(1L);
    }

}
