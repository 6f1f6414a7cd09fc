package io.chainfeed.api.webhook;

import io.chainfeed.avro.WebhookDeliveryState;
import io.chainfeed.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The engine's journal on Kafka: progress to {@value Topics#WEBHOOK_DELIVERIES}, given-up
 * webhooks to {@value Topics#WEBHOOK_DELIVERIES_DLQ} (key = subscription id, value = the
 * body, the reason in {@value Topics#DLQ_REASON_HEADER}, the read record in
 * {@value Topics#DLQ_ORIGIN_HEADER}, the id in {@code webhook-id}), and disabling through
 * the subscription service.
 */
final class KafkaDeliveryJournal implements DeliveryJournal {

    private final DeliveryStateStore states;

    private final SubscriptionService subscriptions;

    private final Producer<String, byte[]> producer;

    KafkaDeliveryJournal(DeliveryStateStore states, SubscriptionService subscriptions,
            Producer<String, byte[]> producer) {
        this.states = states;
        this.subscriptions = subscriptions;
        this.producer = producer;
    }

    @Override
    public void save(WebhookDeliveryState state) {
        states.save(state);
    }

    @Override
    public void flush(WebhookDeliveryState state) {
        states.put(state);
    }

    @Override
    public void flush(WebhookDeliveryState state, Duration timeout) {
        states.put(state, timeout);
    }

    @Override
    public void deadLetter(String subscriptionId, String webhookId, String body, String reason, String origin)
            throws Exception {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(Topics.WEBHOOK_DELIVERIES_DLQ, subscriptionId,
                body.getBytes(StandardCharsets.UTF_8));
        r.headers().add(Topics.DLQ_REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
        r.headers().add(Topics.DLQ_ORIGIN_HEADER, origin.getBytes(StandardCharsets.UTF_8));
        r.headers().add("webhook-id", webhookId.getBytes(StandardCharsets.UTF_8));
        producer.send(r).get(15, TimeUnit.SECONDS);
    }

    @Override
    public void disable(String subscriptionId, String reason) {
        subscriptions.disable(subscriptionId, reason);
    }

}
