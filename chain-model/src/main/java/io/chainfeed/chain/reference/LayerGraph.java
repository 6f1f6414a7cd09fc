package io.chainfeed.chain.reference;

import io.chainfeed.avro.ChainLayer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Graph checks over chain layers, whose {@code upstream} lists point from a layer to its
 * suppliers.
 */
public final class LayerGraph {

    private LayerGraph() {
    }

    /**
     * Looks for a cycle along the upstream edges. Edges to ids that are not among the
     * given layers are ignored (the loader reports those separately).
     * @param layers the layers, in any order
     * @return empty if the graph is acyclic; otherwise one cycle as the ids met along the
     * upstream edges, first id repeated at the end, e.g. {@code [a, b, c, a]} for a → b →
     * c → a
     */
    public static Optional<List<String>> findCycle(Collection<ChainLayer> layers) {
        Map<String, List<String>> edges = new LinkedHashMap<>();
        for (ChainLayer layer : layers) {
            edges.put(layer.getId(), layer.getUpstream());
        }
        // absent: unseen, 1: on the current path, 2: done
        Map<String, Integer> state = new HashMap<>();
        for (String start : edges.keySet()) {
            if (!state.containsKey(start)) {
                List<String> cycle = visit(start, edges, state, new ArrayList<>());
                if (cycle != null) {
                    return Optional.of(cycle);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Formats a cycle for a message.
     * @param cycle ids as returned by {@link #findCycle}
     * @return the ids joined with {@code " -> "}
     */
    public static String describe(List<String> cycle) {
        return String.join(" -> ", cycle);
    }

    private static List<String> visit(String id, Map<String, List<String>> edges, Map<String, Integer> state,
            List<String> path) {
        state.put(id, 1);
        path.add(id);
        for (String next : edges.get(id)) {
            if (!edges.containsKey(next)) {
                continue;
            }
            Integer s = state.get(next);
            if (s == null) {
                List<String> cycle = visit(next, edges, state, path);
                if (cycle != null) {
                    return cycle;
                }
            }
            else if (s == 1) {
                List<String> cycle = new ArrayList<>(path.subList(path.indexOf(next), path.size()));
                cycle.add(next);
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        state.put(id, 2);
        return null;
    }

}
