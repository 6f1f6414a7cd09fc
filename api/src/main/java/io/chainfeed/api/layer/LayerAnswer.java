package io.chainfeed.api.layer;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.chainfeed.api.chain.ChainViews;

/**
 * {@code GET /api/v1/layers/{id}}: one layer's state, with the disclaimer.
 *
 * @param layer the layer's state (its members are the answer's)
 * @param disclaimer research, not advice
 */
public record LayerAnswer(@JsonUnwrapped ChainViews.LayerView layer, String disclaimer) {
}
