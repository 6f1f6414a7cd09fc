package io.chainfeed.api.chain;

import io.chainfeed.avro.LayerState;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Comparator;
import java.util.List;
import lombok.RequiredArgsConstructor;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The live chain model: {@code GET /api/v1/chain?asOf=} (every layer with its state,
 * tightest first, in the compact {@link ChainViews#summary} form; with
 * {@code asOf=<instant>} (RFC 3339, not in the future nor before 1970; else a 400 problem
 * of type {@code invalid-as-of}) the same answer computed from the signals observed by
 * then, {@link ChainTimeTravel}, without the live cause links; 503
 * {@code chain-unavailable} when the streams service cannot answer). One layer, a company
 * and their histories are their own URL families (the {@code layer} and {@code company}
 * packages).
 */
@RestController
@RequestMapping("/api/v1")
@Tag(name = "chain")
@RequiredArgsConstructor
class ChainController {

    private final ChainStates states;

    @Operation(operationId = "getChain",
            summary = "Every chain layer with its state, tightest first (now or as of an instant)")
    @GetMapping("/chain")
    ChainAnswer chain(@RequestParam(required = false) String asOf) {
        List<LayerState> layers = states.all(asOf);
        layers.sort(Comparator.comparingDouble((LayerState s) -> -s.getPressure()).thenComparing(LayerState::getId));
        return new ChainAnswer(latest(layers), layers.stream().map(s -> {
            ChainViews.LayerSummary v = ChainViews.summary(s);
            return asOf != null ? v.past() : v;
        }).toList(), ChainViews.DISCLAIMER);
    }

    /** The newest {@code asOf} of the layers, null before the first signal. */
    static String latest(List<LayerState> layers) {
        return layers.stream().map(ChainViews::asOf).filter(a -> a != null).max(Comparator.naturalOrder()).orElse(null);
    }

}
