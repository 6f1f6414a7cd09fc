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
 * The reference data every topology tags with: chain layers ({@value Topics#LAYERS}), companies
 * ({@value Topics#COMPANIES}) and glossary terms ({@value Topics#REFERENCE_TERMS}), each read from
 * its compacted topic into an in-memory global store. Every applied update bumps the topology's
 * {@link Clock}, which processors poll to rebuild their dictionaries without a restart.
 *
 * @param layersStore    name of the layers store ({@code layer id -> ChainLayer})
 * @param companiesStore name of the companies store ({@code company id -> Company})
 * @param termsStore     name of the terms store ({@code slug -> TermUpdate})
 * @param clock          the generation and newest reference timestamp shared by this topology
 */
public record ReferenceStores(String layersStore, String companiesStore, String termsStore, Clock clock) {

    /**
     * Adds the three global stores to a topology under construction.
     *
     * @param builder       the topology's builder
     * @param storePrefix   prefix of the store names, e.g. {@code reference-} gives
     *                      {@code reference-layers-store}
     * @param sourcePrefix  prefix of the source processor names, e.g. {@code reference-} gives
     *                      {@code reference-layers-source}
     * @return the store names and the clock their updates bump
     */
    public static ReferenceStores addTo(StreamsBuilder builder, String storePrefix, String sourcePrefix) {
        ReferenceStores stores = new ReferenceStores(storePrefix + "layers-store", storePrefix + "companies-store",
                storePrefix + "terms-store", new Clock());
        stores.add(builder, Topics.LAYERS, stores.layersStore, sourcePrefix + "layers-source",
                AvroSerde.of(ChainLayer.class));
        stores.add(builder, Topics.COMPANIES, stores.companiesStore, sourcePrefix + "companies-source",
                AvroSerde.of(Company.class));
        stores.add(builder, Topics.REFERENCE_TERMS, stores.termsStore, sourcePrefix + "terms-source",
                AvroSerde.of(TermUpdate.class));
        return stores;
    }

    /**
     * Opens the three stores in the context of a processor of the same topology (global stores are
     * readable from every task).
     *
     * @param context the processor's context, after {@code init}
     * @return the reference data as the processor reads it
     */
    public View open(ProcessorContext<?, ?> context) {
        return new View(context.getStateStore(layersStore), context.getStateStore(companiesStore),
                context.getStateStore(termsStore), clock);
    }

    /**
     * Reads a whole (small) store: the reference stores hold at most a few thousand records.
     *
     * @param store a key-value store
     * @param <V>   value type
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
     * Applies a record of a compacted topic to the store that mirrors it: puts its value, or deletes the
     * key for a tombstone (null value). A record without a key is skipped.
     *
     * @param store  the mirror, keyed as the topic
     * @param record the record
     * @param <V>    value type
     * @return false when the record had no key and nothing was applied
     */
    public static <V> boolean apply(KeyValueStore<String, V> store, Record<String, V> record) {
        if (record.key() == null) {
            return false;
        }
        if (record.value() == null) {
            store.delete(record.key());
        } else {
            store.put(record.key(), record.value());
        }
        return true;
    }

    private <V extends org.apache.avro.specific.SpecificRecord> void add(StreamsBuilder builder, String topic,
            String store, String source, AvroSerde<V> serde) {
        builder.addGlobalStore(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(store), Serdes.String(), serde)
                        .withLoggingDisabled(),
                topic, Consumed.with(Serdes.String(), serde).withName(source),
                () -> new Updater<>(store, clock));
    }

    /**
     * How many reference updates were applied, and the newest reference record timestamp (epoch ms).
     * Shared by the global-store updaters and the processors of one topology; thread-safe.
     */
    public static final class Clock {
        private final AtomicLong generation = new AtomicLong();
        private final AtomicLong newestTimestamp = new AtomicLong();

        /** @param timestamp the applied record's timestamp, epoch ms */
        public void updated(long timestamp) {
            newestTimestamp.accumulateAndGet(timestamp, Math::max);
            generation.incrementAndGet();
        }

        /** @return how many updates were applied since the topology started */
        public long generation() {
            return generation.get();
        }

        /** @return the newest reference record timestamp seen, epoch ms; 0 before any */
        public long newestTimestamp() {
            return newestTimestamp.get();
        }
    }

    /**
     * The reference data as one processor reads it: each call reads its store whole (a few thousand
     * records at most), in key order.
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

        /** @return every chain layer */
        public List<ChainLayer> layers() {
            return values(layers);
        }

        /** @return every company */
        public List<Company> companies() {
            return values(companies);
        }

        /** @return every glossary term */
        public List<TermUpdate> terms() {
            return values(terms);
        }

        /** @return the topology's reference clock: generation and newest reference timestamp */
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
