package io.chainfeed.api.reference;

import io.chainfeed.api.support.kafka.CompactedTopicView;
import io.chainfeed.avro.ChainLayer;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The chain layers' reference data (name, summary, upstream edges) in memory, from the
 * compacted {@value Topics#LAYERS} topic (see {@link CompactedTopicView}).
 */
@Component
public class ReferenceLayers extends CompactedTopicView<ChainLayer> {

    ReferenceLayers(KafkaConnectionProperties kafka, MeterRegistry meters) {
        super(kafka.bootstrapServers(), Topics.LAYERS, "chainfeed-api-reference-layers", ChainLayer.class, meters);
    }

    /**
     * @return every known layer's latest reference record, in no particular order
     */
    public List<ChainLayer> all() {
        return values();
    }

    /**
     * @param id a layer id
     * @return its reference record, if known
     */
    public Optional<ChainLayer> layer(String id) {
        return value(id);
    }

}
