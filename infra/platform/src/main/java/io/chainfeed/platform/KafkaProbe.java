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

/**
 * A cheap liveness check of a Kafka cluster, for health endpoints: a cluster description
 * through one admin client, opened at the first check and kept until {@link #close} (a
 * client opened per check costs threads and connections and logs its whole configuration
 * each time, which a check every second turns into megabytes of log). Safe for concurrent
 * checks.
 */
public final class KafkaProbe implements AutoCloseable {

    private final String bootstrapServers;

    private final Duration timeout;

    private Admin admin;

    private boolean closed;

    /**
     * @param bootstrapServers {@code host:port[,host:port]}
     * @param timeout how long one check waits for each answer (also the admin client's
     * request timeout)
     */
    public KafkaProbe(String bootstrapServers, Duration timeout) {
        this.bootstrapServers = bootstrapServers;
        this.timeout = timeout;
    }

    /**
     * Describes the cluster.
     * @return cluster id, controller id and broker count
     * @throws IllegalStateException if the cluster does not answer in time, the thread is
     * interrupted or the probe is closed
     */
    public Map<String, Object> describe() {
        try {
            DescribeClusterResult r = admin().describeCluster();
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
            throw new IllegalStateException("Kafka at " + bootstrapServers + " did not answer: " + e.getMessage(), e);
        }
    }

    private synchronized Admin admin() {
        if (closed) {
            throw new IllegalStateException("the Kafka probe is closed");
        }
        if (admin == null) {
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
            admin = Admin.create(p);
        }
        return admin;
    }

    /** Closes the admin client, if a check opened one. */
    @Override
    public synchronized void close() {
        closed = true;
        if (admin != null) {
            admin.close(timeout);
            admin = null;
        }
    }

}
