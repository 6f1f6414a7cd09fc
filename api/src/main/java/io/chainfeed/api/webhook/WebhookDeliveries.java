package io.chainfeed.api.webhook;

import io.chainfeed.avro.WebhookDeliveryState;
import io.chainfeed.avro.WebhookStatus;
import io.chainfeed.avro.WebhookSubscription;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the {@link WebhookEngine} in step with the stored subscriptions and the
 * {@link DeliveryLease}: once both webhook topics have been read back, this instance
 * joins the lease group, and every active subscription whose lease partition it owns is
 * delivered from its stored position; later creations, rotations, disablings and
 * deletions (from any API instance) start, update or stop its worker. A partition handed
 * over stops its subscriptions and stores their positions first; a partition assigned
 * waits until the stored positions have been read up to the topic's end, then resumes
 * them. Without delivery on this instance ({@code chainfeed.webhooks.deliver=false}) or
 * without a master key, it only serves the stored progress and never joins the lease
 * group.
 */
public class WebhookDeliveries implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(WebhookDeliveries.class);

    private final SubscriptionStore subscriptions;

    private final DeliveryStateStore states;

    private final SubscriptionService service;

    private final WebhookEngine engine;

    private final DeliveryLease lease;

    private final Duration handOverGrace;

    /**
     * Lease partitions assigned and caught up with the stored positions: their
     * subscriptions may start.
     */
    private final Set<Integer> resumable = ConcurrentHashMap.newKeySet();

    private volatile boolean ready;

    private volatile boolean running;

    private Thread bootstrap;

    /**
     * This instance's part in the deliveries.
     *
     * @param engine delivers the subscriptions this instance holds
     * @param lease which subscriptions those are
     * @param handOverGrace how long a hand-over waits for attempts in flight
     */
    record Delivering(WebhookEngine engine, DeliveryLease lease, Duration handOverGrace) {
    }

    /**
     * @param subscriptions the subscription store
     * @param states the delivery state store
     * @param service opens subscriptions into targets
     * @param delivering the engine and the lease; null when this instance does not
     * deliver
     */
    WebhookDeliveries(SubscriptionStore subscriptions, DeliveryStateStore states, SubscriptionService service,
            Delivering delivering) {
        this.subscriptions = subscriptions;
        this.states = states;
        this.service = service;
        if (delivering == null) {
            engine = null;
            lease = null;
            handOverGrace = Duration.ZERO;
        }
        else {
            engine = delivering.engine();
            lease = delivering.lease();
            handOverGrace = delivering.handOverGrace();
            engine.fence(lease::holds);
        }
        subscriptions.onChange(this::changed);
        // A subscription made on another node may show up before its start position does.
        states.onChange(id -> {
            if (ready && engine != null && !engine.delivers(id)) {
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

    /**
     * @return whether this node delivers webhooks and has read back the stored
     * subscriptions
     */
    public boolean ready() {
        return ready;
    }

    /**
     * @return the ids of the subscriptions this instance delivers now (none without
     * delivery)
     */
    public Set<String> delivering() {
        return engine == null ? Set.of() : engine.delivering();
    }

    private void changed(String id) {
        if (ready) {
            sync(id);
        }
    }

    /**
     * Starts, updates or stops one subscription's worker to match the stores. Idempotent.
     * Serialised: the stores' reader threads and the workers (a 410 disables) call it at
     * once, and a call that read the subscription as active must not start a worker after
     * another call has stopped it for good (that restarted a disabled subscription from
     * its stored position and sent the 410'd webhook again).
     */
    private synchronized void sync(String id) {
        Optional<WebhookSubscription> sub = subscriptions.get(id);
        if (sub.isEmpty() || sub.get().getStatus() != WebhookStatus.ACTIVE || !lease.within(id, resumable)) {
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
        if (sub.get().getRecoverRequestedAt() != null) {
            engine.recover(id, sub.get().getRecoverRequestedAt());
        }
    }

    /**
     * The lease's partitions moved: resume those assigned, hand over or drop those
     * revoked.
     */
    private final class LeaseChanges implements DeliveryLease.Listener {

        @Override
        public void assigned(Set<Integer> partitions) {
            try {
                // A read barrier: the previous owner stored its positions before its
                // partitions were revoked.
                if (!states.awaitCaughtUp(Duration.ofSeconds(30))) {
                    log.warn("webhook lease: stored positions not read up to date in 30 s; resuming from those read");
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            resumable.addAll(partitions);
            List<String> ids = subscriptions.all()
                .stream()
                .map(WebhookSubscription::getId)
                .filter(id -> lease.within(id, partitions))
                .toList();
            ids.forEach(WebhookDeliveries.this::sync);
            log.info("webhook lease: resumed {} subscription(s) of partitions {}", ids.size(), partitions);
        }

        @Override
        public void revoked(Set<Integer> partitions, boolean lost) {
            synchronized (WebhookDeliveries.this) {
                resumable.removeAll(partitions);
                List<String> ids = engine.delivering().stream().filter(id -> lease.within(id, partitions)).toList();
                if (lost) {
                    ids.forEach(engine::remove);
                }
                else {
                    engine.handOver(ids, handOverGrace);
                }
            }
        }

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
                lease.start(new LeaseChanges());
                log.info("webhook deliveries started; joining the delivery lease group");
            }
            catch (InterruptedException e) {
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
        if (lease != null) {
            // hands every partition over: positions stored, the others take over at once
            lease.close();
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
