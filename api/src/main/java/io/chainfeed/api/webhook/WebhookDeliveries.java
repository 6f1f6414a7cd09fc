package io.chainfeed.api.webhook;

import io.chainfeed.avro.WebhookDeliveryState;
import io.chainfeed.avro.WebhookStatus;
import io.chainfeed.avro.WebhookSubscription;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the {@link WebhookEngine} in step with the stored subscriptions: once both webhook topics have
 * been read back, every active subscription is delivered from its stored position; later creations,
 * rotations, disablings and deletions (from any API node) start, update or stop its worker. Without
 * delivery on this node ({@code chainfeed.webhooks.deliver=false}) or without a master key, it only
 * serves the stored progress.
 */
public class WebhookDeliveries implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(WebhookDeliveries.class);

    private final SubscriptionStore subscriptions;
    private final DeliveryStateStore states;
    private final SubscriptionService service;
    private final WebhookEngine engine;
    private volatile boolean ready;
    private volatile boolean running;
    private Thread bootstrap;

    /**
     * @param subscriptions the subscription store
     * @param states        the delivery state store
     * @param service       opens subscriptions into targets
     * @param engine        delivers; null when this node does not deliver
     */
    public WebhookDeliveries(SubscriptionStore subscriptions, DeliveryStateStore states, SubscriptionService service,
            WebhookEngine engine) {
        this.subscriptions = subscriptions;
        this.states = states;
        this.service = service;
        this.engine = engine;
        subscriptions.onChange(this::changed);
        // A subscription made on another node may show up before its start position does.
        states.onChange(id -> {
            if (ready && !engine.delivers(id)) {
                sync(id);
            }
        });
    }

    /**
     * @param subscriptionId a subscription
     * @return its progress: live if this node delivers it, else as stored
     */
    public Optional<WebhookDeliveryState> progress(String subscriptionId) {
        Optional<WebhookDeliveryState> live = engine == null ? Optional.empty() : engine.progress(subscriptionId);
        return live.isPresent() ? live : states.get(subscriptionId);
    }

    /** @return whether this node delivers webhooks and has read back the stored subscriptions */
    public boolean ready() {
        return ready;
    }

    private void changed(String id) {
        if (ready) {
            sync(id);
        }
    }

    /**
     * Starts, updates or stops one subscription's worker to match the stores. Idempotent. Serialised: the
     * stores' reader threads and the workers (a 410 disables) call it at once, and a call that read the
     * subscription as active must not start a worker after another call has stopped it for good (that
     * restarted a disabled subscription from its stored position and sent the 410'd webhook again).
     */
    private synchronized void sync(String id) {
        Optional<WebhookSubscription> sub = subscriptions.get(id);
        if (sub.isEmpty() || sub.get().getStatus() != WebhookStatus.ACTIVE) {
            engine.remove(id);
            return;
        }
        Optional<WebhookDeliveryState> state = states.get(id);
        if (state.isEmpty()) {
            log.info("webhook {}: no stored start position yet; waiting for it", id);
            return;
        }
        Optional<WebhookTarget> target = service.target(sub.get());
        if (target.isEmpty()) {
            log.error("webhook {}: its secrets do not open under the configured master key, or its URL or topic"
                    + " no longer parse; not delivering it", id);
            engine.remove(id);
            return;
        }
        engine.upsert(target.get(), state.get());
    }

    @Override
    public void start() {
        running = true;
        if (engine == null) {
            log.info("webhook deliveries are off on this node");
            return;
        }
        bootstrap = new Thread(() -> {
            try {
                while (running && !(subscriptions.awaitLoaded(Duration.ofSeconds(5))
                        && states.awaitLoaded(Duration.ofSeconds(5)))) {
                    log.info("waiting for the webhook topics to be read back");
                }
                if (!running) {
                    return;
                }
                ready = true;
                subscriptions.all().forEach(s -> sync(s.getId()));
                log.info("webhook deliveries started: {} active subscription(s)", engine.size());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "webhook-bootstrap");
        bootstrap.setDaemon(true);
        bootstrap.start();
    }

    @Override
    public void stop() {
        running = false;
        ready = false;
        if (bootstrap != null) {
            bootstrap.interrupt();
        }
        if (engine != null) {
            engine.close(Duration.ofSeconds(30));
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
