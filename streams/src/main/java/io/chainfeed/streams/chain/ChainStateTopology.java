package io.chainfeed.streams.chain;

import static io.chainfeed.streams.reference.ReferenceStores.values;

import io.chainfeed.avro.ChainCause;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.LayerStatus;
import io.chainfeed.avro.Read;
import io.chainfeed.chain.BookEntry;
import io.chainfeed.chain.ChainBook;
import io.chainfeed.chain.ChainDecay;
import io.chainfeed.chain.ChainModel;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.reference.ReferenceStores;
import io.chainfeed.streams.tagging.ReadVersions;
import io.chainfeed.streams.tagging.RetaggingProcessor;
import java.time.Duration;
import java.time.Instant;
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
 * {@value Topics#LAYERS}    ──► global store chain-layers-store
 * {@value Topics#COMPANIES} ──► global store chain-companies-store
 * {@value Topics#REFERENCE_TERMS} ──► global store chain-terms-store (glossary terms, for tagging signal reads)
 * {@value Topics#SIGNALS} (signal id -> ConstraintSignal)
 *    ├─► repartition to one partition ──► chain state ─┬─► {@value Topics#CHAIN_STATE} (layer id -> LayerState)
 *    │                                                  ├─► {@value Topics#CHAIN_CAUSES} (layer id/signal id -> ChainCause)
 *    │                                                  └─► {@value Topics#READS} (state:&lt;layer&gt;:&lt;n&gt; -> Read, kind STATE)
 *    └─► tag ──► {@value Topics#READS} (signal:&lt;id&gt; -> Read, kind SIGNAL)
 * </pre>
 *
 * The chain-state processor keeps every signal (latest version per id; a tombstone
 * removes one) in {@value #SIGNALS_STORE} and, beside it, a {@link ChainBook}: per layer
 * the decayed sums and the signals in order of weight, updated per signal in O(layers it
 * names), never by a scan of all kept signals (the book is rebuilt from the store once
 * when the task starts and when reference data changes). Signals older than
 * {@value ChainModel#FORGET_AFTER_HALF_LIVES} half-lives before the newest one leave the
 * book: they weigh nothing any more. They stay in {@value #SIGNALS_STORE} for time travel
 * ({@link ChainQueries}: the chain as of a past instant needs the signals of then) until
 * their decay started more than {@link #KEPT_FOR_TIME_TRAVEL} before the newest signal;
 * an in-memory index of those archived signals by decay start removes them from the store
 * as the newest signal passes that age (each once). Each signal change also writes one
 * {@code ChainCause} per layer the signal names to {@value Topics#CHAIN_CAUSES} (key
 * {@code <layer id>/<signal id>}; tombstones for what it no longer names or when it is
 * removed or forgotten), from which the api pages a layer's full cause list.
 *
 * <p>
 * The layer states are published at most every {@link #PUBLISH_INTERVAL} (wall clock)
 * while signals arrive, not per signal: each publish costs O(layers² + layers × causes
 * listed) and emits the layers whose state differs from what was last emitted (kept in
 * {@value #STATE_STORE}). When a published state changes a layer's announced status
 * ({@link StateReads#announce}: with hysteresis), the same publish writes a read of kind
 * STATE to {@value Topics#READS} and the layer's announced status and count to
 * {@value #ANNOUNCED_STORE}; both go out in the same transaction as the state under
 * exactly-once processing, so no change is announced twice or with another id after a
 * restart. A change is news only while the chain is current: when the chain's
 * {@code asOf} (the newest signal's {@code observedAt}) is more than
 * {@link #ANNOUNCED_WITHIN} older than the publish (wall clock), as while the bundled
 * history or a backlog is replayed, the new status is recorded in
 * {@value #ANNOUNCED_STORE} without a read (its count unchanged), so a fresh start's
 * feeds are not filled with changes of years ago posted today, and the first live change
 * is measured from the replayed status. The state is a function of the set of signals,
 * not of their order. When reference data changes (checked at the same interval) the
 * chain is recomputed too, and the signal reads are re-tagged (checked every
 * {@link RetaggingProcessor#RETAG_CHECK}; {@link SignalReadProcessor} publishes only
 * reads whose content changed).
 */
public final class ChainStateTopology {

    /**
     * The reference stores: {@code chain-layers-store}, {@code chain-companies-store},
     * {@code chain-terms-store}.
     */
    public static final ReferenceStores.Names REFERENCE_STORES = new ReferenceStores.Names("chain-");

    public static final String SIGNALS_STORE = "chain-signals-store";

    public static final String STATE_STORE = "chain-state-store";

    /**
     * Layer id -> {@link StateReads.Announced} (encoded): the status each layer last
     * announced.
     */
    public static final String ANNOUNCED_STORE = "chain-announced-store";

    public static final String SIGNAL_READS_STORE = "signal-reads-store";

    /**
     * How often the chain state is published while signals arrive, and reference data
     * checked (wall clock).
     */
    static final Duration PUBLISH_INTERVAL = Duration.ofMillis(250);

    /**
     * How long a signal the book has forgotten stays in {@value #SIGNALS_STORE} for time
     * travel, measured from its decay start to the newest signal: ten years, so the chain
     * and a layer's history can be replayed over the bundled history since 2023.
     */
    public static final Duration KEPT_FOR_TIME_TRAVEL = Duration.ofDays(3653);

    /**
     * How far the chain's {@code asOf} may lag the wall clock for a status change to be
     * announced with a state read: the trend window, seven days. Older changes (a replay)
     * are recorded silently.
     */
    public static final Duration ANNOUNCED_WITHIN = Duration.ofDays(ChainModel.TREND_WINDOW_DAYS);

    private ChainStateTopology() {
    }

    /**
     * Builds the topology; pure, no I/O.
     * @param config streams config (not read; kept for symmetry with other topologies)
     * @param meters where the signal reads sent count
     * @return the topology, every processor, source, sink and store named
     */
    public static Topology buildTopology(Properties config, StreamsMeters meters) {
        AvroSerde<ConstraintSignal> signalSerde = AvroSerde.of(ConstraintSignal.class);
        AvroSerde<LayerState> stateSerde = AvroSerde.of(LayerState.class);
        StreamsBuilder builder = new StreamsBuilder();
        ReferenceStores reference = ReferenceStores.addTo(builder, REFERENCE_STORES);

        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SIGNALS_STORE),
                Serdes.String(), signalSerde));
        builder.addStateStore(
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STATE_STORE), Serdes.String(), stateSerde));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ANNOUNCED_STORE),
                Serdes.String(), Serdes.String()));

        KStream<String, ConstraintSignal> signals = builder.stream(Topics.SIGNALS,
                Consumed.with(Serdes.String(), signalSerde).withName("signals-source"));
        AvroSerde<ChainCause> causeSerde = AvroSerde.of(ChainCause.class);
        signals.repartition(
                Repartitioned.with(Serdes.String(), signalSerde).withName("chain-signals").withNumberOfPartitions(1))
            .process(() -> new ChainStateProcessor(reference), Named.as("chain-state"), SIGNALS_STORE, STATE_STORE,
                    ANNOUNCED_STORE)
            .split(Named.as("chain-output-"))
            .branch((k, v) -> v instanceof ChainOutput.CauseOut, Branched
                .<String, ChainOutput>withConsumer(s -> s
                    .mapValues(v -> v instanceof ChainOutput.CauseOut c ? c.cause() : null,
                            Named.as("chain-cause-value"))
                    .to(Topics.CHAIN_CAUSES, Produced.with(Serdes.String(), causeSerde).withName("chain-causes-sink")))
                .withName("causes"))
            .branch((k, v) -> v instanceof ChainOutput.ReadOut,
                    Branched
                        .<String, ChainOutput>withConsumer(s -> s
                            .mapValues(v -> v instanceof ChainOutput.ReadOut r ? r.read() : null,
                                    Named.as("chain-state-read-value"))
                            .to(Topics.READS,
                                    Produced.with(Serdes.String(), AvroSerde.of(Read.class))
                                        .withName("chain-state-reads-sink")))
                        .withName("reads"))
            .defaultBranch(Branched
                .<String, ChainOutput>withConsumer(s -> s
                    .mapValues(v -> v instanceof ChainOutput.StateOut st ? st.state() : null,
                            Named.as("chain-state-value"))
                    .to(Topics.CHAIN_STATE, Produced.with(Serdes.String(), stateSerde).withName("chain-state-sink")))
                .withName("states"));
        SignalReadProcessor.addTo(builder, signals, reference, meters);
        return builder.build();
    }

    /**
     * A signal kept in the store for time travel only: when its decay started, and its
     * id.
     */
    record Archived(long decayStart, String id) implements Comparable<Archived> {
        @Override
        public int compareTo(Archived o) {
            int c = Long.compare(decayStart, o.decayStart);
            return c != 0 ? c : id.compareTo(o.id);
        }
    }

    /**
     * What the chain-state processor emits: one variant per output topic, its value null
     * for a tombstone.
     */
    sealed interface ChainOutput {

        /**
         * A layer state, key layer id.
         *
         * @param state the state, null for a tombstone
         */
        record StateOut(LayerState state) implements ChainOutput {
        }

        /**
         * A chain cause, key layer id/signal id.
         *
         * @param cause the cause, null for a tombstone
         */
        record CauseOut(ChainCause cause) implements ChainOutput {
        }

        /**
         * A state read, key its read id.
         *
         * @param read the read
         */
        record ReadOut(Read read) implements ChainOutput {
        }

    }

    /**
     * Keeps the set of signals and its book, writes chain causes per signal and publishes
     * changed layer states.
     */
    static final class ChainStateProcessor implements Processor<String, ConstraintSignal, String, ChainOutput> {

        private final ReferenceStores stores;

        private ProcessorContext<String, ChainOutput> context;

        private ReferenceStores.View reference;

        private KeyValueStore<String, ConstraintSignal> signals;

        private KeyValueStore<String, LayerState> states;

        private KeyValueStore<String, String> announced;

        private final Map<String, LayerState> emitted = new HashMap<>();

        private ChainModel model;

        private StateReads stateReads;

        private ChainBook book;

        /**
         * The signals the book has forgotten but the store keeps for time travel, by
         * decay start then id.
         */
        private final TreeSet<Archived> archived = new TreeSet<>();

        private final Map<String, Archived> archivedById = new HashMap<>();

        private long builtFor = -1;

        private boolean dirty;

        ChainStateProcessor(ReferenceStores stores) {
            this.stores = stores;
        }

        @Override
        public void init(ProcessorContext<String, ChainOutput> context) {
            this.context = context;
            reference = stores.open(context);
            signals = context.getStateStore(SIGNALS_STORE);
            states = context.getStateStore(STATE_STORE);
            announced = context.getStateStore(ANNOUNCED_STORE);
            try (KeyValueIterator<String, LayerState> it = states.all()) {
                it.forEachRemaining(kv -> emitted.put(kv.key, kv.value));
            }
            context.schedule(PUBLISH_INTERVAL, PunctuationType.WALL_CLOCK_TIME, now -> {
                if (reference.clock().generation() != builtFor) {
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
            if (book == null || reference.clock().generation() != builtFor) {
                rebuild(record.timestamp());
            }
            ConstraintSignal incoming = record.value();
            ConstraintSignal kept = signals.get(record.key());
            if (incoming != null && held(incoming)) {
                if (kept != null && newer(kept, incoming)) {
                    return; // an older held version arrived late
                }
                // held for review: not counted (a counted earlier version stops counting)
                incoming = null;
            }
            if (incoming == null) {
                if (kept == null) {
                    return;
                }
                signals.delete(record.key());
                unarchive(record.key());
                ChainBook.Change change = book.remove(record.key());
                causes(record.key(), kept.getLayerHints(), record.timestamp());
                recounted(change, record.timestamp());
            }
            else {
                if (kept != null && newer(kept, incoming)) {
                    // an older or equal version arrived late: the set does not change
                    return;
                }
                signals.put(record.key(), incoming);
                ChainBook.Change change = book.put(incoming);
                causes(record.key(), kept == null ? List.of() : kept.getLayerHints(), record.timestamp());
                unarchive(record.key());
                for (BookEntry e : change.forgotten()) {
                    // weighs nothing any more: archived
                    ConstraintSignal gone = signals.get(e.id());
                    if (gone != null) {
                        archive(e);
                        causes(e.id(), gone.getLayerHints(), record.timestamp());
                    }
                }
                expire();
                recounted(change, record.timestamp());
            }
            dirty = true;
        }

        private void archive(BookEntry e) {
            unarchive(e.id());
            Archived a = new Archived(e.decayStart(), e.id());
            archived.add(a);
            archivedById.put(e.id(), a);
        }

        private void archive(String id, ConstraintSignal s) {
            unarchive(id);
            Archived a = new Archived(ChainDecay.decayStart(s.getObservedAt().toEpochMilli(),
                    s.getUntil() == null ? null : s.getUntil().toEpochMilli()), id);
            archived.add(a);
            archivedById.put(id, a);
        }

        private void unarchive(String id) {
            Archived a = archivedById.remove(id);
            if (a != null) {
                archived.remove(a);
            }
        }

        /**
         * Deletes the archived signals whose decay started more than
         * {@link #KEPT_FOR_TIME_TRAVEL} before the book's asOf.
         */
        private void expire() {
            long limit = book.asOf() - KEPT_FOR_TIME_TRAVEL.toMillis();
            while (!archived.isEmpty() && archived.first().decayStart() < limit) {
                Archived a = archived.pollFirst();
                archivedById.remove(a.id());
                signals.delete(a.id());
            }
        }

        /**
         * Rewrites the chain causes of the other signals that began or stopped counting
         * (one story's leaders).
         */
        private void recounted(ChainBook.Change change, long timestamp) {
            for (BookEntry e : change.recounted()) {
                causes(e.id(), e.layers(), timestamp);
            }
        }

        /**
         * Whether a signal is held for review (decided from its text below the confidence
         * threshold).
         */
        static boolean held(ConstraintSignal s) {
            return s.getDecision() != null && s.getDecision().getHeld();
        }

        /**
         * Whether {@code a} wins over {@code b}: higher version, then larger encoded
         * form, as a tie-break.
         */
        private static boolean newer(ConstraintSignal a, ConstraintSignal b) {
            if (a.getVersion() != b.getVersion()) {
                return a.getVersion() > b.getVersion();
            }
            return a.toString().compareTo(b.toString()) >= 0;
        }

        /**
         * Writes the chain causes of a signal as it stands in the book: one per known
         * layer it names while it is kept and counts, and tombstones for the other layers
         * it named before.
         */
        private void causes(String id, List<String> namedBefore, long timestamp) {
            Set<String> now = new TreeSet<>();
            BookEntry e = book.entry(id);
            if (e != null && e.counted()) {
                for (String layer : e.layers()) {
                    now.add(layer);
                    context.forward(
                            new Record<>(layer + "/" + e.id(), new ChainOutput.CauseOut(cause(e, layer)), timestamp));
                }
            }
            Set<String> gone = new TreeSet<>(namedBefore);
            if (e != null) {
                gone.addAll(e.layers());
            }
            gone.removeAll(now);
            for (String layer : gone) {
                context.forward(new Record<>(layer + "/" + id, new ChainOutput.CauseOut(null), timestamp));
            }
        }

        private static ChainCause cause(BookEntry e, String layer) {
            return ChainCause.newBuilder()
                .setLayerId(layer)
                .setSignalId(e.id())
                .setHeadline(e.headline())
                .setDirection(e.direction())
                .setMagnitude(e.magnitude())
                .setObservedAt(Instant.ofEpochMilli(e.observedAt()))
                .setWeight(e.weightIn(layer))
                .setShare(e.share(layer))
                .setUntil(e.until() == null ? null : Instant.ofEpochMilli(e.until()))
                .build();
        }

        /**
         * Builds the model and the book from the stores: at the task's start and when
         * reference data changed. Writes every kept signal's chain causes again (the
         * layers known may have changed).
         */
        private void rebuild(long timestamp) {
            long generation = reference.clock().generation();
            List<Company> companies = reference.companies();
            model = new ChainModel(reference.layers(), companies);
            stateReads = new StateReads(companies);
            builtFor = generation;
            book = new ChainBook(model.layerIds());
            List<ConstraintSignal> forgotten = new ArrayList<>();
            List<ConstraintSignal> all = values(signals);
            for (ConstraintSignal s : all) {
                for (BookEntry e : book.put(s).forgotten()) {
                    forgotten.add(signals.get(e.id()));
                }
            }
            archived.clear();
            archivedById.clear();
            for (ConstraintSignal s : forgotten) {
                archive(s.getId(), s);
                causes(s.getId(), s.getLayerHints(), timestamp);
            }
            expire();
            for (ConstraintSignal s : all) {
                if (book.entry(s.getId()) != null) {
                    causes(s.getId(), s.getLayerHints(), timestamp);
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
                    context.forward(new Record<>(id, new ChainOutput.StateOut(null), timestamp));
                }
            }
            next.forEach((id, state) -> {
                LayerState before = emitted.get(id);
                if (!state.equals(before)) {
                    emitted.put(id, state);
                    states.put(id, state);
                    context.forward(new Record<>(id, new ChainOutput.StateOut(state), timestamp));
                    announce(before, state, timestamp);
                }
            });
        }

        /**
         * Writes a state read when the published state changes the layer's announced
         * status, or only records the new status when the chain is older than
         * {@link #ANNOUNCED_WITHIN} at the publish.
         */
        private void announce(LayerState before, LayerState after, long timestamp) {
            StateReads.Announced was = StateReads.Announced.parse(announced.get(after.getId()));
            LayerStatus to = StateReads.announce(after.getPressure(), was.status());
            if (to == was.status()) {
                return;
            }
            if (book.asOf() < timestamp - ANNOUNCED_WITHIN.toMillis()) {
                announced.put(after.getId(), new StateReads.Announced(to, was.count()).encode());
                return;
            }
            long n = was.count() + 1;
            announced.put(after.getId(), new StateReads.Announced(to, n).encode());
            Instant now = Instant.ofEpochMilli(timestamp);
            Read read = ReadVersions.next(stateReads.read(before, after, was.status(), to, n, now), null, now);
            context.forward(new Record<>(read.getId(), new ChainOutput.ReadOut(read), timestamp));
        }

    }

}
