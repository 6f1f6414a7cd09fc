package io.chainfeed.api.support.es;

import java.io.IOException;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.http.client.config.RequestConfig;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RequestOptions;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a slow Elasticsearch from a frozen or dead one: a {@code HEAD /} (the cluster's
 * root, answered by the node's transport threads, not its search thread pool) with its
 * own short connect and socket timeout. A node busy with searches answers it at once; a
 * stopped ({@code SIGSTOP}), hung or unreachable node does not.
 *
 * <p>
 * One probe at a time: concurrent callers wait for it and share its answer, which stands
 * for {@code ttl}, so a burst of slow searches costs one probe, not one each.
 */
public class LivenessProbe {

    private static final Logger log = LoggerFactory.getLogger(LivenessProbe.class);

    /** Asks Elasticsearch once; true when it answered in time (any HTTP status). */
    @FunctionalInterface
    public interface Check {

        /**
         * @return whether Elasticsearch answered
         */
        boolean answers();

    }

    private final Check check;

    private final long ttlNanos;

    private final LongSupplier nanoTime;

    private long checkedAt;

    private boolean alive;

    private boolean checked;

    /**
     * @param check one probe
     * @param ttl how long an answer stands
     * @param nanoTime the clock ({@link System#nanoTime} outside tests)
     */
    public LivenessProbe(Check check, Duration ttl, LongSupplier nanoTime) {
        this.check = check;
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * A probe of {@code HEAD /} on a low-level client.
     * @param client the api's Elasticsearch client (its connection pool is shared; the
     * probe does not go through the bulkhead)
     * @param timeout connect and socket timeout of the probe
     * @param ttl how long an answer stands
     * @return the probe
     */
    public static LivenessProbe of(RestClient client, Duration timeout, Duration ttl) {
        int ms = (int) Math.max(1, timeout.toMillis());
        RequestOptions options = RequestOptions.DEFAULT.toBuilder()
            .setRequestConfig(RequestConfig.custom()
                .setConnectTimeout(ms)
                .setSocketTimeout(ms)
                .setConnectionRequestTimeout(ms)
                .build())
            .build();
        return new LivenessProbe(() -> {
            Request head = new Request("HEAD", "/");
            head.setOptions(options);
            try {
                client.performRequest(head);
                return true;
            }
            catch (org.elasticsearch.client.ResponseException e) {
                return true; // an error status is still an answer
            }
            catch (IOException | RuntimeException e) {
                log.warn("Elasticsearch did not answer a liveness probe within {}: {}", timeout, e.toString());
                return false;
            }
        }, ttl, System::nanoTime);
    }

    /**
     * @return whether Elasticsearch answers, from the last probe if it is younger than
     * the ttl, else from a new one (blocks up to the probe's timeout)
     */
    public synchronized boolean alive() {
        long now = nanoTime.getAsLong();
        if (!checked || now - checkedAt >= ttlNanos) {
            alive = check.answers();
            checkedAt = nanoTime.getAsLong();
            checked = true;
        }
        return alive;
    }

}
