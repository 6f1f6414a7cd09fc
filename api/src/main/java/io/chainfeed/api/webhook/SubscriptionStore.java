package io.chainfeed.api.webhook;

import io.chainfeed.api.support.kafka.CompactedTopicView;
import io.chainfeed.avro.WebhookSubscription;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Webhook subscriptions on the compacted topic {@value Topics#WEBHOOK_SUBSCRIPTIONS},
 * held in memory (every API node reads the whole topic). The highest revision of a
 * subscription wins; writes are acknowledged by Kafka before they return and are visible
 * here at once.
 */
public class SubscriptionStore extends CompactedTopicView<WebhookSubscription> {

    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(15);

    private final Producer<String, byte[]> producer;

    private final AvroSerde<WebhookSubscription> serde = AvroSerde.of(WebhookSubscription.class);

    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param bootstrapServers Kafka
     * @param producer writes the subscriptions (shared, idempotent)
     * @param meters the service's registry (the reader's Kafka metrics and dead letters)
     */
    public SubscriptionStore(String bootstrapServers, Producer<String, byte[]> producer, MeterRegistry meters) {
        super(bootstrapServers, Topics.WEBHOOK_SUBSCRIPTIONS, "chainfeed-api-webhook-subscriptions",
                WebhookSubscription.class, meters);
        this.producer = producer;
    }

    /**
     * @param listener hears the id of every subscription that changed or was deleted
     */
    public void onChange(Consumer<String> listener) {
        listeners.add(listener);
    }

    @Override
    protected boolean accept(String key, WebhookSubscription existing, WebhookSubscription incoming) {
        return existing == null || incoming == null || incoming.getRevision() >= existing.getRevision();
    }

    @Override
    protected void changed(String key, WebhookSubscription value) {
        listeners.forEach(l -> l.accept(key));
    }

    /**
     * @param id a subscription id
     * @return the subscription
     */
    public Optional<WebhookSubscription> get(String id) {
        return value(id);
    }

    /**
     * @return every subscription, oldest first
     */
    public List<WebhookSubscription> all() {
        return values().stream()
            .sorted(Comparator.comparing(WebhookSubscription::getCreatedAt).thenComparing(WebhookSubscription::getId))
            .toList();
    }

    /**
     * Writes a subscription and waits for Kafka to acknowledge it.
     * @param subscription the new value (a higher revision than the stored one)
     * @throws WebhookStoreException if Kafka did not acknowledge it in time
     */
    public void put(WebhookSubscription subscription) {
        send(subscription.getId(), serde.serialize(Topics.WEBHOOK_SUBSCRIPTIONS, subscription));
        remember(subscription.getId(), subscription);
    }

    /**
     * Deletes a subscription (a tombstone) and waits for Kafka to acknowledge it.
     * @param id the subscription id
     * @throws WebhookStoreException if Kafka did not acknowledge it in time
     */
    public void delete(String id) {
        send(id, null);
        forget(id);
    }

    private void send(String key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(Topics.WEBHOOK_SUBSCRIPTIONS, key, value))
                .get(WRITE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WebhookStoreException("interrupted while storing subscription " + key, e);
        }
        catch (ExecutionException | TimeoutException e) {
            throw new WebhookStoreException("Kafka did not store subscription " + key + ": " + e.getMessage(), e);
        }
    }

}
