package io.chainfeed.api.chain;

import java.util.List;

/**
 * {@code GET /api/v1/chain}: every layer with its state, tightest first.
 *
 * @param asOf the newest instant of the layers' states (UTC), null before the first
 * signal
 * @param layers every layer, highest pressure first
 * @param disclaimer research, not advice
 */
public record ChainAnswer(String asOf, List<ChainViews.LayerSummary> layers, String disclaimer) {
}
