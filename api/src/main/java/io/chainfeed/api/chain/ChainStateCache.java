package io.chainfeed.api.chain;

import io.chainfeed.api.support.kafka.CompactedTopicView;
import io.chainfeed.avro.LayerState;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The chain state in memory: the latest {@link LayerState} per layer from the compacted
 * {@value Topics#CHAIN_STATE} topic (see {@link CompactedTopicView}); streams creates
 * that topic. Read it through {@link ChainStates}, which also answers past instants.
 */
@Component
public class ChainStateCache extends CompactedTopicView<LayerState> {

    ChainStateCache(KafkaConnectionProperties kafka, MeterRegistry meters) {
        super(kafka.bootstrapServers(), Topics.CHAIN_STATE, "chainfeed-api-chain-state", LayerState.class, meters);
    }

    private final AtomicLong version = new AtomicLong();

    /**
     * @return how many changes the view has taken since the api started: an answer built
     * from the chain's state names it in its key, so a new state is a new answer
     */
    public long version() {
        return version.get();
    }

    @Override
    protected void changed(String key, LayerState value) {
        version.incrementAndGet();
    }

    /**
     * @return every layer's latest state, in no particular order
     */
    public Collection<LayerState> all() {
        return values();
    }

    /**
     * @param layerId a layer id
     * @return its latest state, if any
     */
    public Optional<LayerState> layer(String layerId) {
        return value(layerId);
    }

}
