package io.chainfeed.streams.chain;

import static io.chainfeed.streams.reference.ReferenceStores.values;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.reference.ReferenceStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The chain-state topology (its own application id, run beside the tagging topology).
 *
 * <pre>
 * {@value #LAYERS_TOPIC}    ──► global store {@value #LAYERS_STORE}
 * {@value #COMPANIES_TOPIC} ──► global store {@value #COMPANIES_STORE}
 * {@value #REFERENCE_TERMS_TOPIC} ──► global store {@value #TERMS_STORE} (glossary terms, for tagging signal reads)
 * {@value #SIGNALS_TOPIC} (signal id -> ConstraintSignal)
 *    ├─► repartition to one partition ──► chain state ──► {@value #STATE_TOPIC} (layer id -> LayerState)
 *    └─► tag ──► {@value #READS_TOPIC} (signal:&lt;id&gt; -> Read, kind SIGNAL)
 * </pre>
 *
 * The chain-state processor keeps every signal (latest version per id; a tombstone removes one) in
 * {@value #SIGNALS_STORE} and, on each change, recomputes the whole chain with {@link ChainModel}
 * from that set (signals older than {@value ChainModel#FORGET_AFTER_HALF_LIVES} half-lives before the
 * newest one are dropped from it: they weigh nothing any more); it emits the layers whose state differs from what it last emitted (kept in
 * {@value #STATE_STORE}). The state is a function of the set of signals, not of their order. When
 * reference data changes (checked once a second, wall clock) the chain is recomputed too, and the
 * signal reads are re-tagged.
 */
public final class ChainStateTopology {
    public static final String SIGNALS_TOPIC = Topics.SIGNALS;
    public static final String STATE_TOPIC = Topics.CHAIN_STATE;
    public static final String READS_TOPIC = Topics.READS;
    public static final String LAYERS_TOPIC = Topics.LAYERS;
    public static final String COMPANIES_TOPIC = Topics.COMPANIES;
    public static final String LAYERS_STORE = "chain-layers-store";
    public static final String COMPANIES_STORE = "chain-companies-store";
    public static final String REFERENCE_TERMS_TOPIC = Topics.REFERENCE_TERMS;
    public static final String TERMS_STORE = "chain-terms-store";
    public static final String SIGNALS_STORE = "chain-signals-store";
    public static final String STATE_STORE = "chain-state-store";
    public static final String SIGNAL_READS_STORE = "signal-reads-store";
    /** How often processors check for changed reference data (wall clock). */
    static final Duration REFERENCE_CHECK = Duration.ofSeconds(1);

    private ChainStateTopology() {
    }

    /**
     * Builds the topology; pure, no I/O.
     *
     * @param config streams config (not read; kept for symmetry with other topologies)
     * @return the topology, every processor, source, sink and store named
     */
    public static Topology buildTopology(Properties config) {
        AvroSerde<ChainLayer> layerSerde = AvroSerde.of(ChainLayer.class);
        AvroSerde<Company> companySerde = AvroSerde.of(Company.class);
        AvroSerde<ConstraintSignal> signalSerde = AvroSerde.of(ConstraintSignal.class);
        AvroSerde<LayerState> stateSerde = AvroSerde.of(LayerState.class);
        AvroSerde<Read> readSerde = AvroSerde.of(Read.class);
        StreamsBuilder builder = new StreamsBuilder();
        ReferenceStores.Clock reference = ReferenceStores.addTo(builder, "chain-", "chain-").clock();

        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(SIGNALS_STORE), Serdes.String(), signalSerde));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(STATE_STORE), Serdes.String(), stateSerde));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(SIGNAL_READS_STORE), Serdes.String(), signalSerde));

        KStream<String, ConstraintSignal> signals = builder.stream(SIGNALS_TOPIC,
                Consumed.with(Serdes.String(), signalSerde).withName("signals-source"));
        signals.repartition(Repartitioned.with(Serdes.String(), signalSerde).withName("chain-signals")
                        .withNumberOfPartitions(1))
                .process(() -> new ChainStateProcessor(reference), Named.as("chain-state"), SIGNALS_STORE, STATE_STORE)
                .to(STATE_TOPIC, Produced.with(Serdes.String(), stateSerde).withName("chain-state-sink"));
        signals.process(() -> new SignalReadProcessor(reference), Named.as("tag-signals"), SIGNAL_READS_STORE)
                .to(READS_TOPIC, Produced.with(Serdes.String(), readSerde).withName("signal-reads-sink"));
        return builder.build();
    }

    /** Keeps the set of signals and emits the layers whose recomputed state changed. */
    static final class ChainStateProcessor implements Processor<String, ConstraintSignal, String, LayerState> {
        private final ReferenceStores.Clock reference;
        private ProcessorContext<String, LayerState> context;
        private KeyValueStore<String, ChainLayer> layers;
        private KeyValueStore<String, Company> companies;
        private KeyValueStore<String, ConstraintSignal> signals;
        private KeyValueStore<String, LayerState> states;
        private ChainModel model;
        private long builtFor = -1;

        ChainStateProcessor(ReferenceStores.Clock reference) {
            this.reference = reference;
        }

        @Override
        public void init(ProcessorContext<String, LayerState> context) {
            this.context = context;
            layers = context.getStateStore(LAYERS_STORE);
            companies = context.getStateStore(COMPANIES_STORE);
            signals = context.getStateStore(SIGNALS_STORE);
            states = context.getStateStore(STATE_STORE);
            context.schedule(REFERENCE_CHECK, PunctuationType.WALL_CLOCK_TIME, now -> {
                if (reference.generation() != builtFor) {
                    recompute(now);
                }
            });
        }

        @Override
        public void process(Record<String, ConstraintSignal> record) {
            if (record.key() == null) {
                return;
            }
            ConstraintSignal incoming = record.value();
            if (incoming == null) {
                if (signals.delete(record.key()) == null) {
                    return;
                }
            } else {
                ConstraintSignal kept = signals.get(record.key());
                if (kept != null && newer(kept, incoming)) {
                    return; // an older or equal version arrived late: the set does not change
                }
                signals.put(record.key(), incoming);
            }
            recompute(record.timestamp());
        }

        /** Whether {@code a} wins over {@code b}: higher version, then larger encoded form, as a tie-break. */
        private static boolean newer(ConstraintSignal a, ConstraintSignal b) {
            if (a.getVersion() != b.getVersion()) {
                return a.getVersion() > b.getVersion();
            }
            return a.toString().compareTo(b.toString()) >= 0;
        }

        private void recompute(long timestamp) {
            long generation = reference.generation();
            if (model == null || generation != builtFor) {
                model = new ChainModel(values(layers), values(companies));
                builtFor = generation;
            }
            List<ConstraintSignal> all = values(signals);
            long asOf = all.stream().mapToLong(x -> x.getObservedAt().toEpochMilli()).max().orElse(0L);
            List<ConstraintSignal> kept = new ArrayList<>();
            for (ConstraintSignal s : all) {
                if (ChainModel.forgotten(s, asOf)) {
                    signals.delete(s.getId()); // weighs nothing any more; asOf comes from newer signals
                } else {
                    kept.add(s);
                }
            }
            Map<String, LayerState> next = model.compute(kept);
            List<String> gone = new ArrayList<>();
            try (KeyValueIterator<String, LayerState> it = states.all()) {
                it.forEachRemaining(kv -> {
                    if (!next.containsKey(kv.key)) {
                        gone.add(kv.key);
                    }
                });
            }
            for (String id : gone) {
                states.delete(id);
                context.forward(new Record<>(id, null, timestamp));
            }
            next.forEach((id, state) -> {
                if (!state.equals(states.get(id))) {
                    states.put(id, state);
                    context.forward(new Record<>(id, state, timestamp));
                }
            });
        }
    }

    /** Tags each signal into a read, keeps it, and re-tags every kept signal when reference data changes. */
    static final class SignalReadProcessor implements Processor<String, ConstraintSignal, String, Read> {
        private final ReferenceStores.Clock reference;
        private ProcessorContext<String, Read> context;
        private KeyValueStore<String, ChainLayer> layers;
        private KeyValueStore<String, Company> companies;
        private KeyValueStore<String, TermUpdate> terms;
        private KeyValueStore<String, ConstraintSignal> signals;
        private SignalReads reads;
        private long builtFor = -1;
        /** The generation all kept signals were last re-tagged for (apart from tag()'s lazy rebuild). */
        private long retaggedFor = -1;

        SignalReadProcessor(ReferenceStores.Clock reference) {
            this.reference = reference;
        }

        @Override
        public void init(ProcessorContext<String, Read> context) {
            this.context = context;
            layers = context.getStateStore(LAYERS_STORE);
            companies = context.getStateStore(COMPANIES_STORE);
            terms = context.getStateStore(TERMS_STORE);
            signals = context.getStateStore(SIGNAL_READS_STORE);
            retaggedFor = reference.generation();
            context.schedule(REFERENCE_CHECK, PunctuationType.WALL_CLOCK_TIME, now -> {
                // Compared with retaggedFor, not builtFor: a signal tagged between a reference change and
                // this check rebuilds the dictionary but must not swallow the re-tag of the others.
                long generation = reference.generation();
                if (generation == retaggedFor) {
                    return;
                }
                retaggedFor = generation;
                try (KeyValueIterator<String, ConstraintSignal> it = signals.all()) {
                    while (it.hasNext()) {
                        Read read = tag(it.next().value);
                        context.forward(new Record<>(read.getId(), read, now));
                        io.chainfeed.streams.StreamsMeters.tagged("signal", 1);
                    }
                }
            });
        }

        @Override
        public void process(Record<String, ConstraintSignal> record) {
            if (record.key() == null) {
                return;
            }
            if (record.value() == null) {
                signals.delete(record.key());
                context.forward(record.withKey(SignalReads.readId(record.key())).withValue(null));
                return;
            }
            ConstraintSignal kept = signals.get(record.key());
            if (kept != null && kept.getVersion() > record.value().getVersion()) {
                return;
            }
            signals.put(record.key(), record.value());
            Read read = tag(record.value());
            context.forward(record.withKey(read.getId()).withValue(read));
            io.chainfeed.streams.StreamsMeters.tagged("signal", 1);
        }

        private Read tag(ConstraintSignal signal) {
            long generation = reference.generation();
            if (reads == null || generation != builtFor) {
                reads = new SignalReads(values(layers), values(companies), values(terms));
                builtFor = generation;
            }
            Read read = reads.read(signal);
            read.setVersion(Math.max(read.getVersion(), reference.newestTimestamp()));
            return read;
        }
    }
}
