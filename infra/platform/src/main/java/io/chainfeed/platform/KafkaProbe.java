package io.chainfeed.platform;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;

/** A cheap liveness check of a Kafka cluster, for health endpoints. */
public final class KafkaProbe {

    private KafkaProbe() {
    }

    /**
     * Describes the cluster with a short-lived admin client.
     * @param bootstrapServers {@code host:port[,host:port]}
     * @param timeout how long to wait for the answer
     * @return cluster id, controller id and broker count
     * @throws IllegalStateException if the cluster does not answer in time
     */
    public static Map<String, Object> describe(String bootstrapServers, Duration timeout) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(p)) {
            return describe(admin, bootstrapServers, timeout);
        }
    }

    /**
     * The same check through an admin client the caller keeps open (a check that runs
     * every second should not open and close a client, with its threads, connections and
     * logged configuration, each time).
     * @param admin an open admin client of the cluster
     * @param name how the cluster is named in an error (its bootstrap servers)
     * @param timeout how long each answer may take
     * @return clusterId, controller (broker id) and brokers (how many)
     * @throws IllegalStateException when the cluster does not answer in time, or the
     * thread is interrupted
     */
    public static Map<String, Object> describe(Admin admin, String name, Duration timeout) {
        try {
            DescribeClusterResult r = admin.describeCluster();
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("clusterId", r.clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
            details.put("controller", r.controller().get(timeout.toMillis(), TimeUnit.MILLISECONDS).idString());
            details.put("brokers", r.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).size());
            return details;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while probing Kafka", e);
        }
        catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka at " + name + " did not answer: " + e.getMessage(), e);
        }
    }

}
