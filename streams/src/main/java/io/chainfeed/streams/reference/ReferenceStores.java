package io.chainfeed.streams.reference;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The reference data every topology tags with: chain layers ({@value Topics#LAYERS}),
 * companies ({@value Topics#COMPANIES}) and glossary terms
 * ({@value Topics#REFERENCE_TERMS}), each read from its compacted topic into an in-memory
 * global store. Every applied update bumps the topology's {@link Clock}, which processors
 * poll to rebuild their dictionaries without a restart.
 *
 * @param names how this topology names the stores
 * @param clock the generation and newest reference timestamp shared by this topology
 */
public record ReferenceStores(Names names, Clock clock) {

    /**
     * How one topology names its reference stores and the source nodes that feed them:
     * {@code <prefix>layers-store} fed by {@code <prefix>layers-source}, and so for
     * companies and terms.
     *
     * @param prefix e.g. {@code chain-}
     */
    public record Names(String prefix) {
        /**
         * @return the layers store ({@code layer id -> ChainLayer})
         */
        public String layers() {
            return store("layers");
        }

        /**
         * @return the companies store ({@code company id -> Company})
         */
        public String companies() {
            return store("companies");
        }

        /**
         * @return the glossary terms store ({@code slug -> TermUpdate})
         */
        public String terms() {
            return store("terms");
        }

        private String store(String data) {
            return prefix + data + "-store";
        }

        private String source(String data) {
            return prefix + data + "-source";
        }
    }

    /**
     * Adds the three global stores to a topology under construction.
     * @param builder the topology's builder
     * @param names how the topology names them
     * @return the store names and the clock their updates bump
     */
    public static ReferenceStores addTo(StreamsBuilder builder, Names names) {
        ReferenceStores stores = new ReferenceStores(names, new Clock());
        stores.add(builder, Topics.LAYERS, "layers", AvroSerde.of(ChainLayer.class));
        stores.add(builder, Topics.COMPANIES, "companies", AvroSerde.of(Company.class));
        stores.add(builder, Topics.REFERENCE_TERMS, "terms", AvroSerde.of(TermUpdate.class));
        return stores;
    }

    /**
     * Opens the three stores in the context of a processor of the same topology (global
     * stores are readable from every task).
     * @param context the processor's context, after {@code init}
     * @return the reference data as the processor reads it
     */
    public View open(ProcessorContext<?, ?> context) {
        return new View(context.getStateStore(names.layers()), context.getStateStore(names.companies()),
                context.getStateStore(names.terms()), clock);
    }

    /**
     * Reads a whole (small) store: the reference stores hold at most a few thousand
     * records.
     * @param store a key-value store
     * @param <V> value type
     * @return every value, in key order
     */
    public static <V> List<V> values(ReadOnlyKeyValueStore<String, V> store) {
        List<V> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = store.all()) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    /**
     * Applies a record of a compacted topic to the store that mirrors it: puts its value,
     * or deletes the key for a tombstone (null value). A record without a key is skipped.
     * @param store the mirror, keyed as the topic
     * @param record the record
     * @param <V> value type
     * @return false when the record had no key and nothing was applied
     */
    public static <V> boolean apply(KeyValueStore<String, V> store, Record<String, V> record) {
        if (record.key() == null) {
            return false;
        }
        if (record.value() == null) {
            store.delete(record.key());
        }
        else {
            store.put(record.key(), record.value());
        }
        return true;
    }

    /**
     * Adds the global store of {@code data} (e.g. {@code layers}), fed from
     * {@code topic}.
     */
    private <V extends org.apache.avro.specific.SpecificRecord> void add(StreamsBuilder builder, String topic,
            String data, AvroSerde<V> serde) {
        String store = names.store(data);
        String source = names.source(data);
        builder.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(store), Serdes.String(), serde)
                    .withLoggingDisabled(),
                topic, Consumed.with(Serdes.String(), serde).withName(source), () -> new Updater<>(store, clock));
    }

    /**
     * How many reference updates were applied, and the newest reference record timestamp
     * (epoch ms). Shared by the global-store updaters and the processors of one topology;
     * thread-safe.
     */
    public static final class Clock {

        private final AtomicLong generation = new AtomicLong();

        private final AtomicLong newestTimestamp = new AtomicLong();

        /**
         * @param timestamp the applied record's timestamp, epoch ms
         */
        public void updated(long timestamp) {
            newestTimestamp.accumulateAndGet(timestamp, Math::max);
            generation.incrementAndGet();
        }

        /**
         * @return how many updates were applied since the topology started
         */
        public long generation() {
            return generation.get();
        }

        /**
         * @return the newest reference record timestamp seen, epoch ms; 0 before any
         */
        public long newestTimestamp() {
            return newestTimestamp.get();
        }

    }

    /**
     * The reference data as one processor reads it: each call reads its store whole (a
     * few thousand records at most), in key order.
     */
    public static final class View {

        private final ReadOnlyKeyValueStore<String, ChainLayer> layers;

        private final ReadOnlyKeyValueStore<String, Company> companies;

        private final ReadOnlyKeyValueStore<String, TermUpdate> terms;

        private final Clock clock;

        View(ReadOnlyKeyValueStore<String, ChainLayer> layers, ReadOnlyKeyValueStore<String, Company> companies,
                ReadOnlyKeyValueStore<String, TermUpdate> terms, Clock clock) {
            this.layers = layers;
            this.companies = companies;
            this.terms = terms;
            this.clock = clock;
        }

        /**
         * @return every chain layer
         */
        public List<ChainLayer> layers() {
            return values(layers);
        }

        /**
         * @return every company
         */
        public List<Company> companies() {
            return values(companies);
        }

        /**
         * @return every glossary term
         */
        public List<TermUpdate> terms() {
            return values(terms);
        }

        /**
         * @return the topology's reference clock: generation and newest reference
         * timestamp
         */
        public Clock clock() {
            return clock;
        }

    }

    /** Keeps a global store in step with its compacted topic and bumps the clock. */
    static final class Updater<V> implements Processor<String, V, Void, Void> {

        private final String storeName;

        private final Clock clock;

        private KeyValueStore<String, V> store;

        Updater(String storeName, Clock clock) {
            this.storeName = storeName;
            this.clock = clock;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(storeName);
        }

        @Override
        public void process(Record<String, V> record) {
            if (apply(store, record)) {
                clock.updated(record.timestamp());
            }
        }

    }
}
