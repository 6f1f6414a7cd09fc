package io.chainfeed.api.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Weighted reciprocal rank fusion of a lexical and a vector ranking (Cormack, Clarke and
 * Buettcher, "Reciprocal rank fusion outperforms Condorcet and individual rank learning
 * methods", SIGIR 2009):
 * {@code score(d) = 1 / (k + r_lexical(d)) + w / (k + r_vector(d))}, ranks from 1, a
 * ranking that lacks {@code d} adding nothing. Vector hits under the cosine floor are
 * dropped before ranking, so a query that means little to the model (a ticker, a typo)
 * adds nothing. Ties go to the better lexical rank, then the better vector rank. The
 * constants and how they were chosen: docs/search-by-meaning-prereg.md.
 *
 * @param k the rank constant, at least 1 (the paper's 60)
 * @param vectorWeight {@code w}, the vector ranking's weight against the lexical one's 1
 * @param minSimilarity the cosine floor of a vector hit, -1 to 1
 */
public record RankFusion(int k, double vectorWeight, double minSimilarity) {

    /**
     * @throws IllegalArgumentException for {@code k < 1}, a negative weight or a floor
     * outside -1..1
     */
    public RankFusion {
        if (k < 1 || vectorWeight < 0 || minSimilarity < -1 || minSimilarity > 1) {
            throw new IllegalArgumentException(
                    "k >= 1, weight >= 0 and a floor in -1..1, not " + k + ", " + vectorWeight + ", " + minSimilarity);
        }
    }

    /**
     * A vector hit: its key (the story it belongs to) and its cosine similarity to the
     * query.
     */
    public record VectorHit(String key, double cosine) {
    }

    /**
     * A fused result.
     *
     * @param key the result's key
     * @param score its fused score
     * @param lexicalRank its lexical rank from 1, 0 when the lexical ranking lacks it
     * @param vectorRank its vector rank from 1 (among the hits over the floor), 0 when
     * none
     */
    public record Fused(String key, double score, int lexicalRank, int vectorRank) {
    }

    /**
     * @param lexical keys in lexical order, best first (a repeated key counts where it
     * first appears)
     * @param vector vector hits, most similar first (a repeated key likewise)
     * @return every key of either ranking once, best fused score first
     */
    public List<Fused> fuse(List<String> lexical, List<VectorHit> vector) {
        Map<String, int[]> ranks = new HashMap<>();
        List<String> order = new ArrayList<>();
        int r = 0;
        for (String key : lexical) {
            if (!ranks.containsKey(key)) {
                ranks.put(key, new int[] { ++r, 0 });
                order.add(key);
            }
        }
        int v = 0;
        for (VectorHit hit : vector) {
            if (hit.cosine() < minSimilarity) {
                continue;
            }
            int[] seen = ranks.get(hit.key());
            if (seen == null) {
                ranks.put(hit.key(), new int[] { 0, ++v });
                order.add(hit.key());
            }
            else if (seen[1] == 0) {
                seen[1] = ++v;
            }
        }
        List<Fused> out = new ArrayList<>(order.size());
        for (String key : order) {
            int[] rank = ranks.get(key);
            double score = (rank[0] > 0 ? 1.0 / (k + rank[0]) : 0) + (rank[1] > 0 ? vectorWeight / (k + rank[1]) : 0);
            out.add(new Fused(key, score, rank[0], rank[1]));
        }
        out.sort(Comparator.comparingDouble(Fused::score)
            .reversed()
            .thenComparingInt(f -> f.lexicalRank() == 0 ? Integer.MAX_VALUE : f.lexicalRank())
            .thenComparingInt(f -> f.vectorRank() == 0 ? Integer.MAX_VALUE : f.vectorRank()));
        return out;
    }

}
