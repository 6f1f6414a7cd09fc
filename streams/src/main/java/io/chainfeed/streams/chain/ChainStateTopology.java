package io.chainfeed.streams.chain;

import static io.chainfeed.streams.reference.ReferenceStores.values;

import io.chainfeed.avro.ChainCause;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
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
 *    ├─► repartition to one partition ──► chain state ─┬─► {@value #STATE_TOPIC} (layer id -> LayerState)
 *    │                                                  └─► {@value #CAUSES_TOPIC} (layer id/signal id -> ChainCause)
 *    └─► tag ──► {@value #READS_TOPIC} (signal:&lt;id&gt; -> Read, kind SIGNAL)
 * </pre>
 *
 * The chain-state processor keeps every signal (latest version per id; a tombstone removes one) in
 * {@value #SIGNALS_STORE} and, beside it, a {@link ChainBook}: per layer the decayed sums and the
 * signals in order of weight, updated per signal in O(layers it names), never by a scan of all
 * kept signals (the book is rebuilt from the store once when the task starts and when reference
 * data changes). Signals older than {@value ChainModel#FORGET_AFTER_HALF_LIVES} half-lives before
 * the newest one are dropped: they weigh nothing any more. Each signal change also writes one
 * {@code ChainCause} per layer the signal names to {@value #CAUSES_TOPIC} (key
 * {@code <layer id>/<signal id>}; tombstones for what it no longer names or when it is removed or
 * forgotten), from which the api pages a layer's full cause list.
 *
 * <p>The layer states are published at most every {@link #PUBLISH_INTERVAL} (wall clock) while
 * signals arrive, not per signal: each publish costs O(layers² + layers × causes listed) and emits
 * the layers whose state differs from what was last emitted (kept in {@value #STATE_STORE}). The
 * state is a function of the set of signals, not of their order. When reference data changes
 * (checked at the same interval) the chain is recomputed too, and the signal reads are re-tagged
 * (checked every {@link #REFERENCE_CHECK}).
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
    public static final String CAUSES_TOPIC = Topics.CHAIN_CAUSES;
    /** How often the chain state is published while signals arrive, and reference data checked (wall clock). */
    static final Duration PUBLISH_INTERVAL = Duration.ofMillis(250);
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
        AvroSerde<ChainCause> causeSerde = AvroSerde.of(ChainCause.class);
        signals.repartition(Repartitioned.with(Serdes.String(), signalSerde).withName("chain-signals")
                        .withNumberOfPartitions(1))
                .process(() -> new ChainStateProcessor(reference), Named.as("chain-state"), SIGNALS_STORE, STATE_STORE)
                .split(Named.as("chain-output-"))
                .branch((k, v) -> v.cause(), Branched.<String, ChainOutput>withConsumer(s -> s
                        .mapValues(v -> (ChainCause) v.value(), Named.as("chain-cause-value"))
                        .to(CAUSES_TOPIC, Produced.with(Serdes.String(), causeSerde).withName("chain-causes-sink")))
                        .withName("causes"))
                .defaultBranch(Branched.<String, ChainOutput>withConsumer(s -> s
                        .mapValues(v -> (LayerState) v.value(), Named.as("chain-state-value"))
                        .to(STATE_TOPIC, Produced.with(Serdes.String(), stateSerde).withName("chain-state-sink")))
                        .withName("states"));
        signals.process(() -> new SignalReadProcessor(reference), Named.as("tag-signals"), SIGNAL_READS_STORE)
                .to(READS_TOPIC, Produced.with(Serdes.String(), readSerde).withName("signal-reads-sink"));
        return builder.build();
    }

    /** What the chain-state processor emits: a layer state (key layer id) or a chain cause (key layer id/signal id); value null for a tombstone. */
    record ChainOutput(boolean cause, Object value) {
    }

    /** Keeps the set of signals and its book, writes chain causes per signal and publishes changed layer states. */
    static final class ChainStateProcessor implements Processor<String, ConstraintSignal, String, ChainOutput> {
        private final ReferenceStores.Clock reference;
        private ProcessorContext<String, ChainOutput> context;
        private KeyValueStore<String, ChainLayer> layers;
        private KeyValueStore<String, Company> companies;
        private KeyValueStore<String, ConstraintSignal> signals;
        private KeyValueStore<String, LayerState> states;
        private final Map<String, LayerState> emitted = new HashMap<>();
        private ChainModel model;
        private ChainBook book;
        private long builtFor = -1;
        private boolean dirty;

        ChainStateProcessor(ReferenceStores.Clock reference) {
            this.reference = reference;
        }

        @Override
        public void init(ProcessorContext<String, ChainOutput> context) {
            this.context = context;
            layers = context.getStateStore(LAYERS_STORE);
            companies = context.getStateStore(COMPANIES_STORE);
            signals = context.getStateStore(SIGNALS_STORE);
            states = context.getStateStore(STATE_STORE);
            try (KeyValueIterator<String, LayerState> it = states.all()) {
                it.forEachRemaining(kv -> emitted.put(kv.key, kv.value));
            }
            context.schedule(PUBLISH_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> {
                if (reference.generation() != builtFor) {
                    rebuild(now);
                }
                if (dirty) {
                    publish(now);
                }
            });
        }

        @Override
        public void process(Record<String, ConstraintSignal> record) {
            if (record.key() == null) {
                return;
            }
            if (book == null || reference.generation() != builtFor) {
                rebuild(record.timestamp());
            }
            ConstraintSignal incoming = record.value();
            ConstraintSignal kept = signals.get(record.key());
            if (incoming == null) {
                if (kept == null) {
                    return;
                }
                signals.delete(record.key());
                book.remove(record.key());
                causes(kept, null, record.timestamp());
            } else {
                if (kept != null && newer(kept, incoming)) {
                    return; // an older or equal version arrived late: the set does not change
                }
                signals.put(record.key(), incoming);
                List<ChainBook.Entry> forgotten = book.put(incoming);
                causes(kept, incoming, record.timestamp());
                for (ChainBook.Entry e : forgotten) {
                    ConstraintSignal gone = signals.delete(e.id); // weighs nothing any more
                    if (gone != null) {
                        causes(gone, null, record.timestamp());
                    }
                }
            }
            dirty = true;
        }

        /** Whether {@code a} wins over {@code b}: higher version, then larger encoded form, as a tie-break. */
        private static boolean newer(ConstraintSignal a, ConstraintSignal b) {
            if (a.getVersion() != b.getVersion()) {
                return a.getVersion() > b.getVersion();
            }
            return a.toString().compareTo(b.toString()) >= 0;
        }

        /** Writes the chain causes of a signal's change: one per known layer it now names, tombstones for the rest it named. */
        private void causes(ConstraintSignal before, ConstraintSignal after, long timestamp) {
            Set<String> now = new TreeSet<>();
            if (after != null && book.entry(after.getId()) != null) {
                ChainBook.Entry e = book.entry(after.getId());
                for (String layer : e.layers) {
                    now.add(layer);
                    context.forward(new Record<>(layer + "/" + e.id, new ChainOutput(true, cause(e, layer)), timestamp));
                }
            }
            if (before != null) {
                for (String layer : new TreeSet<>(before.getLayerHints())) {
                    if (!now.contains(layer)) {
                        context.forward(new Record<>(layer + "/" + before.getId(), new ChainOutput(true, null), timestamp));
                    }
                }
            }
        }

        private static ChainCause cause(ChainBook.Entry e, String layer) {
            return ChainCause.newBuilder().setLayerId(layer).setSignalId(e.id).setHeadline(e.headline)
                    .setDirection(e.direction).setMagnitude(e.magnitude)
                    .setObservedAt(java.time.Instant.ofEpochMilli(e.observedAt)).setWeight(e.weight).build();
        }

        /**
         * Builds the model and the book from the stores: at the task's start and when reference data
         * changed. Writes every kept signal's chain causes again (the layers known may have changed).
         */
        private void rebuild(long timestamp) {
            long generation = reference.generation();
            model = new ChainModel(values(layers), values(companies));
            builtFor = generation;
            book = new ChainBook(model.layerIds());
            List<ConstraintSignal> forgotten = new ArrayList<>();
            List<ConstraintSignal> all = values(signals);
            for (ConstraintSignal s : all) {
                for (ChainBook.Entry e : book.put(s)) {
                    forgotten.add(signals.get(e.id));
                }
            }
            for (ConstraintSignal s : forgotten) {
                signals.delete(s.getId());
                causes(s, null, timestamp);
            }
            for (ConstraintSignal s : all) {
                if (book.entry(s.getId()) != null) {
                    causes(s, s, timestamp);
                }
            }
            dirty = true;
        }

        private void publish(long timestamp) {
            dirty = false;
            Map<String, LayerState> next = model.states(book);
            for (String id : new ArrayList<>(emitted.keySet())) {
                if (!next.containsKey(id)) {
                    emitted.remove(id);
                    states.delete(id);
                    context.forward(new Record<>(id, new ChainOutput(false, null), timestamp));
                }
            }
            next.forEach((id, state) -> {
                if (!state.equals(emitted.get(id))) {
                    emitted.put(id, state);
                    states.put(id, state);
                    context.forward(new Record<>(id, new ChainOutput(false, state), timestamp));
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
