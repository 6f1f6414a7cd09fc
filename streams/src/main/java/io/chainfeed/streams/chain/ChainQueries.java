package io.chainfeed.streams.chain;

import static io.chainfeed.streams.reference.ReferenceStores.values;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.LayerState;
import io.chainfeed.chain.ChainModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Time travel over the chain-state topology's stores (Kafka Streams interactive queries):
 * the chain as of an instant and a series of instants, computed by
 * {@link ChainModel#statesAt} and {@link ChainModel#history} from the signals kept in
 * {@value ChainStateTopology#SIGNALS_STORE} and the reference data in the global stores
 * {@code chain-layers-store} and {@code chain-companies-store}
 * ({@link ChainStateTopology#REFERENCE_STORES}). Read-only: the topology's processing is
 * not touched and its per-signal cost is unchanged. Each query reads every kept signal
 * once: O(n log n) for n signals, plus O(layers² + layers × causes) per instant answered.
 *
 * <p>
 * The signals store has one partition (the chain-state processor runs on one), so one
 * instance holds every signal; the query runs on the instance that runs it. Thread-safe:
 * the stores are read through Kafka Streams' read-only views and nothing here is shared
 * between calls.
 */
public final class ChainQueries {

    /** Most instants one history query may ask for. */
    public static final int MAX_POINTS = 500;

    /** The signals and the model built from the reference data, read at one moment. */
    record Snapshot(ChainModel model, List<ConstraintSignal> signals) {
    }

    /**
     * Where the stores come from: the running chain-state {@link KafkaStreams}, or a
     * test's stores.
     */
    @FunctionalInterface
    public interface Stores {

        /**
         * @param name a store name of the chain-state topology
         * @param <V> value type
         * @return its read-only view
         * @throws InvalidStateStoreException while the store cannot be queried (starting,
         * rebalancing, stopped)
         */
        <V> ReadOnlyKeyValueStore<String, V> store(String name);

        /**
         * @param streams the chain-state Kafka Streams instance
         * @return its stores, through {@link KafkaStreams#store}
         */
        static Stores of(KafkaStreams streams) {
            return of(streams, false);
        }

        /**
         * @param streams the chain-state Kafka Streams instance
         * @param stale whether a standby or restoring copy may answer
         * ({@link StoreQueryParameters#enableStaleStores()}), as when the active instance
         * cannot
         * @return its stores, through {@link KafkaStreams#store}
         */
        static Stores of(KafkaStreams streams, boolean stale) {
            return new Stores() {
                @Override
                public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
                    StoreQueryParameters<ReadOnlyKeyValueStore<String, V>> query = StoreQueryParameters
                        .fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore());
                    return streams.store(stale ? query.enableStaleStores() : query);
                }
            };
        }

    }

    private final Stores stores;

    /**
     * @param stores the chain-state topology's stores
     */
    public ChainQueries(Stores stores) {
        this.stores = stores;
    }

    /**
     * The chain as of an instant ({@link ChainModel#statesAt}).
     * @param asOf epoch ms (UTC)
     * @return every layer's state, by layer id in id order
     * @throws InvalidStateStoreException while the stores cannot be queried
     */
    public Map<String, LayerState> at(long asOf) {
        Snapshot s = snapshot();
        return s.model().statesAt(s.signals(), asOf);
    }

    /**
     * Whether a layer is in the reference data.
     * @param layerId a layer id
     * @return true when known
     * @throws InvalidStateStoreException while the stores cannot be queried
     */
    public boolean knows(String layerId) {
        return stores.<ChainLayer>store(ChainStateTopology.REFERENCE_STORES.layers()).get(layerId) != null;
    }

    /**
     * The chain at {@code points} instants {@code from, from + step, ...}
     * ({@link ChainModel#history}).
     * @param from the first instant, epoch ms (UTC)
     * @param step ms between instants, at least 1
     * @param points how many, 1 to {@value #MAX_POINTS}
     * @param each given each instant and the states then, in time order
     * @throws IllegalArgumentException if {@code step} or {@code points} is out of range
     * @throws InvalidStateStoreException while the stores cannot be queried
     */
    public void history(long from, long step, int points, BiConsumer<Long, Map<String, LayerState>> each) {
        if (points > MAX_POINTS) {
            throw new IllegalArgumentException("at most " + MAX_POINTS + " points, asked for " + points);
        }
        Snapshot s = snapshot();
        s.model().history(s.signals(), from, step, points, each);
    }

    /**
     * The kept signals that name a layer and were observed in a period: the signals that
     * moved the layer's own pressure then (for marking a history chart).
     * @param layerId a layer id
     * @param from epoch ms, inclusive
     * @param to epoch ms, inclusive
     * @return those signals, in time order (then id)
     * @throws InvalidStateStoreException while the stores cannot be queried
     */
    public List<ConstraintSignal> signalsOn(String layerId, long from, long to) {
        List<ConstraintSignal> out = new ArrayList<>();
        for (ConstraintSignal s : values(stores.<ConstraintSignal>store(ChainStateTopology.SIGNALS_STORE))) {
            long t = s.getObservedAt().toEpochMilli();
            if (t >= from && t <= to && s.getLayerHints().contains(layerId)) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingLong((ConstraintSignal s) -> s.getObservedAt().toEpochMilli())
            .thenComparing(ConstraintSignal::getId));
        return out;
    }

    private Snapshot snapshot() {
        List<ChainLayer> layers = values(stores.<ChainLayer>store(ChainStateTopology.REFERENCE_STORES.layers()));
        List<Company> companies = values(stores.<Company>store(ChainStateTopology.REFERENCE_STORES.companies()));
        List<ConstraintSignal> signals = values(stores.<ConstraintSignal>store(ChainStateTopology.SIGNALS_STORE));
        return new Snapshot(new ChainModel(layers, companies), signals);
    }

}
