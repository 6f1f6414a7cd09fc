package io.chainfeed.ingest.publish;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The largest record each topic takes, read from the broker: the topic's effective
 * {@code max.message.bytes} (the topic's own setting, else the broker's
 * {@code message.max.bytes}), capped by the producer's {@code max.request.size}. Values
 * are read when first needed and again after {@link #REFRESH}; while the broker cannot be
 * asked, the last value read stands (or, before any, only the producer's cap applies and
 * the broker has the last word).
 */
public final class RecordLimits implements AutoCloseable {

    /** How long a topic's limit is trusted before it is read again. */
    public static final Duration REFRESH = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(RecordLimits.class);

    private final Admin admin;

    private final int producerMaxRequestSize;

    private final Map<String, Limit> limits = new ConcurrentHashMap<>();

    private record Limit(int bytes, long readAtNanos) {
    }

    /**
     * @param admin an admin client; closed with this object
     * @param producerMaxRequestSize the producers' {@code max.request.size}, in bytes
     */
    public RecordLimits(Admin admin, int producerMaxRequestSize) {
        this.admin = admin;
        this.producerMaxRequestSize = producerMaxRequestSize;
    }

    /**
     * Reads the limits of the given topics now (at start, while the broker is known to be
     * up).
     * @param topics topic names
     * @param timeout how long to wait for the broker
     */
    public void load(Collection<String> topics, Duration timeout) {
        for (String t : topics) {
            read(t, timeout);
        }
    }

    /**
     * @param topic a topic
     * @return the largest record it takes, in bytes
     */
    public int limit(String topic) {
        Limit l = limits.get(topic);
        if (l == null || System.nanoTime() - l.readAtNanos() > REFRESH.toNanos()) {
            // A short wait only: the caller has a deadline, and a stale limit is better
            // than none.
            l = read(topic, Duration.ofMillis(500));
        }
        return l == null ? producerMaxRequestSize : Math.min(l.bytes(), producerMaxRequestSize);
    }

    /**
     * Reads a topic's limit again now (after the broker refused a record as too large:
     * the topic's setting may have been lowered since it was read).
     * @param topic a topic
     * @return the largest record it takes, in bytes
     */
    public int refresh(String topic) {
        Limit l = read(topic, Duration.ofSeconds(1));
        return l == null ? producerMaxRequestSize : Math.min(l.bytes(), producerMaxRequestSize);
    }

    /**
     * @param records records about to be sent
     * @throws OversizedRecordException for the first record over its topic's limit
     */
    public void check(List<ProducerRecord<String, byte[]>> records) {
        for (ProducerRecord<String, byte[]> r : records) {
            int size = sizeOf(r);
            int limit = limit(r.topic());
            if (size > limit) {
                throw new OversizedRecordException(r.topic(), size, limit);
            }
        }
    }

    /**
     * @param r a record
     * @return its size as a batch of one, uncompressed (an upper bound; what the broker
     * compares with {@code max.message.bytes})
     */
    public static int sizeOf(ProducerRecord<String, byte[]> r) {
        byte[] key = r.key() == null ? null : r.key().getBytes(StandardCharsets.UTF_8);
        return AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE, CompressionType.NONE, key,
                r.value(), r.headers().toArray());
    }

    private Limit read(String topic, Duration timeout) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            Config config = admin.describeConfigs(List.of(resource))
                .all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .get(resource);
            ConfigEntry e = config == null ? null : config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (e == null || e.value() == null) {
                return limits.get(topic);
            }
            Limit l = new Limit(Integer.parseInt(e.value()), System.nanoTime());
            limits.put(topic, l);
            return l;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return limits.get(topic);
        }
        catch (Exception e) {
            log.debug("cannot read max.message.bytes of {}: {}", topic, e.toString());
            return limits.get(topic);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }

}
