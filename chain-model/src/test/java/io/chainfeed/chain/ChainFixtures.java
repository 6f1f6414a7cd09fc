package io.chainfeed.chain;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Source;
import java.time.Instant;
import java.util.List;

/** Records the chain topologies' tests feed in: layers, companies and signals. */
public final class ChainFixtures {

    private ChainFixtures() {
    }

    /**
     * @return a layer named by its id, with the layers it buys from
     */
    public static ChainLayer layer(String id, String... upstream) {
        return ChainLayer.newBuilder().setId(id).setName(id).setUpstream(List.of(upstream)).build();
    }

    /**
     * @return a company with one listing ({@code symbol} on {@code mic}, shown as
     * {@code display})
     */
    public static Company company(String id, String name, String layer, String symbol, String mic, String display) {
        return Company.newBuilder()
            .setId(id)
            .setName(name)
            .setPrimaryLayer(layer)
            .setListings(List.of(new Listing(symbol, mic, display)))
            .build();
    }

    /**
     * @return a version-1 signal with the given headline and body, its source at
     * example.com
     */
    public static ConstraintSignal.Builder signal(String id, String headline, String body) {
        return ConstraintSignal.newBuilder()
            .setId(id)
            .setHeadline(headline)
            .setBody(body)
            .setSource(new Source("Example", "https://example.com/" + id))
            .setVersion(1);
    }

    /**
     * @return a version-1 signal on the layers, in the direction, observed at {@code at}
     */
    public static ConstraintSignal signal(String id, String headline, String body, List<String> layers,
            Direction direction, int magnitude, Instant at) {
        return signal(id, headline, body).setLayerHints(layers)
            .setDirection(direction)
            .setMagnitude(magnitude)
            .setObservedAt(at)
            .build();
    }

}
