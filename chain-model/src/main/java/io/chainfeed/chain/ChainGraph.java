package io.chainfeed.chain;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.LayerCompany;
import io.chainfeed.avro.SqueezedCompany;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The chain's reference data as a graph, for {@link ChainModel}: the layers, each layer's
 * suppliers (the upstream layers it names that exist), the layers downstream of it with
 * their hops, its owners (the companies whose primary or other layers include it) and the
 * companies squeezed while it is tight. Built once from the layers and companies; every
 * list is in id order. Immutable after construction.
 */
final class ChainGraph {

    private final Map<String, ChainLayer> layers = new TreeMap<>();

    /**
     * Per layer: the layers it names as upstream that exist, without itself, in id order.
     */
    private final Map<String, List<String>> suppliers = new TreeMap<>();

    private final Map<String, List<String>> downstream = new TreeMap<>();

    private final Map<String, List<LayerCompany>> owners = new TreeMap<>();

    /** Per layer: every layer downstream of it with the fewest hops, in id order. */
    private final Map<String, Map<String, Integer>> reach = new TreeMap<>();

    /**
     * Per layer: the companies squeezed while it is tight (company, nearest layer, hops),
     * without causes.
     */
    private final Map<String, List<SqueezedCompany>> squeezable = new TreeMap<>();

    /**
     * @param layerList the chain layers (id, name, upstream ids); upstream ids that name
     * no layer, or the layer itself, are left out
     * @param companyList the companies (primary layer and other layers, listings); layers
     * that do not exist are left out
     */
    ChainGraph(Collection<ChainLayer> layerList, Collection<Company> companyList) {
        layerList.forEach(l -> layers.put(l.getId(), l));
        for (ChainLayer l : layers.values()) {
            List<String> ups = new ArrayList<>();
            for (String up : new TreeSet<>(l.getUpstream())) {
                if (layers.containsKey(up) && !up.equals(l.getId())) {
                    ups.add(up);
                }
            }
            suppliers.put(l.getId(), ups);
        }
        layers.keySet().forEach(id -> downstream.put(id, new ArrayList<>()));
        for (ChainLayer l : layers.values()) {
            for (String up : new TreeSet<>(l.getUpstream())) {
                if (layers.containsKey(up) && !up.equals(l.getId())) {
                    downstream.get(up).add(l.getId());
                }
            }
        }
        downstream.values().forEach(list -> list.sort(Comparator.naturalOrder()));
        List<Company> sorted = new ArrayList<>(companyList);
        sorted.sort(Comparator.comparing(Company::getId));
        for (Company c : sorted) {
            Set<String> its = new LinkedHashSet<>();
            its.add(c.getPrimaryLayer());
            its.addAll(c.getLayers());
            for (String layer : its) {
                if (layers.containsKey(layer)) {
                    owners.computeIfAbsent(layer, k -> new ArrayList<>()).add(company(c));
                }
            }
        }
        layers.keySet().forEach(id -> reach.put(id, distances(id)));
        layers.keySet().forEach(id -> squeezable.put(id, squeezable(id)));
    }

    /**
     * @return the layer ids, in id order
     */
    Set<String> ids() {
        return layers.keySet();
    }

    /**
     * @return the layers, in id order
     */
    Collection<ChainLayer> layers() {
        return layers.values();
    }

    /**
     * @param id a layer id
     * @return the layers it names as upstream that exist, without itself, in id order
     */
    List<String> suppliers(String id) {
        return suppliers.get(id);
    }

    /**
     * @param id a layer id
     * @return every layer downstream of it with the fewest hops (at least 1), in id order
     */
    Map<String, Integer> reach(String id) {
        return reach.get(id);
    }

    /**
     * @param id a layer id
     * @return its owners, by company id (empty when none)
     */
    List<LayerCompany> owners(String id) {
        return owners.getOrDefault(id, List.of());
    }

    /**
     * @param id a layer that squeezes
     * @param causes the tightening signals to name on each squeezed company
     * @return the companies of the layers downstream of it (not its own owners), each
     * with the nearest of those layers and its hops
     */
    List<SqueezedCompany> squeezed(String id, List<String> causes) {
        List<SqueezedCompany> out = new ArrayList<>();
        for (SqueezedCompany q : squeezable.get(id)) {
            out.add(SqueezedCompany.newBuilder(q).setCauses(causes).build());
        }
        return out;
    }

    private List<SqueezedCompany> squeezable(String id) {
        Map<String, Integer> hops = reach.get(id);
        Set<String> seen = new TreeSet<>();
        owners.getOrDefault(id, List.of()).forEach(c -> seen.add(c.getCompanyId()));
        List<SqueezedCompany> out = new ArrayList<>();
        for (String l : hops.keySet()) {
            for (LayerCompany c : owners.getOrDefault(l, List.of())) {
                if (seen.add(c.getCompanyId())) {
                    out.add(SqueezedCompany.newBuilder()
                        .setCompany(c)
                        .setViaLayer(l)
                        .setHops(hops.get(l))
                        .setCauses(List.of())
                        .build());
                }
            }
        }
        return out;
    }

    /**
     * Breadth-first downstream from a layer: every layer it reaches, with the fewest hops
     * (at least 1).
     */
    private Map<String, Integer> distances(String from) {
        Map<String, Integer> hops = new TreeMap<>();
        Deque<String> queue = new ArrayDeque<>();
        queue.add(from);
        Map<String, Integer> seen = new HashMap<>();
        seen.put(from, 0);
        while (!queue.isEmpty()) {
            String l = queue.poll();
            for (String d : downstream.get(l)) {
                if (!seen.containsKey(d)) {
                    seen.put(d, seen.get(l) + 1);
                    hops.put(d, seen.get(l) + 1);
                    queue.add(d);
                }
            }
        }
        return hops;
    }

    private static LayerCompany company(Company c) {
        String symbol = c.getListings().isEmpty() ? "" : c.getListings().get(0).getDisplaySymbol();
        return new LayerCompany(c.getId(), c.getName(), symbol);
    }

}
