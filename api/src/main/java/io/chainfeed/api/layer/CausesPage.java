package io.chainfeed.api.layer;

import io.chainfeed.api.chain.ChainViews;
import java.util.List;

/**
 * {@code GET /api/v1/layers/{id}/causes}: a page of a layer's causes, largest first.
 *
 * @param layer the layer's id
 * @param asOf the instant of the layer's state (UTC), null before the first signal
 * @param causes this page's causes
 * @param nextCursor pass back as {@code cursor} for the next page; null on the last
 * @param next the next page's path, null on the last
 * @param disclaimer research, not advice
 */
public record CausesPage(String layer, String asOf, List<ChainViews.Cause> causes, String nextCursor, String next,
        String disclaimer) {
}
