package io.chainfeed.devstack;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Where every process of a stack listens on 127.0.0.1, and how many of each there are:
 * Kafka brokers (each a combined broker + controller with two ports), Elasticsearch nodes
 * (HTTP and transport port), instances of each service (streams, ingest, api) and the
 * demo page.
 *
 * <p>
 * {@link #fromBase} lays a stack out from one port base, so that a second stack runs
 * beside the first by choosing another base: brokers at base+0.., controllers base+10..,
 * Elasticsearch HTTP base+20.. and transport base+30.., streams base+40.., ingest
 * base+50.., api base+60.., the demo page base+70 (room for ten of each).
 *
 * @param kafkaPorts broker ports, one a broker (node ids 1..n in this order)
 * @param controllerPorts controller ports, in the same order
 * @param esHttpPorts Elasticsearch HTTP ports, one a node
 * @param esTransportPorts Elasticsearch transport ports, in the same order
 * @param servicePorts service name to the HTTP ports of its instances, in start order
 * @param demoPort the demo partner page's port
 */
record StackLayout(List<Integer> kafkaPorts, List<Integer> controllerPorts, List<Integer> esHttpPorts,
        List<Integer> esTransportPorts, Map<String, List<Integer>> servicePorts, int demoPort) {

    /**
     * The services, in start order: streams (consumes), ingest (loads the corpus), api
     * (serves).
     */
    static final List<String> SERVICES = List.of("streams", "ingest", "api");

    /**
     * Brokers of the local cluster: a controller quorum of three survives the loss of
     * one.
     */
    static final int CLUSTER_BROKERS = 3;

    /**
     * Elasticsearch nodes of the local cluster: a primary and its replica on different
     * nodes, and three master-eligible nodes, so that a master is elected again when one
     * is lost (two keep only one of them in the voting configuration).
     */
    static final int CLUSTER_ES_NODES = 3;

    /** Instances of each service in the local cluster. */
    static final int CLUSTER_INSTANCES = 2;

    private static final int STRIDE = 10;

    StackLayout {
        kafkaPorts = List.copyOf(kafkaPorts);
        controllerPorts = List.copyOf(controllerPorts);
        esHttpPorts = List.copyOf(esHttpPorts);
        esTransportPorts = List.copyOf(esTransportPorts);
        servicePorts = Collections.unmodifiableMap(new LinkedHashMap<>(servicePorts));
    }

    /**
     * One of everything, on the given ports (the embedded default's options).
     */
    static StackLayout single(int kafkaPort, int controllerPort, int esPort, int esTransportPort, int streamsPort,
            int ingestPort, int apiPort, int demoPort) {
        Map<String, List<Integer>> services = new LinkedHashMap<>();
        services.put("streams", List.of(streamsPort));
        services.put("ingest", List.of(ingestPort));
        services.put("api", List.of(apiPort));
        return new StackLayout(List.of(kafkaPort), List.of(controllerPort), List.of(esPort), List.of(esTransportPort),
                services, demoPort);
    }

    /**
     * A layout from one port base (see the class comment for the offsets).
     * @param base the first port
     * @param brokers Kafka brokers, 1..10
     * @param esNodes Elasticsearch nodes, 1..10
     * @param instances instances of each service, 1..10
     * @throws IllegalArgumentException when a count is out of range or the ports run past
     * 65535
     */
    static StackLayout fromBase(int base, int brokers, int esNodes, int instances) {
        for (int n : new int[] { brokers, esNodes, instances }) {
            if (n < 1 || n > STRIDE) {
                throw new IllegalArgumentException("between 1 and " + STRIDE + " of each, got " + n);
            }
        }
        if (base < 1024 || base + 7 * STRIDE > 65535) {
            throw new IllegalArgumentException("port base must be in 1024.." + (65535 - 7 * STRIDE) + ", got " + base);
        }
        Map<String, List<Integer>> services = new LinkedHashMap<>();
        for (int s = 0; s < SERVICES.size(); s++) {
            services.put(SERVICES.get(s), range(base + (4 + s) * STRIDE, instances));
        }
        return new StackLayout(range(base, brokers), range(base + STRIDE, brokers), range(base + 2 * STRIDE, esNodes),
                range(base + 3 * STRIDE, esNodes), services, base + 7 * STRIDE);
    }

    /**
     * The local cluster from a port base: three brokers, three Elasticsearch nodes, two
     * of each service.
     */
    static StackLayout cluster(int base) {
        return fromBase(base, CLUSTER_BROKERS, CLUSTER_ES_NODES, CLUSTER_INSTANCES);
    }

    private static List<Integer> range(int from, int n) {
        return IntStream.range(from, from + n).boxed().toList();
    }

    /**
     * {@code controller.quorum.voters}: {@code 1@127.0.0.1:<controller port>,2@...}, node
     * ids from 1.
     */
    String quorumVoters() {
        return IntStream.range(0, controllerPorts.size())
            .mapToObj(i -> (i + 1) + "@127.0.0.1:" + controllerPorts.get(i))
            .collect(Collectors.joining(","));
    }

    /** The Elasticsearch transport addresses, for {@code discovery.seed_hosts}. */
    List<String> esSeedHosts() {
        return esTransportPorts.stream().map(p -> "127.0.0.1:" + p).toList();
    }

    /** The Elasticsearch node names, {@code n1..}. */
    List<String> esNodeNames() {
        return IntStream.rangeClosed(1, esHttpPorts.size()).mapToObj(i -> "n" + i).toList();
    }

    /** How many instances each service has. */
    int instances() {
        return servicePorts.get("streams").size();
    }

    /**
     * The name of one instance: the service's name when it has one instance, else
     * {@code <service>-<n>} from 1.
     */
    String instanceName(String service, int index) {
        return instances() == 1 ? service : service + "-" + (index + 1);
    }

    /**
     * The ports of the layout between two ports, in order (for the warning about the
     * kernel's ephemeral port range).
     * @param first the first port of the range
     * @param last the last port of the range
     * @param services whether the services' ports count
     * @param demo whether the demo page's port counts
     */
    List<Integer> portsBetween(int first, int last, boolean services, boolean demo) {
        return allPorts(services, demo).keySet().stream().filter(p -> p >= first && p <= last).sorted().toList();
    }

    /**
     * Every port of the layout with what listens there, for the check that they are free.
     */
    Map<Integer, String> allPorts(boolean services, boolean demo) {
        Map<Integer, String> all = new LinkedHashMap<>();
        for (int i = 0; i < kafkaPorts.size(); i++) {
            all.put(kafkaPorts.get(i), "Kafka broker " + (i + 1));
            all.put(controllerPorts.get(i), "Kafka controller " + (i + 1));
        }
        for (int i = 0; i < esHttpPorts.size(); i++) {
            all.put(esHttpPorts.get(i), "Elasticsearch HTTP n" + (i + 1));
            all.put(esTransportPorts.get(i), "Elasticsearch transport n" + (i + 1));
        }
        if (services) {
            servicePorts.forEach((service, ports) -> {
                for (int i = 0; i < ports.size(); i++) {
                    all.put(ports.get(i), instanceName(service, i));
                }
            });
            if (demo) {
                all.put(demoPort, "demo partner page");
            }
        }
        return all;
    }
}
