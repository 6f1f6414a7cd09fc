package io.chainfeed.api.chain;

import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.avro.LayerState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * The chain's layer states now or as of a past instant: the one place that decides which
 * source answers. Now is the latest record per layer of the compacted chain-state topic
 * ({@link ChainStateCache}); a past instant is computed by the streams service
 * ({@link ChainTimeTravel}).
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class ChainStates {

    private final ChainStateCache live;

    private final ChainTimeTravel travel;

    /**
     * @return the live state's version: it moves whenever a layer's state changes, so an
     * answer built from the live state can name it in its key
     */
    public long version() {
        return live.version();
    }

    /**
     * Every layer's state.
     * @param asOf null for the live state, else an RFC 3339 instant not in the future
     * @return a mutable list of the states, in no particular order
     * @throws BadRequestException ({@code invalid-as-of}) for a bad instant
     * @throws ChainUnavailableException when the streams service cannot answer an
     * {@code asOf} query
     */
    public List<LayerState> all(String asOf) {
        if (asOf == null) {
            return new ArrayList<>(live.all());
        }
        return new ArrayList<>(
                travel.chainAt(ChainTimeTravel.pastInstant("asOf", asOf, "invalid-as-of", Instant.now())));
    }

    /**
     * One layer's state.
     * @param id the layer id
     * @param asOf null for the live state, else an RFC 3339 instant not in the future
     * @return its state, empty when the layer is unknown (or had no state yet at
     * {@code asOf})
     * @throws BadRequestException ({@code invalid-as-of}) for a bad instant
     * @throws ChainUnavailableException when the streams service cannot answer an
     * {@code asOf} query
     */
    public Optional<LayerState> layer(String id, String asOf) {
        if (asOf == null) {
            return live.layer(id);
        }
        return all(asOf).stream().filter(s -> s.getId().equals(id)).findFirst();
    }

}
