package io.chainfeed.streams.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.chainfeed.avro.ChainCause;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.DecidedValue;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.SignalCause;
import io.chainfeed.avro.SignalDecision;
import io.chainfeed.avro.SignalReview;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.SqueezedCompany;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.avro.Trend;
import io.chainfeed.chain.ChainDecay;
import io.chainfeed.chain.ChainFixtures;
import io.chainfeed.chain.ChainModel;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.TopologyTest;
import io.chainfeed.streams.tagging.RetaggingProcessor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ChainStateTopologyTest extends TopologyTest {

    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    /** One half-life of a signal's weight ({@link ChainDecay#HALF_LIFE_DAYS}). */
    private static final Duration HALF_LIFE = Duration.ofMillis((long) ChainDecay.HALF_LIFE_MS);

    private TestInputTopic<String, ConstraintSignal> signals;

    private TestOutputTopic<String, LayerState> states;

    @BeforeEach
    void setUp() {
        startTopology();
        loadReference();
    }

    /** A fresh topology (empty stores) and its topics, its wall clock at {@link #T0}. */
    private void startTopology() {
        open("chain-test", ChainStateTopology::buildTopology, T0);
        signals = topology.input(Topics.SIGNALS, ConstraintSignal.class);
        states = topology.output(Topics.CHAIN_STATE, LayerState.class);
        causes = topology.output(Topics.CHAIN_CAUSES, ChainCause.class);
    }

    /**
     * equipment -> memory -> packaging -> accelerators -> servers, and memory ->
     * accelerators directly.
     */
    private void loadReference() {
        layer("semiconductor-equipment", "Semiconductor equipment");
        layer("memory", "Memory", "semiconductor-equipment");
        layer("advanced-packaging", "Advanced packaging", "memory");
        layer("accelerators", "Accelerators", "memory", "advanced-packaging");
        layer("servers-systems", "Servers and systems", "accelerators");
        company("sk-hynix", "SK hynix", "memory", "000660", "XKRX", "000660.KS");
        company("samsung-electronics", "Samsung Electronics", "memory", "005930", "XKRX", "005930.KS");
        company("micron", "Micron Technology", "memory", "MU", "XNAS", "MU");
        company("nvidia", "Nvidia", "accelerators", "NVDA", "XNAS", "NVDA");
        company("dell", "Dell Technologies", "servers-systems", "DELL", "XNYS", "DELL");
        company("asml", "ASML", "semiconductor-equipment", "ASML", "XNAS", "ASML");
    }

    private void layer(String id, String name, String... upstream) {
        layers.pipeInput(id, ChainLayer.newBuilder().setId(id).setName(name).setUpstream(List.of(upstream)).build());
    }

    private void company(String id, String name, String layer, String symbol, String mic, String display) {
        companies.pipeInput(id, ChainFixtures.company(id, name, layer, symbol, mic, display));
    }

    private static ConstraintSignal signal(String id, String layer, Direction direction, int magnitude, Instant at) {
        return ChainFixtures.signal(id,
                "HBM supply " + direction.name().toLowerCase(java.util.Locale.ROOT) + ", report " + id,
                "SK hynix says HBM capacity is allocated.", List.of(layer), direction, magnitude, at);
    }

    private TestOutputTopic<String, ChainCause> causes;

    /**
     * The layer states published after the next publish interval (wall clock), latest per
     * layer.
     */
    private Map<String, LayerState> finalStates() {
        topology.advanceWallClockTime(ChainStateTopology.PUBLISH_INTERVAL);
        return states.readKeyValuesToMap();
    }

    @Test
    void aTighteningSignalMakesItsLayerTightWithOwnersAndCause() {
        signals.pipeInput("s1", signal("s1", "memory", Direction.TIGHTENING, 4, T0));
        Map<String, LayerState> s = finalStates();
        LayerState memory = s.get("memory");
        assertThat(memory.getStatus()).isEqualTo(LayerStatus.TIGHT);
        assertThat(memory.getPressure()).isEqualTo(4.0);
        assertThat(memory.getDirectPressure()).isEqualTo(4.0);
        assertThat(memory.getOwners()).extracting(LayerCompany::getSymbol)
            .containsExactly("MU", "005930.KS", "000660.KS");
        assertThat(memory.getCauses()).extracting(SignalCause::getSignalId).containsExactly("s1");
        assertThat(memory.getAsOf()).isEqualTo(T0);
        assertThat(memory.getTrend()).isEqualTo(Trend.RISING);
        assertThat(s.get("semiconductor-equipment").getPressure()).isZero();
        assertThat(s.get("semiconductor-equipment").getStatus()).isEqualTo(LayerStatus.BALANCED);
    }

    @Test
    void squeezePropagatesDownstreamWithAttenuationAlongTheShortestPath() {
        signals.pipeInput("s1", signal("s1", "memory", Direction.TIGHTENING, 4, T0));
        Map<String, LayerState> s = finalStates();
        assertThat(s.get("advanced-packaging").getSqueezeReceived()).isEqualTo(2.0);
        // memory -> accelerators is one hop; the path through packaging does not count
        // twice
        assertThat(s.get("accelerators").getSqueezeReceived()).isEqualTo(2.0);
        assertThat(s.get("servers-systems").getSqueezeReceived()).isEqualTo(1.0);
        LayerState servers = s.get("servers-systems");
        assertThat(servers.getSqueezedBy()).singleElement()
            .satisfies(src -> assertThat(src.getLayerId()).isEqualTo("memory"));
        assertThat(servers.getCauses()).singleElement().satisfies(c -> {
            assertThat(c.getSignalId()).isEqualTo("s1");
            assertThat(c.getOriginLayer()).isEqualTo("memory");
            assertThat(c.getHops()).isEqualTo(2);
            assertThat(c.getContribution()).isEqualTo(1.0);
        });
        assertThat(s.get("memory").getSqueezed())
            .extracting(q -> q.getCompany().getName(), SqueezedCompany::getViaLayer)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("Nvidia", "accelerators"),
                    org.assertj.core.groups.Tuple.tuple("Dell Technologies", "servers-systems"));
        assertThat(s.get("memory").getSqueezed()).allSatisfy(q -> assertThat(q.getCauses()).containsExactly("s1"));
        // upstream is not squeezed
        assertThat(s.get("semiconductor-equipment").getSqueezeReceived()).isZero();
    }

    @Test
    void pressureHalvesEachHalfLife() {
        signals.pipeInput("s1", signal("s1", "memory", Direction.TIGHTENING, 4, T0));
        assertThat(finalStates().get("memory").getStatus()).isEqualTo(LayerStatus.TIGHT);
        // a newer signal elsewhere moves "as of" forward by one half-life
        signals.pipeInput("s2", signal("s2", "semiconductor-equipment", Direction.TIGHTENING, 1, T0.plus(HALF_LIFE)));
        LayerState memory = finalStates().get("memory");
        assertThat(memory.getDirectPressure()).isEqualTo(2.0);
        assertThat(memory.getStatus()).isEqualTo(LayerStatus.BALANCED);
        assertThat(memory.getAsOf()).isEqualTo(T0.plus(HALF_LIFE));
        // memory inherits half of its only supplier's pressure: equipment's 1.0
        assertThat(memory.getPressure()).isEqualTo(2.5);
        assertThat(memory.getSqueezedBy()).singleElement().satisfies(src -> assertThat(src.getAmount()).isEqualTo(0.5));
        assertThat(ChainModel.contribution(signal("x", "memory", Direction.EASING, 3, T0),
                T0.plus(HALF_LIFE.multipliedBy(2)).toEpochMilli()))
            .isCloseTo(-0.75, within(1e-12));
    }

    @Test
    void aSignalWithAHorizonKeepsItsFullWeightUntilThenAndDecaysFromThen() {
        Instant until = T0.plus(Duration.ofDays(60));
        signals.pipeInput("held",
                ConstraintSignal.newBuilder(signal("held", "memory", Direction.TIGHTENING, 4, T0))
                    .setUntil(until)
                    .build());
        signals.pipeInput("plain", signal("plain", "semiconductor-equipment", Direction.TIGHTENING, 4, T0));
        // 30 days on (a newer signal elsewhere moves "as of"): the plain signal has
        // decayed to
        // 4 × 2^(−30 d / half-life), the one with a horizon still weighs 4 and keeps
        // memory tight
        signals.pipeInput("later",
                signal("later", "servers-systems", Direction.EASING, 1, T0.plus(Duration.ofDays(30))));
        Map<String, LayerState> s = finalStates();
        assertThat(s.get("memory").getDirectPressure()).isEqualTo(4.0);
        assertThat(s.get("memory").getStatus()).isEqualTo(LayerStatus.TIGHT);
        assertThat(s.get("semiconductor-equipment").getDirectPressure())
            .isCloseTo(4 * Math.pow(2, -30 / ChainDecay.HALF_LIFE_DAYS), within(0.0001));
        // (memory also inherits half of equipment's decayed pressure: only its own cause
        // is checked here)
        assertThat(s.get("memory").getCauses()).filteredOn(c -> c.getOriginLayer().equals("memory"))
            .singleElement()
            .satisfies(c -> {
                assertThat(c.getUntil()).isEqualTo(until.toEpochMilli());
                assertThat(c.getContribution()).isEqualTo(4.0);
            });
        assertThat(causes.readKeyValuesToMap().get("memory/held").getUntil()).isEqualTo(until);
        // the last day of the horizon: still full weight
        signals.pipeInput("edge", signal("edge", "servers-systems", Direction.EASING, 1, until));
        assertThat(finalStates().get("memory").getDirectPressure()).isEqualTo(4.0);
        // one half-life after the horizon ends it has halved, as a signal observed at the
        // horizon would
        signals.pipeInput("after", signal("after", "servers-systems", Direction.EASING, 1, until.plus(HALF_LIFE)));
        LayerState memory = finalStates().get("memory");
        assertThat(memory.getDirectPressure()).isEqualTo(2.0);
        assertThat(memory.getStatus()).isEqualTo(LayerStatus.BALANCED);
        // a horizon before the signal was observed changes nothing
        assertThat(ChainModel.contribution(ConstraintSignal.newBuilder(signal("x", "memory", Direction.EASING, 3, T0))
            .setUntil(T0.minus(Duration.ofDays(5)))
            .build(), T0.plus(HALF_LIFE.multipliedBy(2)).toEpochMilli())).isCloseTo(-0.75, within(1e-12));
    }

    @Test
    void aSignalAboutOneSegmentWeighsByItsShareInThatLayerAndInFullElsewhere() {
        // HBM sold out (5) while conventional DRAM prices fall (2): the memory market as
        // a
        // whole is balanced, 0.15 × 5 − 0.85 × 2 = −0.95, where the plain sum (3) would
        // call it tight on its smallest part
        signals.pipeInput("hbm",
                ConstraintSignal.newBuilder(signal("hbm", "memory", Direction.TIGHTENING, 5, T0))
                    .setLayerHints(List.of("memory", "accelerators"))
                    .setSegment("hbm")
                    .build());
        signals.pipeInput("dram",
                ConstraintSignal.newBuilder(signal("dram", "memory", Direction.EASING, 2, T0))
                    .setSegment("conventional")
                    .build());
        Map<String, LayerState> s = finalStates();
        LayerState memory = s.get("memory");
        assertThat(memory.getDirectPressure()).isEqualTo(-0.95);
        assertThat(memory.getStatus()).isEqualTo(LayerStatus.BALANCED);
        assertThat(memory.getCauses()).extracting(SignalCause::getSignalId, SignalCause::getContribution)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("dram", -1.7),
                    org.assertj.core.groups.Tuple.tuple("hbm", 0.75));
        // the layer's causes say with which share each counts there
        assertThat(memory.getCauses()).extracting(SignalCause::getShare).containsExactly(0.85, 0.15);
        // in accelerators, which has no segments, the HBM signal counts in full
        assertThat(s.get("accelerators").getDirectPressure()).isEqualTo(5.0);
        assertThat(s.get("accelerators").getCauses()).extracting(SignalCause::getShare).containsExactly(1.0);
        assertThat(s.get("accelerators").getStatus()).isEqualTo(LayerStatus.TIGHT);
        // the chain causes carry the share, and the sort key includes it
        Map<String, ChainCause> written = causes.readKeyValuesToMap();
        assertThat(written.get("memory/hbm").getShare()).isEqualTo(0.15);
        assertThat(written.get("memory/hbm").getWeight()).isCloseTo(ChainDecay.weight(5, T0.toEpochMilli(), 0.15),
                within(1e-12));
        assertThat(written.get("accelerators/hbm").getShare()).isEqualTo(1.0);
        assertThat(written.get("memory/dram").getShare()).isEqualTo(0.85);
        // both segments tight: the layer is tight too, 0.15 × 5 + 0.85 × 4 = 4.15
        signals.pipeInput("dram",
                ConstraintSignal.newBuilder(signal("dram", "memory", Direction.TIGHTENING, 4, T0))
                    .setSegment("conventional")
                    .setVersion(2)
                    .build());
        assertThat(finalStates().get("memory").getDirectPressure()).isEqualTo(4.15);
        // a signal about the whole layer counts in full beside them: + 1
        signals.pipeInput("all", signal("all", "memory", Direction.TIGHTENING, 1, T0));
        assertThat(finalStates().get("memory").getDirectPressure()).isEqualTo(5.15);
    }

    @Test
    void signalsThirtyHalfLivesOldAreForgotten() {
        signals.pipeInput("old", signal("old", "memory", Direction.TIGHTENING, 5, T0));
        signals.pipeInput("new", signal("new", "foundry-none", Direction.TIGHTENING, 1,
                T0.plus(HALF_LIFE.multipliedBy(30).plusDays(1))));
        var store = topology.<ConstraintSignal>store(ChainStateTopology.SIGNALS_STORE);
        assertThat(store.get("old")).as("kept for time travel").isNotNull();
        assertThat(store.get("new")).isNotNull();
        LayerState memory = finalStates().get("memory");
        assertThat(memory.getDirectPressure()).isZero();
        assertThat(memory.getCauses()).isEmpty();
        assertThat(memory.getAsOf()).isEqualTo(T0.plus(HALF_LIFE.multipliedBy(30).plusDays(1)));
        // the chain as of its own day still sees it
        var queries = new ChainQueries(new ChainQueries.Stores() {
            @Override
            public <V> org.apache.kafka.streams.state.ReadOnlyKeyValueStore<String, V> store(String name) {
                return topology.store(name);
            }
        });
        assertThat(queries.at(T0.toEpochMilli()).get("memory").getDirectPressure()).isEqualTo(5.0);

        // once the newest signal is more than KEPT_FOR_TIME_TRAVEL later, the store lets
        // it go
        signals.pipeInput("newer", signal("newer", "foundry-none", Direction.TIGHTENING, 1,
                T0.plus(ChainStateTopology.KEPT_FOR_TIME_TRAVEL).plus(Duration.ofDays(1))));
        assertThat(store.get("old")).isNull();
        assertThat(store.get("new")).as("younger than the limit").isNotNull();
    }

    @Test
    void aLaterEasingSignalRelaxesTheLayerAndItsDownstream() {
        signals.pipeInput("s1", signal("s1", "memory", Direction.TIGHTENING, 4, T0));
        signals.pipeInput("s2", signal("s2", "memory", Direction.EASING, 4, T0.plus(Duration.ofDays(1))));
        Map<String, LayerState> s = finalStates();
        LayerState memory = s.get("memory");
        assertThat(memory.getStatus()).isEqualTo(LayerStatus.BALANCED);
        assertThat(memory.getPressure()).isLessThan(0.0);
        assertThat(memory.getSqueezed()).isEmpty();
        assertThat(memory.getCauses()).extracting(SignalCause::getSignalId).containsExactly("s2", "s1");
        assertThat(s.get("accelerators").getSqueezeReceived()).isZero();
        assertThat(s.get("accelerators").getStatus()).isEqualTo(LayerStatus.BALANCED);
    }

    @Test
    void statusThresholdsAndTrend() {
        assertThat(ChainModel.status(-1.0)).isEqualTo(LayerStatus.LOOSE);
        assertThat(ChainModel.status(-0.99)).isEqualTo(LayerStatus.BALANCED);
        assertThat(ChainModel.status(2.99)).isEqualTo(LayerStatus.BALANCED);
        assertThat(ChainModel.status(3)).isEqualTo(LayerStatus.TIGHT);
        assertThat(ChainModel.status(6)).isEqualTo(LayerStatus.CRITICAL);
        signals.pipeInput("s1", signal("s1", "memory", Direction.EASING, 2, T0));
        signals.pipeInput("s2", signal("s2", "memory", Direction.EASING, 3, T0.plus(Duration.ofDays(8))));
        LayerState memory = finalStates().get("memory");
        assertThat(memory.getStatus()).isEqualTo(LayerStatus.LOOSE);
        assertThat(memory.getTrend()).isEqualTo(Trend.FALLING);
    }

    @Test
    void theSameSignalsInAnyArrivalOrderGiveTheSameState() {
        List<KeyValue<String, ConstraintSignal>> input = new ArrayList<>(List.of(
                KeyValue.pair("a", signal("a", "memory", Direction.TIGHTENING, 5, T0)),
                KeyValue.pair("b",
                        signal("b", "advanced-packaging", Direction.TIGHTENING, 3, T0.plus(Duration.ofDays(2)))),
                KeyValue.pair("c", signal("c", "memory", Direction.EASING, 2, T0.plus(Duration.ofDays(9)))),
                KeyValue.pair("d",
                        signal("d", "semiconductor-equipment", Direction.TIGHTENING, 4, T0.plus(Duration.ofHours(30)))),
                // an editor's correction of "a": a higher version wins whenever it
                // arrives
                KeyValue.pair("a",
                        ConstraintSignal.newBuilder(signal("a", "memory", Direction.TIGHTENING, 3, T0))
                            .setVersion(2)
                            .build())));
        signals.pipeKeyValueList(input);
        Map<String, LayerState> expected = finalStates();
        assertThat(expected.get("memory").getCauses()).anySatisfy(c -> {
            assertThat(c.getSignalId()).isEqualTo("a");
            assertThat(c.getContribution()).isLessThan(3.0);
        });

        Random random = new Random(42);
        for (int run = 0; run < 12; run++) {
            List<KeyValue<String, ConstraintSignal>> shuffled = new ArrayList<>(input);
            Collections.shuffle(shuffled, random);
            topology.close();
            startTopology();
            signals.pipeKeyValueList(shuffled); // signals before reference data, too
            loadReference();
            assertThat(finalStates()).as("order %s", shuffled.stream().map(kv -> kv.key).toList()).isEqualTo(expected);
        }
    }

    @Test
    void aHeldSignalIsReadButNotCountedUntilAReviewConfirmsIt() {
        SignalDecision held = SignalDecision.newBuilder()
            .setDecidedBy("text")
            .setConfidence(0.4)
            .setHeld(true)
            .setValues(List.of(DecidedValue.newBuilder()
                .setField("direction")
                .setValue("tightening")
                .setDecidedBy("text")
                .setEvidence(List.of(new Evidence("tightening cue", "headline", 11, 17, "supply")))
                .build()))
            .build();
        signals.pipeInput("s1",
                ConstraintSignal.newBuilder(signal("s1", "memory", Direction.TIGHTENING, 4, T0))
                    .setDecision(held)
                    .build());
        Read read = reads.readValue();
        assertThat(read.getSignal().getDecision().getHeld()).isTrue();
        assertThat(read.getSignal().getDirection()).isEqualTo("tightening");
        assertThat(read.getSections()).filteredOn(x -> x.getKey().equals("signal"))
            .singleElement()
            .satisfies(x -> assertThat(x.getBody()).contains("Held for review"));
        assertThat(finalStates().getOrDefault("memory", null)).satisfies(m -> {
            if (m != null) {
                assertThat(m.getPressure()).isZero();
            }
        });

        SignalDecision confirmed = SignalDecision.newBuilder(held)
            .setDecidedBy("editor")
            .setHeld(false)
            .setReview(new SignalReview("confirmed", T0.plusSeconds(60), 1L))
            .build();
        signals.pipeInput("s1",
                ConstraintSignal.newBuilder(signal("s1", "memory", Direction.TIGHTENING, 4, T0))
                    .setDecision(confirmed)
                    .setVersion(2)
                    .build());
        assertThat(finalStates().get("memory").getPressure()).isEqualTo(4.0);

        // held again (a corrected version that is itself held) stops counting
        signals.pipeInput("s1",
                ConstraintSignal.newBuilder(signal("s1", "memory", Direction.TIGHTENING, 4, T0))
                    .setDecision(held)
                    .setVersion(3)
                    .build());
        assertThat(finalStates().get("memory").getPressure()).isZero();
    }

    @Test
    void signalsBecomeTaggedSignalReads() {
        topology.input(Topics.REFERENCE_TERMS, TermUpdate.class)
            .pipeInput("hbm",
                    TermUpdate.newBuilder()
                        .setSlug("hbm")
                        .setTitle("HBM")
                        .setAliases(List.of("High Bandwidth Memory"))
                        .setDefinition("Stacked DRAM.")
                        .setLayerHint("memory")
                        .setDisclaimer("research, not advice")
                        .setVersion(1)
                        .setUpdatedAt(T0)
                        .build());
        signals.pipeInput("s1",
                ConstraintSignal.newBuilder(signal("s1", "memory", Direction.TIGHTENING, 4, T0))
                    .setLayerHints(List.of("memory", "advanced-packaging"))
                    .setVersion(7)
                    .build());
        Read read = reads.readValue();
        assertThat(read.getId()).isEqualTo("signal:s1");
        assertThat(read.getKind()).isEqualTo(ReadKind.SIGNAL);
        assertThat(read.getSlug()).isEqualTo("s1");
        assertThat(read.getTitle()).isEqualTo("HBM supply tightening, report s1");
        assertThat(read.getLayers()).filteredOn(l -> l.getPrimary())
            .extracting(l -> l.getId())
            .containsExactly("memory", "advanced-packaging");
        assertThat(read.getCompanies()).extracting(c -> c.getSymbol()).contains("000660.KS");
        assertThat(read.getTerms()).extracting(t -> t.getSlug()).contains("hbm");
        assertThat(read.getSources()).extracting(Source::getUrl).containsExactly("https://example.com/s1");
        assertThat(read.getDisclaimer()).contains("research, not advice");
        assertThat(read.getVersion()).isGreaterThanOrEqualTo(7L);

        signals.pipeInput("s1", (ConstraintSignal) null);
        assertThat(reads.readKeyValue()).satisfies(kv -> {
            assertThat(kv.key).isEqualTo("signal:s1");
            assertThat(kv.value).isNull();
        });
    }

    @Test
    void aSignalArrivingRightAfterAReferenceChangeDoesNotSwallowTheRetagOfTheOthers() {
        signals.pipeInput("s1",
                ConstraintSignal.newBuilder(signal("s1", "memory", Direction.TIGHTENING, 3, T0))
                    .setBody("Celestica says switch builds slip.")
                    .build());
        assertThat(reads.readValue().getCompanies()).extracting(c -> c.getSymbol()).doesNotContain("CLS");

        company("celestica", "Celestica", "servers-systems", "CLS", "XNYS", "CLS");
        // Tagged before the once-a-second check: it rebuilds the dictionary on its own.
        signals.pipeInput("s2", signal("s2", "memory", Direction.TIGHTENING, 2, T0));
        reads.readValuesToList();
        topology.advanceWallClockTime(RetaggingProcessor.RETAG_CHECK.plusMillis(10));

        assertThat(reads.readKeyValuesToMap().get("signal:s1").getCompanies()).extracting(c -> c.getSymbol())
            .contains("CLS");
    }

    @Test
    void aLayerListsItsTopCausesAndSumsTheRest() {
        int n = ChainModel.TOP_CAUSES + 30;
        for (int i = 0; i < n; i++) {
            Direction d = i % 3 == 0 ? Direction.EASING : Direction.TIGHTENING;
            signals.pipeInput("s" + i, signal("s" + i, "memory", d, 1 + i % 5, T0.plus(Duration.ofHours(i))));
        }
        Map<String, LayerState> s = finalStates();
        LayerState memory = s.get("memory");
        assertThat(memory.getCauses()).hasSize(ChainModel.TOP_CAUSES);
        assertThat(memory.getOtherCauseCount()).isEqualTo(n - ChainModel.TOP_CAUSES);
        assertThat(memory.getSignalCount()).isEqualTo(n);
        double listed = memory.getCauses().stream().mapToDouble(SignalCause::getContribution).sum();
        assertThat(listed + memory.getOtherCauseTotal()).isCloseTo(memory.getPressure(), within(0.0011));
        // largest absolute contribution first
        List<Double> sizes = memory.getCauses().stream().map(c -> Math.abs(c.getContribution())).toList();
        assertThat(sizes).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        // downstream: memory's causes one hop on, counted in the rest
        LayerState packaging = s.get("advanced-packaging");
        assertThat(packaging.getCauses()).hasSize(ChainModel.TOP_CAUSES)
            .allSatisfy(c -> assertThat(c.getHops()).isEqualTo(1));
        assertThat(packaging.getOtherCauseCount()).isEqualTo(n - ChainModel.TOP_CAUSES);
        assertThat(packaging.getSqueezedBy()).singleElement().satisfies(src -> assertThat(src.getHops()).isEqualTo(1));
        assertThat(s.get("memory").getSqueezed())
            .allSatisfy(q -> assertThat(q.getCauses()).hasSizeLessThanOrEqualTo(ChainModel.SQUEEZE_CAUSES));
    }

    @Test
    void everySignalIsWrittenAsAChainCausePerLayerAndRemovedWithATombstone() {
        signals.pipeInput("s1",
                ConstraintSignal.newBuilder(signal("s1", "memory", Direction.TIGHTENING, 4, T0))
                    .setLayerHints(List.of("memory", "advanced-packaging", "no-such-layer"))
                    .build());
        Map<String, ChainCause> written = causes.readKeyValuesToMap();
        assertThat(written).containsOnlyKeys("memory/s1", "advanced-packaging/s1");
        assertThat(written.get("memory/s1").getMagnitude()).isEqualTo(4);
        // a correction that names one layer only: the other is tombstoned
        signals.pipeInput("s1",
                ConstraintSignal.newBuilder(signal("s1", "memory", Direction.TIGHTENING, 2, T0)).setVersion(2).build());
        List<KeyValue<String, ChainCause>> next = causes.readKeyValuesToList();
        assertThat(next).anySatisfy(kv -> {
            assertThat(kv.key).isEqualTo("advanced-packaging/s1");
            assertThat(kv.value).isNull();
        });
        assertThat(next).anySatisfy(kv -> assertThat(kv.value.getMagnitude()).isEqualTo(2));
        signals.pipeInput("s1", (ConstraintSignal) null);
        assertThat(causes.readKeyValuesToMap()).containsEntry("memory/s1", null);
    }

    @Test
    void theIncrementalBookAgreesWithAComputationFromScratch() {
        Random random = new Random(7);
        String[] layerIds = { "semiconductor-equipment", "memory", "advanced-packaging", "accelerators",
                "servers-systems", "unknown" };
        Map<String, ConstraintSignal> kept = new java.util.TreeMap<>();
        for (int i = 0; i < 400; i++) {
            String id = "s" + random.nextInt(150);
            if (random.nextInt(10) == 0) {
                signals.pipeInput(id, (ConstraintSignal) null);
                kept.remove(id);
                continue;
            }
            long version = kept.containsKey(id) ? kept.get(id).getVersion() + 1 : 1;
            List<String> hints = new ArrayList<>();
            for (int h = 0; h <= random.nextInt(2); h++) {
                hints.add(layerIds[random.nextInt(layerIds.length)]);
            }
            Instant at = T0.plus(Duration.ofMinutes(random.nextInt(60 * 24 * 60)));
            // a third carry a horizon, up to 90 days after they were observed
            Instant until = random.nextInt(3) == 0 ? at.plus(Duration.ofMinutes(random.nextInt(90 * 24 * 60))) : null;
            // some speak of one segment (a segment of another layer, or none known,
            // weighs
            // in full)
            String[] segments = { "hbm", "conventional", "mature", "no-such-segment" };
            String segment = random.nextInt(3) == 0 ? segments[random.nextInt(segments.length)] : null;
            ConstraintSignal s = ConstraintSignal
                .newBuilder(signal(id, hints.get(0), random.nextBoolean() ? Direction.TIGHTENING : Direction.EASING,
                        1 + random.nextInt(5), at))
                .setLayerHints(hints)
                .setVersion(version)
                .setUntil(until)
                .setSegment(segment)
                .build();
            signals.pipeInput(id, s);
            kept.put(id, s);
            if (i % 50 == 0) {
                topology.advanceWallClockTime(ChainStateTopology.PUBLISH_INTERVAL);
            }
        }
        var layerStore = topology.<ChainLayer>store(ChainStateTopology.REFERENCE_STORES.layers());
        var companyStore = topology.<Company>store(ChainStateTopology.REFERENCE_STORES.companies());
        ChainModel model = new ChainModel(io.chainfeed.streams.reference.ReferenceStores.values(layerStore),
                io.chainfeed.streams.reference.ReferenceStores.values(companyStore));
        Map<String, LayerState> fromScratch = model.compute(kept.values());
        Map<String, LayerState> published = finalStates();
        assertThat(published).isEqualTo(fromScratch);
        // and the direct pressure against the definition, summed signal by signal
        long asOf = kept.values().stream().mapToLong(x -> x.getObservedAt().toEpochMilli()).max().orElseThrow();
        for (String layer : List.of("semiconductor-equipment", "memory", "advanced-packaging", "accelerators")) {
            double raw = rawPressure(kept.values(), layer, asOf);
            assertThat(published.get(layer).getRawDirectPressure()).as(layer).isCloseTo(raw, within(0.00011));
            assertThat(published.get(layer).getDirectPressure()).as(layer)
                .isCloseTo(io.chainfeed.chain.ChainDecay.softCap(raw), within(0.00011));
        }
        // as of later instants too, as the horizons pass (the book advanced, against the
        // definition)
        for (int days : new int[] { 10, 40, 75, 120 }) {
            long at = asOf + Duration.ofDays(days).toMillis();
            Map<String, LayerState> then = model.statesAt(kept.values(), at);
            for (String layer : List.of("semiconductor-equipment", "memory", "advanced-packaging", "accelerators")) {
                double raw = rawPressure(kept.values(), layer, at);
                assertThat(then.get(layer).getRawDirectPressure()).as(layer + " +" + days + " d")
                    .isCloseTo(raw, within(0.00011));
            }
        }
    }

    /**
     * A layer's direct pressure before the soft cap, by the definition: the sum of the
     * contributions, at {@code at}, of the signals naming it.
     */
    private static double rawPressure(Collection<ConstraintSignal> signals, String layer, long at) {
        return signals.stream()
            .filter(x -> x.getLayerHints().contains(layer))
            .mapToDouble(x -> ChainModel.contribution(x, layer, at))
            .sum();
    }

    /** The state reads written so far, in order. */
    private List<Read> stateReads() {
        return reads.readValuesToList().stream().filter(r -> r != null && r.getKind() == ReadKind.STATE).toList();
    }

    @Test
    void aChangeOfStatusIsWrittenAsAStateReadWithCausesOwnersAndSqueezedCompanies() {
        signals.pipeInput("s1", signal("s1", "memory", Direction.TIGHTENING, 5, T0));
        finalStates();
        List<Read> announced = stateReads();
        assertThat(announced).singleElement().satisfies(r -> {
            assertThat(r.getId()).isEqualTo("state:memory:1");
            assertThat(r.getKind()).isEqualTo(ReadKind.STATE);
            assertThat(r.getSlug()).isEqualTo("memory");
            assertThat(r.getTitle()).isEqualTo("Memory turned tight");
            assertThat(r.getSummary()).contains("from 0.00 to 5.00").contains("HBM supply tightening, report s1");
            assertThat(r.getSections()).extracting(io.chainfeed.avro.Section::getKey)
                .containsExactly("change", "causes", "owners", "squeezed");
            assertThat(r.getSections().get(0).getBody()).contains("was balanced at pressure 0.00")
                .contains("now tight at 5.00");
            assertThat(r.getSections().get(1).getBody()).contains("HBM supply tightening, report s1 (Example): +5.00");
            assertThat(r.getLayers()).singleElement().satisfies(l -> {
                assertThat(l.getId()).isEqualTo("memory");
                assertThat(l.getPrimary()).isTrue();
                assertThat(l.getEvidence()).extracting(io.chainfeed.avro.Evidence::getRule)
                    .containsExactly("state-cause");
            });
            assertThat(r.getCompanies()).filteredOn(c -> c.getPrimary())
                .extracting(c -> c.getSymbol())
                .containsExactlyInAnyOrder("MU", "005930.KS", "000660.KS");
            assertThat(r.getCompanies()).filteredOn(c -> !c.getPrimary())
                .extracting(c -> c.getSymbol(), c -> c.getMic())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("NVDA", "XNAS"),
                        org.assertj.core.groups.Tuple.tuple("DELL", "XNYS"));
            assertThat(r.getSources()).extracting(Source::getUrl).containsExactly("https://example.com/s1");
            assertThat(r.getDisclaimer()).isEqualTo(StateReads.DISCLAIMER);
            assertThat(r.getSequence()).isEqualTo(1L);
            assertThat(r.getObservedAt()).isEqualTo(T0);
        });
        // nothing changed: a reference change recomputes and republishes, but announces
        // nothing
        company("kioxia", "Kioxia", "memory", "285A", "XTKS", "285A.T");
        topology.advanceWallClockTime(RetaggingProcessor.RETAG_CHECK.plusMillis(10));
        assertThat(stateReads()).isEmpty();
        // an easing signal a day later: balanced again, the layer's second change
        signals.pipeInput("s2", signal("s2", "memory", Direction.EASING, 5, T0.plus(Duration.ofDays(1))));
        finalStates();
        assertThat(stateReads()).singleElement().satisfies(r -> {
            assertThat(r.getId()).isEqualTo("state:memory:2");
            assertThat(r.getTitle()).isEqualTo("Memory turned balanced");
            assertThat(r.getSections().get(3).getBody()).startsWith("No one");
        });
        var store = topology.<String>store(ChainStateTopology.ANNOUNCED_STORE);
        assertThat(store.get("memory")).isEqualTo("BALANCED 2");
    }

    @Test
    void aReplayedPastIsRecordedWithoutStateReadsAndTheFirstLiveChangeIsAnnouncedFromIt() {
        // the bundled history on a fresh start: memory turns tight, then balanced, then
        // critical, all long ago
        Instant past = T0.minus(Duration.ofDays(400));
        signals.pipeInput("h1", signal("h1", "memory", Direction.TIGHTENING, 4, past));
        finalStates();
        signals.pipeInput("h2", signal("h2", "memory", Direction.EASING, 4, past.plus(Duration.ofDays(1))));
        finalStates();
        signals.pipeInput("h3", signal("h3", "memory", Direction.TIGHTENING, 5, past.plus(Duration.ofDays(2))));
        signals.pipeInput("h4", signal("h4", "memory", Direction.TIGHTENING, 5, past.plus(Duration.ofDays(2))));
        assertThat(finalStates().get("memory").getStatus()).isEqualTo(LayerStatus.CRITICAL);
        assertThat(stateReads()).as("changes of 400 days ago are not news").isEmpty();
        assertThat(topology.<String>store(ChainStateTopology.ANNOUNCED_STORE).get("memory"))
            .isEqualTo(new StateReads.Announced(LayerStatus.CRITICAL, 0).encode());

        // a signal within the last seven days: the chain is current; memory falls from
        // the replayed critical,
        // and the layers it squeezed in the replay (recorded critical too) turn balanced
        signals.pipeInput("live", signal("live", "memory", Direction.EASING, 5,
                T0.minus(ChainStateTopology.ANNOUNCED_WITHIN).plus(Duration.ofHours(1))));
        assertThat(finalStates().get("memory").getStatus()).isEqualTo(LayerStatus.LOOSE);
        assertThat(stateReads()).extracting(Read::getId, Read::getTitle)
            .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("state:memory:1", "Memory turned loose"),
                    org.assertj.core.groups.Tuple.tuple("state:advanced-packaging:1",
                            "Advanced packaging turned balanced"),
                    org.assertj.core.groups.Tuple.tuple("state:accelerators:1", "Accelerators turned balanced"));
    }

    @Test
    void aPressureWobblingAtAThresholdIsAnnouncedOnce() {
        // memory's direct pressure: 3 (tight by status, not yet 0.25 past the threshold:
        // nothing announced)
        signals.pipeInput("a", signal("a", "memory", Direction.TIGHTENING, 3, T0));
        assertThat(finalStates().get("memory").getStatus()).isEqualTo(LayerStatus.TIGHT);
        assertThat(stateReads()).isEmpty();
        // 3 + 1 = 4: announced tight
        signals.pipeInput("b", signal("b", "memory", Direction.TIGHTENING, 1, T0));
        finalStates();
        assertThat(stateReads()).extracting(Read::getId).containsExactly("state:memory:1");
        // down to 3, to 2.75 (balanced by status, but not more than 0.25 below 3) and up
        // again: nothing
        // -1 at T0
        signals.pipeInput("c", signal("c", "memory", Direction.EASING, 2, T0.minus(HALF_LIFE)));
        assertThat(finalStates().get("memory").getPressure()).isEqualTo(3.0);
        signals.pipeInput("d", signal("d", "memory", Direction.EASING, 1, T0.minus(HALF_LIFE.multipliedBy(2)))); // -0.25
        LayerState wobbled = finalStates().get("memory");
        assertThat(wobbled.getPressure()).isEqualTo(2.75);
        assertThat(wobbled.getStatus()).isEqualTo(LayerStatus.BALANCED);
        signals.pipeInput("d", (ConstraintSignal) null);
        finalStates();
        signals.pipeInput("d",
                ConstraintSignal
                    .newBuilder(signal("d", "memory", Direction.EASING, 1, T0.minus(HALF_LIFE.multipliedBy(2))))
                    .setVersion(2)
                    .build());
        finalStates();
        assertThat(stateReads()).isEmpty();
        // clearly below: 2.75 - 0.5 = 2.25 announces balanced
        signals.pipeInput("e", signal("e", "memory", Direction.EASING, 2, T0.minus(HALF_LIFE.multipliedBy(2))));
        finalStates();
        assertThat(stateReads()).extracting(Read::getId, Read::getTitle)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("state:memory:2", "Memory turned balanced"));
    }

    @Test
    void repeatsOfOneStoryCountOnceWhateverTheirOrder() {
        List<KeyValue<String, ConstraintSignal>> input = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            // different ids and URLs, the same headline from the same source
            input.add(KeyValue.pair("r" + i,
                    ConstraintSignal
                        .newBuilder(signal("r" + i, "memory", Direction.TIGHTENING, 2, T0.plus(Duration.ofMinutes(i))))
                        .setHeadline("HBM contract prices rise")
                        .build()));
        }
        // a different headline from another source on the same URL as r49: the same story
        // too
        input.add(KeyValue.pair("u",
                ConstraintSignal
                    .newBuilder(signal("u", "memory", Direction.TIGHTENING, 2, T0.plus(Duration.ofMinutes(60))))
                    .setSource(new Source("Other", "https://EXAMPLE.com/r49/#top"))
                    .build()));
        signals.pipeInput(input.get(0).key, input.get(0).value);
        double first = finalStates().get("memory").getPressure();
        assertThat(first).isEqualTo(2.0);
        signals.pipeKeyValueList(input);
        LayerState memory = finalStates().get("memory");
        // the newest of them counts, at full weight
        assertThat(memory.getPressure()).isEqualTo(first);
        assertThat(memory.getSignalCount()).isEqualTo(1);
        assertThat(memory.getCauses()).extracting(SignalCause::getSignalId).containsExactly("u");
        Map<String, ChainCause> listed = causes.readKeyValuesToMap();
        // the repeats' causes were tombstoned
        listed.values().removeIf(java.util.Objects::isNull);
        assertThat(listed).containsOnlyKeys("memory/u");

        // removing the leader lets the next one count: the state is that of the set, not
        // of the order
        signals.pipeInput("u", (ConstraintSignal) null);
        Map<String, LayerState> afterRemoval = finalStates();
        assertThat(afterRemoval.get("memory").getCauses()).extracting(SignalCause::getSignalId).containsExactly("r49");
        Random random = new Random(5);
        List<KeyValue<String, ConstraintSignal>> kept = new ArrayList<>(input.subList(0, 50));
        Collections.shuffle(kept, random);
        topology.close();
        startTopology();
        loadReference();
        signals.pipeKeyValueList(kept);
        assertThat(finalStates().get("memory")).isEqualTo(afterRemoval.get("memory"));
    }

    @Test
    void aLayersPressureSaturatesUnderManySignals() {
        for (int i = 0; i < 3; i++) {
            signals.pipeInput("m" + i, signal("m" + i, "memory", Direction.TIGHTENING, 5, T0));
        }
        for (int i = 0; i < 2000; i++) {
            signals.pipeInput("e" + i, signal("e" + i, "semiconductor-equipment", Direction.EASING, 5, T0));
        }
        Map<String, LayerState> s = finalStates();
        LayerState memory = s.get("memory");
        assertThat(memory.getRawDirectPressure()).isEqualTo(15.0);
        assertThat(memory.getDirectPressure()).isEqualTo(9.9121); // 6 + 4 tanh(9 / 4)
        assertThat(memory.getStatus()).isEqualTo(LayerStatus.CRITICAL);
        LayerState equipment = s.get("semiconductor-equipment");
        assertThat(equipment.getRawDirectPressure()).isEqualTo(-10_000.0);
        // to 4 decimals
        assertThat(equipment.getDirectPressure()).isEqualTo(-io.chainfeed.chain.ChainDecay.SOFT_CAP);
        assertThat(equipment.getStatus()).isEqualTo(LayerStatus.LOOSE);
        // the causes still add up to the pressure: each carries the cap's factor
        double listed = memory.getCauses().stream().mapToDouble(SignalCause::getContribution).sum();
        assertThat(listed + memory.getOtherCauseTotal()).isCloseTo(memory.getPressure(), within(0.0011));
        assertThat(memory.getCauses().get(0).getContribution()).isCloseTo(5 * memory.getDirectScale(), within(0.0001));
        // downstream gets the capped pressure, halved per hop
        assertThat(s.get("advanced-packaging").getSqueezeReceived()).isCloseTo(memory.getDirectPressure() / 2,
                within(0.0001));
    }

    /**
     * Under the bounded rule of issue 37 a balanced supplier passes on half its pressure
     * too (only a loose one passes on nothing), but only a layer that is tight or
     * critical on its own lists the companies downstream of it as squeezed.
     */
    @Test
    void onlyATightOrCriticalLayerListsItsDownstreamCompaniesAsSqueezed() {
        signals.pipeInput("s1", signal("s1", "memory", Direction.TIGHTENING, 2, T0));
        signals.pipeInput("s2", signal("s2", "accelerators", Direction.EASING, 1, T0));
        Map<String, LayerState> s = finalStates();
        assertThat(s.get("memory").getStatus()).isEqualTo(LayerStatus.BALANCED);
        assertThat(s.get("memory").getSqueezed()).isEmpty();
        assertThat(s.get("advanced-packaging").getSqueezedBy()).singleElement()
            .satisfies(src -> assertThat(src.getAmount()).isEqualTo(1.0));
        // accelerators: its own -1 plus half of its tightest supplier, memory (2)
        assertThat(s.get("accelerators").getSqueezeReceived()).isEqualTo(1.0);
        assertThat(s.get("accelerators").getPressure()).isZero();
        // servers: its only supplier, accelerators, is at 0, so nothing is passed on
        assertThat(s.get("servers-systems").getSqueezedBy()).isEmpty();
        assertThat(s.get("servers-systems").getSqueezeReceived()).isZero();
        // tight: now it squeezes; the loose-ish accelerators layer is downstream, so it
        // is squeezed too
        signals.pipeInput("s3", signal("s3", "memory", Direction.TIGHTENING, 2, T0));
        s = new java.util.HashMap<>(s);
        // only the layers whose state changed are published again
        s.putAll(finalStates());
        assertThat(s.get("memory").getStatus()).isEqualTo(LayerStatus.TIGHT);
        assertThat(s.get("accelerators").getSqueezedBy()).extracting(src -> src.getLayerId()).containsExactly("memory");
        assertThat(s.get("memory").getSqueezed()).extracting(q -> q.getCompany().getCompanyId())
            .containsExactly("nvidia", "dell");
        assertThat(s.get("semiconductor-equipment").getSqueezedBy()).isEmpty();
        assertThat(s.get("accelerators").getSqueezed()).isEmpty();
    }

}
