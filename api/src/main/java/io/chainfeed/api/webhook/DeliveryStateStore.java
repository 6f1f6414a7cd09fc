package io.chainfeed.api.webhook;

import io.chainfeed.api.support.kafka.CompactedTopicView;
import io.chainfeed.avro.WebhookDeliveryState;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each webhook subscription's delivery progress on the compacted topic
 * {@value Topics#WEBHOOK_DELIVERIES} (subscription id -> {@link WebhookDeliveryState}),
 * held in memory; the highest revision wins. Read back at start so deliveries resume
 * where they stopped.
 */
public class DeliveryStateStore extends CompactedTopicView<WebhookDeliveryState> {

    private static final Logger log = LoggerFactory.getLogger(DeliveryStateStore.class);

    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(15);

    private final Producer<String, byte[]> producer;

    private final AvroSerde<WebhookDeliveryState> serde = AvroSerde.of(WebhookDeliveryState.class);

    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param bootstrapServers Kafka
     * @param producer writes the states (shared, idempotent: one subscription's writes
     * stay in order)
     * @param meters the service's registry (the reader's Kafka metrics and dead letters)
     */
    public DeliveryStateStore(String bootstrapServers, Producer<String, byte[]> producer, MeterRegistry meters) {
        super(bootstrapServers, Topics.WEBHOOK_DELIVERIES, "chainfeed-api-webhook-deliveries",
                WebhookDeliveryState.class, meters);
        this.producer = producer;
    }

    @Override
    protected boolean accept(String key, WebhookDeliveryState existing, WebhookDeliveryState incoming) {
        return existing == null || incoming == null || incoming.getRevision() >= existing.getRevision();
    }

    /**
     * @param listener hears the id of every subscription whose state changed or was
     * deleted
     */
    public void onChange(Consumer<String> listener) {
        listeners.add(listener);
    }

    @Override
    protected void changed(String key, WebhookDeliveryState value) {
        listeners.forEach(l -> l.accept(key));
    }

    /**
     * @param subscriptionId a subscription
     * @return its stored progress
     */
    public Optional<WebhookDeliveryState> get(String subscriptionId) {
        return value(subscriptionId);
    }

    /**
     * Writes a state and waits for Kafka to acknowledge it.
     * @param state the state
     * @throws WebhookStoreException if Kafka did not acknowledge it in time
     */
    public void put(WebhookDeliveryState state) {
        put(state, WRITE_TIMEOUT);
    }

    /**
     * Writes a state and waits at most {@code timeout} for Kafka to acknowledge it.
     * @param state the new state
     * @param timeout the longest wait
     * @throws WebhookStoreException if Kafka did not acknowledge it in time
     */
    public void put(WebhookDeliveryState state, Duration timeout) {
        await(send(state.getSubscriptionId(), serde.serialize(Topics.WEBHOOK_DELIVERIES, state)),
                state.getSubscriptionId(), timeout);
        remember(state.getSubscriptionId(), state);
    }

    /**
     * Writes a state without waiting; a failure is logged (the next state supersedes it).
     * @param state the state
     */
    public void save(WebhookDeliveryState state) {
        remember(state.getSubscriptionId(), state);
        producer.send(new ProducerRecord<>(Topics.WEBHOOK_DELIVERIES, state.getSubscriptionId(),
                serde.serialize(Topics.WEBHOOK_DELIVERIES, state)), (meta, e) -> {
                    if (e != null) {
                        log.warn("cannot store the delivery state of {}: {}", state.getSubscriptionId(),
                                e.getMessage());
                    }
                });
    }

    /**
     * Deletes a state (a tombstone) and waits for Kafka to acknowledge it.
     * @param subscriptionId the subscription
     */
    public void delete(String subscriptionId) {
        await(send(subscriptionId, null), subscriptionId);
        forget(subscriptionId);
    }

    private Future<RecordMetadata> send(String key, byte[] value) {
        return producer.send(new ProducerRecord<>(Topics.WEBHOOK_DELIVERIES, key, value));
    }

    private static void await(Future<RecordMetadata> f, String key) {
        await(f, key, WRITE_TIMEOUT);
    }

    private static void await(Future<RecordMetadata> f, String key, Duration timeout) {
        try {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WebhookStoreException("interrupted while storing the delivery state of " + key, e);
        }
        catch (ExecutionException | TimeoutException e) {
            throw new WebhookStoreException("Kafka did not store the delivery state of " + key + ": " + e.getMessage(),
                    e);
        }
    }

}
