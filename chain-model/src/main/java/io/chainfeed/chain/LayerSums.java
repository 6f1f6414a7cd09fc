package io.chainfeed.chain;

import java.util.Comparator;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The running sums of one chain layer in a {@link ChainBook}, and its counted signals by
 * weight. The book keeps them up to date; {@link ChainModel} reads them.
 */
final class LayerSums {

    double direct;

    double before;

    /**
     * The part of {@link #direct} from signals whose decay starts after asOf (not rebased
     * by decay).
     */
    double held;

    /**
     * The part of {@link #before} from signals whose decay starts after the trend
     * window's start.
     */
    double heldBefore;

    int count;

    /**
     * Largest weight in this layer ({@link BookEntry#weightIn}) first, then signal id.
     */
    final NavigableSet<BookEntry> byWeight;

    LayerSums(String layer) {
        this.byWeight = new TreeSet<>(
                Comparator.comparingDouble((BookEntry e) -> -e.weightIn(layer)).thenComparing(e -> e.id));
    }

}
