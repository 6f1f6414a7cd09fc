package io.chainfeed.api.access;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.api.support.kafka.TopicAssignment;
import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Shares each key's usage between api instances over Kafka, so a key's rate holds across
 * them. Every {@code sync-interval} this instance publishes, per key it granted requests
 * to since the last report, one record to {@value Topics#API_KEY_USAGE}: key = key id,
 * value = JSON {@code {"instance":"<id>","ratePerMinute":<n>,"tokens":<granted>}}. It
 * reads that topic (by assignment, no consumer group: every instance reads every report)
 * and takes the tokens other instances granted out of its own bucket for the key
 * ({@link KeyRateLimits#charge}), which may go negative: a debt the refill pays back
 * before the key is granted again here. At start it replays the reports of the last
 * minute (a bucket's refill period), so a restarted instance does not start a busy key
 * with a full bucket.
 *
 * <p>
 * Error bound: a request granted on one instance reaches the others after at most D =
 * sync interval + Kafka's produce-to-fetch latency; until then they may grant it again.
 * Over any period of T seconds a key of rate r per minute (bucket capacity r) is granted
 * at most r + r*T/60 + (N-1)*G, where N is the number of api instances and G the most one
 * instance grants within D: with the bucket drained (sustained load) G is at most the
 * refill r*D/60 plus requests the instance saw in D; with a full bucket and a burst
 * landing on all instances at once G can reach the capacity r. The over-grant is repaid:
 * once the reports arrive the buckets hold the debt. A record that cannot be decoded is
 * logged and skipped (it only ever under-counts).
 *
 * <p>
 * The per-client limits ride the same topic: record key
 * {@code <policy>:<address or IPv6 /64>} ({@code client:} for the public paths,
 * {@code admin:} for the admin key paths), published only once this instance has granted
 * the client {@link ClientRateLimits#shareThreshold()} requests under that policy, and
 * charged to the client's bucket of the policy on the others
 * ({@link ClientRateLimits#charge}). Key ids never hold a colon; a report of a policy
 * this instance does not know is skipped.
 */
@Component
@EnableConfigurationProperties(RateLimitProperties.class)
public class KeyUsageExchange implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(KeyUsageExchange.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Duration REPLAY = Duration.ofMinutes(1);

    /** One usage report, as published. */
    record Report(String instance, int ratePerMinute, long tokens) {
    }

    private final KeyRateLimits limits;

    /** The per-client limits by policy name. */
    private final Map<String, ClientRateLimits> clients = new HashMap<>();

    private final RateLimitProperties props;

    private final String bootstrapServers;

    private volatile boolean running;

    private Thread thread;

    private KafkaProducer<String, byte[]> producer;

    private KafkaConsumer<String, byte[]> consumer;

    /**
     * @param limits the key buckets to share
     * @param clients the per-client limits to share, each under its policy's name
     * @param props the settings
     * @param kafka where the usage topic lives
     */
    public KeyUsageExchange(KeyRateLimits limits, List<ClientRateLimits> clients, RateLimitProperties props,
            KafkaConnectionProperties kafka) {
        this.limits = limits;
        clients.forEach(c -> this.clients.put(c.policy(), c));
        this.props = props;
        this.bootstrapServers = kafka.bootstrapServers();
    }

    @Override
    public void start() {
        if (!props.shared()) {
            log.info("rate limits are per api instance (chainfeed.rate-limits.shared=false)");
            return;
        }
        limits.recordUsage(true);
        clients.values().forEach(c -> c.recordUsage(true));
        producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.CLIENT_ID_CONFIG,
                        "chainfeed-api-key-usage-" + props.instanceId(), ProducerConfig.ACKS_CONFIG, "1",
                        ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000),
                new StringSerializer(), new ByteArraySerializer());
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, "chainfeed-api-key-usage-reader-" + props.instanceId(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100, ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false),
                new StringDeserializer(), new ByteArrayDeserializer());
        running = true;
        thread = new Thread(this::run, "key-usage-exchange");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Sends what this instance granted since the last report; a failed send is logged
     * (others under-count).
     */
    private void publish() {
        Map<String, KeyRateLimits.Usage> granted = limits.drainUsage();
        for (Map.Entry<String, KeyRateLimits.Usage> e : granted.entrySet()) {
            send(e.getKey(), e.getValue().ratePerMinute(), e.getValue().tokens());
        }
        for (ClientRateLimits c : clients.values()) {
            for (Map.Entry<String, Long> e : c.drainUsage().entrySet()) {
                send(c.policy() + ":" + e.getKey(), c.perMinute(), e.getValue());
            }
        }
    }

    private void send(String key, int ratePerMinute, long tokens) {
        byte[] value;
        try {
            value = JSON.writeValueAsBytes(new Report(props.instanceId(), ratePerMinute, tokens));
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
        try {
            producer.send(new ProducerRecord<>(Topics.API_KEY_USAGE, key, value), (m, ex) -> {
                if (ex != null) {
                    log.warn("usage report for {} not stored: {}", key, ex.getMessage());
                }
            });
        }
        catch (KafkaException ex) {
            log.warn("usage report for {} not sent: {}", key, ex.getMessage());
        }
    }

    /**
     * One thread does both: it reads the others' reports (each poll waits at most a sync
     * interval) and, once a sync interval has passed since its last report, publishes its
     * own.
     */
    private void run() {
        long interval = props.syncInterval().toMillis();
        long nextReport = System.currentTimeMillis() + interval;
        boolean assigned = false;
        try {
            while (running) {
                try {
                    assigned = assigned || assign();
                    if (assigned) {
                        consumer.poll(Duration.ofMillis(interval)).forEach(this::apply);
                    }
                    else {
                        Thread.sleep(interval);
                    }
                }
                catch (WakeupException e) {
                    throw e;
                }
                catch (KafkaException e) {
                    log.warn("{}: {}; retrying", Topics.API_KEY_USAGE, e.getMessage());
                    Thread.sleep(interval);
                }
                if (System.currentTimeMillis() >= nextReport) {
                    publish();
                    nextReport = System.currentTimeMillis() + interval;
                }
            }
        }
        catch (WakeupException | InterruptedException e) {
            // stopping
        }
        finally {
            publish();
            consumer.close(Duration.ofSeconds(5));
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** Assigns every partition, from the reports of the last minute on. */
    private boolean assign() {
        Optional<List<TopicPartition>> partitions = TopicAssignment.assignAll(consumer, Topics.API_KEY_USAGE);
        if (partitions.isEmpty()) {
            return false;
        }
        Map<TopicPartition, Long> since = new HashMap<>();
        long from = System.currentTimeMillis() - REPLAY.toMillis();
        partitions.get().forEach(tp -> since.put(tp, from));
        Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(since, Duration.ofSeconds(10));
        for (TopicPartition tp : partitions.get()) {
            OffsetAndTimestamp o = offsets.get(tp);
            if (o != null) {
                consumer.seek(tp, o.offset());
            }
            else {
                consumer.seekToEnd(List.of(tp));
            }
        }
        return true;
    }

    /**
     * Takes one report of another instance out of the bucket it names: a key's, or a
     * client's under the policy before the colon.
     * @param r a record of the usage topic
     */
    void apply(ConsumerRecord<String, byte[]> r) {
        if (r.key() == null || r.value() == null) {
            return;
        }
        Report report;
        try {
            report = JSON.readValue(r.value(), Report.class);
        }
        catch (IOException e) {
            log.warn("{}-{}@{}: not a usage report ({}); skipped", r.topic(), r.partition(), r.offset(),
                    e.getMessage());
            return;
        }
        if (props.instanceId().equals(report.instance()) || report.tokens() <= 0) {
            return; // our own grants are in our buckets already
        }
        int colon = r.key().indexOf(':');
        if (colon < 0) {
            limits.charge(r.key(), report.ratePerMinute(), report.tokens());
            return;
        }
        ClientRateLimits policy = clients.get(r.key().substring(0, colon));
        if (policy != null) {
            policy.charge(r.key().substring(colon + 1), report.tokens());
        }
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        consumer.wakeup();
        try {
            thread.join(15_000); // the thread sends a last report and closes its clients
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

}
