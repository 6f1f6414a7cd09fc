package io.chainfeed.devstack;

import io.chainfeed.platform.IndexSetup;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.TopicSetup;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.http.HttpHost;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka and Elasticsearch side of a stack: starts the brokers and nodes of a
 * {@link StackLayout} in parallel (one of each for the embedded default; a KRaft cluster
 * of combined broker + controller nodes and an Elasticsearch cluster for
 * {@code --cluster}), or takes external ones, then creates the topics and the reads index
 * with the stack's replication.
 */
final class StackInfrastructure {

    private static final Logger LOG = LoggerFactory.getLogger(StackInfrastructure.class);

    /**
     * How the infrastructure runs.
     *
     * @param kafkaLib the broker jars
     * @param esHome the unpacked Elasticsearch distribution
     * @param kafkaHeap heap of each broker
     * @param esHeap heap of each Elasticsearch node
     * @param partitions partitions of the keyed data topics
     * @param replicationFactor replicas of every topic (and of the brokers' internal
     * topics)
     * @param minInsyncReplicas {@code min.insync.replicas} of the brokers
     * @param esReplicas replicas of the reads index's shard
     * @param startTimeout how long each broker and node may take to start
     * @param externalKafka bootstrap servers of a Kafka to use instead of starting
     * brokers, or null
     * @param externalEs comma-separated URLs of an Elasticsearch to use instead of
     * starting nodes, or null
     */
    record Settings(Path kafkaLib, Path esHome, String kafkaHeap, String esHeap, int partitions,
            short replicationFactor, int minInsyncReplicas, int esReplicas, Duration startTimeout, String externalKafka,
            String externalEs) {
    }

    private final StackLayout layout;

    private final Settings settings;

    private final List<KafkaNode> brokers = new CopyOnWriteArrayList<>();

    private final List<ElasticsearchNode> esNodes = new CopyOnWriteArrayList<>();

    private final List<Supervisor> kafkaSupervisors = new CopyOnWriteArrayList<>();

    private final List<Supervisor> esSupervisors = new CopyOnWriteArrayList<>();

    private String bootstrapServers;

    private String esUris;

    StackInfrastructure(StackLayout layout, Settings settings) {
        this.layout = layout;
        this.settings = settings;
    }

    /**
     * Starts the brokers and nodes (all at once: a controller quorum and a new
     * Elasticsearch cluster form only when their members are up together) and waits until
     * each answers.
     *
     * Each is started by a {@link Supervisor} ({@link NodeProcess}), which restarts it
     * after an unexpected exit once it was up, never once {@code stop} has begun.
     * @param register called before any node starts with what stops the nodes and what
     * stops the brokers (stopped in the reverse order: the brokers first, then
     * Elasticsearch), so a failed start still stops them
     * @param stop the stack's stop
     * @throws IllegalStateException when a node does not start
     * @throws IOException when a run dir cannot be prepared
     */
    void start(RunDir run, Consumer<AutoCloseable> register, StackStop stop) throws IOException {
        List<CompletableFuture<?>> starts = new ArrayList<>();
        int n = layout.kafkaPorts().size();
        // Each kind stops as a group, its nodes in parallel: the last broker of a cluster
        // stopped alone
        // would wait in vain for a controller quorum to let it shut down.
        register.accept(() -> closeAll(esSupervisors));
        register.accept(() -> closeAll(kafkaSupervisors));
        if (settings.externalKafka() == null) {
            String clusterId = n > 1 ? Uuid.randomUuid().toString() : null;
            for (int i = 0; i < n; i++) {
                KafkaNode.Membership member = n == 1 ? KafkaNode.Membership.SINGLE : new KafkaNode.Membership(i + 1,
                        layout.quorumVoters(), clusterId, settings.replicationFactor(), settings.minInsyncReplicas());
                KafkaNode node = KafkaNode.builder(settings.kafkaLib(), run.kafka(i + 1, n))
                    .port(layout.kafkaPorts().get(i))
                    .controllerPort(layout.controllerPorts().get(i))
                    .heap(settings.kafkaHeap())
                    .numPartitions(settings.partitions())
                    .member(member)
                    .keepData(true)
                    .startTimeout(settings.startTimeout())
                    .shutdownHook(false)
                    .ownSession(true)
                    .build();
                brokers.add(node);
                Supervisor supervisor = supervise(n == 1 ? "kafka" : "kafka-" + (i + 1), node, stop);
                kafkaSupervisors.add(supervisor);
                starts.add(CompletableFuture.runAsync(() -> startAndAwait(supervisor)));
            }
        }
        int m = layout.esHttpPorts().size();
        if (settings.externalEs() == null) {
            for (int i = 0; i < m; i++) {
                ElasticsearchNode.Discovery discovery = m == 1 ? ElasticsearchNode.Discovery.SINGLE
                        : new ElasticsearchNode.Discovery(layout.esNodeNames().get(i), layout.esSeedHosts(),
                                layout.esNodeNames());
                ElasticsearchNode node = ElasticsearchNode.builder(settings.esHome(), run.elasticsearch(i + 1, m))
                    .httpPort(layout.esHttpPorts().get(i))
                    .transportPort(layout.esTransportPorts().get(i))
                    .discovery(discovery)
                    .heap(settings.esHeap())
                    .keepData(true)
                    .startTimeout(settings.startTimeout())
                    .shutdownHook(false)
                    .ownSession(true)
                    .build();
                esNodes.add(node);
                Supervisor supervisor = supervise(m == 1 ? "elasticsearch" : "elasticsearch-" + (i + 1), node, stop);
                esSupervisors.add(supervisor);
                starts.add(CompletableFuture.runAsync(() -> startAndAwait(supervisor)));
            }
        }
        try {
            CompletableFuture.allOf(starts.toArray(CompletableFuture<?>[]::new)).join();
        }
        catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw io.getCause();
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        }
        bootstrapServers = settings.externalKafka() != null ? settings.externalKafka()
                : brokers.stream().map(KafkaNode::bootstrapServers).collect(Collectors.joining(","));
        esUris = settings.externalEs() != null ? settings.externalEs()
                : esNodes.stream().map(node -> node.httpUri().toString()).collect(Collectors.joining(","));
    }

    private Supervisor supervise(String name, LocalNode<?> node, StackStop stop) {
        return new Supervisor(name, new NodeProcess(node), RestartPolicy.DEFAULT, settings.startTimeout(), stop);
    }

    private void startAndAwait(Supervisor supervisor) {
        try {
            supervisor.start();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        supervisor.awaitReady(settings.startTimeout(), true);
    }

    private static void closeAll(List<Supervisor> nodes) {
        CompletableFuture
            .allOf(nodes.stream()
                .map(node -> CompletableFuture.runAsync(node::close))
                .toArray(CompletableFuture<?>[]::new))
            .join();
    }

    /** The supervisors of the started brokers and nodes (brokers first). */
    List<Supervisor> supervisors() {
        List<Supervisor> all = new ArrayList<>(kafkaSupervisors);
        all.addAll(esSupervisors);
        return all;
    }

    /**
     * Creates the topics (with the stack's replication factor, once every broker has
     * registered) and the reads index (with the stack's replica count; green once the
     * replica is assigned).
     * @throws IOException when Elasticsearch refuses
     * @throws IllegalStateException when the brokers or the index do not come up in time
     */
    void setUpTopicsAndIndex() throws IOException {
        if (!brokers.isEmpty()) {
            awaitBrokers(brokers.size());
        }
        TopicSetup.ensure(bootstrapServers, Topics.all(settings.partitions()), settings.replicationFactor());
        HttpHost[] hosts = List.of(esUris.split(","))
            .stream()
            .map(String::strip)
            .map(HttpHost::create)
            .toArray(HttpHost[]::new);
        try (RestClient client = RestClient.builder(hosts).build()) {
            IndexSetup.waitForYellow(client, Duration.ofSeconds(60));
            IndexSetup.ensureReadsIndex(client);
            if (settings.esReplicas() > 0) {
                // The index's file says 0 replicas (one node); a cluster gives the shard
                // its copies here.
                Request replicas = new Request("PUT", "/" + ReadsIndex.ALIAS + "/_settings");
                replicas.setJsonEntity("{\"index\": {\"number_of_replicas\": " + settings.esReplicas() + "}}");
                client.performRequest(replicas);
                // The whole cluster green with every node joined: each shard has its
                // replica on another node.
                Request green = new Request("GET", "/_cluster/health");
                green.addParameter("wait_for_status", "green");
                green.addParameter("wait_for_nodes", Integer.toString(Math.max(1, esNodes.size())));
                green.addParameter("timeout", "120s");
                client.performRequest(green);
                LOG.info("reads index: {} replica(s); Elasticsearch cluster green with {} node(s)",
                        settings.esReplicas(), Math.max(1, esNodes.size()));
            }
        }
    }

    /** Waits until the cluster metadata lists {@code expected} brokers. */
    private void awaitBrokers(int expected) {
        Map<String, Object> config = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                5000);
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        try (Admin admin = Admin.create(config)) {
            while (true) {
                int seen;
                try {
                    seen = admin.describeCluster().nodes().get(6, TimeUnit.SECONDS).size();
                }
                catch (Exception e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting for the brokers", e);
                    }
                    seen = 0;
                }
                if (seen >= expected) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(seen + " of " + expected + " Kafka brokers registered after "
                            + settings.startTimeout().toSeconds() + " s");
                }
                Processes.sleep(Duration.ofMillis(250));
            }
        }
    }

    /** Kafka's bootstrap servers, comma-separated, once started. */
    String bootstrapServers() {
        return bootstrapServers;
    }

    /** Elasticsearch's HTTP endpoints, comma-separated, once started. */
    String elasticsearchUris() {
        return esUris;
    }

    /** The started brokers, by node id (none with an external Kafka). */
    List<KafkaNode> brokers() {
        return List.copyOf(brokers);
    }

    /** The started Elasticsearch nodes (none with an external Elasticsearch). */
    List<ElasticsearchNode> elasticsearchNodes() {
        return List.copyOf(esNodes);
    }

    /** The first broker, if one was started. */
    Optional<KafkaNode> firstBroker() {
        return brokers.stream().findFirst();
    }

    /** The first node, if one was started. */
    Optional<ElasticsearchNode> firstElasticsearchNode() {
        return esNodes.stream().findFirst();
    }

    /** How long the slowest started node took to answer, per product, for the banner. */
    static String readyAfter(List<? extends LocalNode<?>> nodes) {
        return nodes.stream()
            .map(LocalNode::readyAfter)
            .max(Duration::compareTo)
            .map(d -> String.format(" (ready in %.1f s)", d.toMillis() / 1000.0))
            .orElse(" (external)");
    }

    /** The first URL of a comma-separated list. */
    static URI first(String commaSeparated) {
        return URI.create(commaSeparated.split(",")[0].strip());
    }

}
