package io.chainfeed.api.webhook;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.api.support.problem.BadRequestException;
import io.chainfeed.api.support.problem.ConflictException;
import io.chainfeed.api.support.problem.NotFoundException;
import io.chainfeed.avro.PartitionOffset;
import io.chainfeed.avro.SealedSecret;
import io.chainfeed.avro.WebhookDeliveryState;
import io.chainfeed.avro.WebhookStatus;
import io.chainfeed.avro.WebhookSubscription;
import io.chainfeed.schemas.Topics;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Creates, lists, shows, rotates and deletes webhook subscriptions on behalf of an API
 * key: a key sees only the subscriptions it created (any other id is "not found").
 * Secrets are generated here, returned once, and stored only sealed
 * ({@link SecretCipher}). A new subscription starts at the current end of
 * {@value Topics#READS}: it receives the reads published after it was created.
 */
public class SubscriptionService {

    /** Longest description accepted. */
    public static final int MAX_DESCRIPTION = 500;

    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * A new subscription and its signing secret, which is never shown again.
     *
     * @param subscription the stored subscription
     * @param secret {@code whsec_...}
     */
    public record Created(WebhookSubscription subscription, String secret) {
    }

    /**
     * A rotated secret.
     *
     * @param subscription the stored subscription
     * @param secret the new {@code whsec_...}, shown once
     * @param previousExpires when the replaced secret stops signing
     */
    public record Rotated(WebhookSubscription subscription, String secret, Instant previousExpires) {
    }

    private final SubscriptionStore subscriptions;

    private final DeliveryStateStore states;

    private final Optional<SecretCipher> cipher;

    private final TargetGuard guard;

    private final Admin admin;

    private final WebhookProperties props;

    private final Clock clock;

    private final TopicParser topics;

    /**
     * @param subscriptions the subscription store
     * @param states the delivery state store
     * @param cipher seals secrets; empty when no master key is configured (creation then
     * refused)
     * @param guard checks target URLs
     * @param admin finds the end of {@value Topics#READS}
     * @param props limits and the secret grace period
     * @param clock the time source
     * @param topics parses topics, resolving companies
     */
    public SubscriptionService(SubscriptionStore subscriptions, DeliveryStateStore states,
            Optional<SecretCipher> cipher, TargetGuard guard, Admin admin, WebhookProperties props, Clock clock,
            TopicParser topics) {
        this.topics = topics;
        this.subscriptions = subscriptions;
        this.states = states;
        this.cipher = cipher;
        this.guard = guard;
        this.admin = admin;
        this.props = props;
        this.clock = clock;
    }

    /**
     * @param owner the creating key's id
     * @param topic the topic selector
     * @param url the target URL
     * @param description free text, at most {@value #MAX_DESCRIPTION} characters, may be
     * null
     * @return the stored subscription and its secret
     * @throws io.chainfeed.api.selector.SelectorException for a bad selector (400)
     * @throws io.chainfeed.api.reference.UnknownCompanyException for a company the
     * reference data does not know (400)
     * @throws BadRequestException for a refused URL, a long description, or a key over
     * its limit
     * @throws WebhooksUnavailableException without a master key, or when Kafka cannot be
     * read or written
     */
    public synchronized Created create(String owner, String topic, String url, String description) {
        SecretCipher c = cipher.orElseThrow(
                () -> new WebhooksUnavailableException("webhooks are not configured on this server (no master key)"));
        Selector selector = topics.parse(topic == null ? "" : topic);
        URI target;
        try {
            target = guard.check(url);
        }
        catch (RefusedTargetException e) {
            throw new BadRequestException("invalid-target-url", e.getMessage());
        }
        String text = description == null ? "" : description.strip();
        if (text.length() > MAX_DESCRIPTION) {
            throw new BadRequestException("invalid-description",
                    "the description is longer than " + MAX_DESCRIPTION + " characters");
        }
        if (text.chars().anyMatch(ch -> Character.isISOControl(ch))) {
            throw new BadRequestException("invalid-description", "the description must not hold control characters");
        }
        long owned = subscriptions.all().stream().filter(s -> s.getOwnerKeyId().equals(owner)).count();
        if (owned >= props.maxPerKey()) {
            throw new BadRequestException("subscription-limit",
                    "this key already holds " + owned + " subscriptions, the most allowed");
        }
        String id = newId();
        Instant now = clock.instant();
        byte[] secret = WebhookSignatures.newSecret();
        WebhookSubscription sub = WebhookSubscription.newBuilder()
            .setId(id)
            .setOwnerKeyId(owner)
            .setTopic(selector.canonical())
            .setUrl(target.toString())
            .setDescription(text)
            .setStatus(WebhookStatus.ACTIVE)
            .setStatusReason(null)
            .setSecrets(List.of(new SealedSecret(c.keyId(), ByteBuffer.wrap(c.seal(secret, id)), now, null)))
            .setCreatedAt(now)
            .setUpdatedAt(now)
            .setRevision(0L)
            .build();
        // The start position first: the engine picks the subscription up only once both
        // exist.
        states.put(initialState(id, now));
        subscriptions.put(sub);
        return new Created(sub, WebhookSignatures.format(secret));
    }

    /**
     * @param owner the asking key's id
     * @return its subscriptions, oldest first
     */
    public List<WebhookSubscription> list(String owner) {
        return subscriptions.all().stream().filter(s -> s.getOwnerKeyId().equals(owner)).toList();
    }

    /**
     * @param owner the asking key's id
     * @param id a subscription id
     * @return the subscription
     * @throws NotFoundException if there is none with that id for this key
     */
    public WebhookSubscription get(String owner, String id) {
        return subscriptions.get(id)
            .filter(s -> s.getOwnerKeyId().equals(owner))
            .orElseThrow(() -> new NotFoundException("no subscription " + id));
    }

    /**
     * @param id a subscription id
     * @return its stored delivery progress
     */
    public Optional<WebhookDeliveryState> storedState(String id) {
        return states.get(id);
    }

    /**
     * Deletes a subscription and its progress; deliveries stop.
     * @param owner the asking key's id
     * @param id the subscription id
     * @throws NotFoundException if there is none with that id for this key
     */
    public synchronized void delete(String owner, String id) {
        get(owner, id);
        subscriptions.delete(id);
        states.delete(id);
    }

    /**
     * Replaces the signing secret. The old one keeps signing (a second signature in
     * {@code webhook-signature}) for the grace period, so receivers can switch without
     * losing a webhook; secrets already past their grace are dropped.
     * @param owner the asking key's id
     * @param id the subscription id
     * @return the new secret, shown once
     * @throws NotFoundException if there is none with that id for this key
     * @throws WebhooksUnavailableException without a master key
     */
    public synchronized Rotated rotate(String owner, String id) {
        SecretCipher c = cipher.orElseThrow(
                () -> new WebhooksUnavailableException("webhooks are not configured on this server (no master key)"));
        WebhookSubscription sub = get(owner, id);
        Instant now = clock.instant();
        Instant expires = now.plus(props.secretGrace());
        byte[] secret = WebhookSignatures.newSecret();
        List<SealedSecret> kept = new ArrayList<>();
        kept.add(new SealedSecret(c.keyId(), ByteBuffer.wrap(c.seal(secret, id)), now, null));
        for (SealedSecret s : sub.getSecrets()) {
            Instant end = s.getExpiresAt() == null ? expires : s.getExpiresAt();
            if (end.isAfter(now)) {
                kept.add(SealedSecret.newBuilder(s).setExpiresAt(end).build());
            }
        }
        WebhookSubscription next = storeChange(sub, now, b -> b.setSecrets(kept));
        return new Rotated(next, WebhookSignatures.format(secret), expires);
    }

    /**
     * Asks for every webhook due for a subscription to be tried now, as Svix's "recover":
     * the request is stored on the subscription (so that whichever instance delivers it
     * hears of it); that instance cancels the backoff of the webhook it is retrying and
     * sends it at once, and the rest of the backlog follows in order. Webhooks already
     * dead-lettered are not sent again.
     * @param owner the asking key's id
     * @param id the subscription id
     * @return the subscription, with the request's time
     * @throws NotFoundException if there is none with that id for this key
     * @throws ConflictException if the subscription is disabled (nothing is delivered to
     * it)
     */
    public synchronized WebhookSubscription recover(String owner, String id) {
        WebhookSubscription sub = get(owner, id);
        if (sub.getStatus() != WebhookStatus.ACTIVE) {
            throw new ConflictException("subscription-disabled", "subscription " + id + " is disabled ("
                    + sub.getStatusReason() + "); nothing is delivered to it: subscribe again");
        }
        Instant now = clock.instant();
        return storeChange(sub, now, b -> b.setRecoverRequestedAt(now));
    }

    /**
     * Marks a subscription disabled (no owner check: the delivery engine calls it).
     * @param id the subscription id
     * @param reason why, shown to the owner
     */
    public synchronized void disable(String id, String reason) {
        subscriptions.get(id)
            .ifPresent(sub -> storeChange(sub, clock.instant(),
                    b -> b.setStatus(WebhookStatus.DISABLED).setStatusReason(reason)));
    }

    /**
     * Stores a changed subscription as its next revision.
     * @param sub the stored subscription
     * @param now the time of the change
     * @param change what changes, applied to a copy of {@code sub}
     * @return the subscription as stored
     */
    private WebhookSubscription storeChange(WebhookSubscription sub, Instant now,
            UnaryOperator<WebhookSubscription.Builder> change) {
        WebhookSubscription next = change.apply(WebhookSubscription.newBuilder(sub))
            .setUpdatedAt(now)
            .setRevision(sub.getRevision() + 1)
            .build();
        subscriptions.put(next);
        return next;
    }

    /**
     * Opens a subscription's secrets and parses its URL and selector for delivery.
     * @param sub a stored subscription
     * @return what the engine needs, or empty if its secrets do not open under the
     * configured key
     */
    public Optional<WebhookTarget> target(WebhookSubscription sub) {
        if (cipher.isEmpty()) {
            return Optional.empty();
        }
        List<WebhookTarget.SigningKey> keys = new ArrayList<>();
        for (SealedSecret s : sub.getSecrets()) {
            byte[] sealed = new byte[s.getSealed().remaining()];
            s.getSealed().duplicate().get(sealed);
            try {
                keys.add(new WebhookTarget.SigningKey(cipher.get().open(sealed, sub.getId()), s.getExpiresAt()));
            }
            catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(new WebhookTarget(sub.getId(), guard.parse(sub.getUrl()),
                    topics.parseStored(sub.getTopic()), keys));
        }
        catch (RefusedTargetException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private WebhookDeliveryState initialState(String id, Instant now) {
        List<PartitionOffset> position = new ArrayList<>();
        readsEnd().forEach((p, o) -> position.add(new PartitionOffset(p, o)));
        return WebhookDeliveryState.newBuilder()
            .setSubscriptionId(id)
            .setPosition(position)
            .setUpdatedAt(now)
            .setRevision(0L)
            .build();
    }

    /**
     * @return the committed end of every partition of {@value Topics#READS}
     */
    private Map<Integer, Long> readsEnd() {
        try {
            var description = admin.describeTopics(List.of(Topics.READS))
                .allTopicNames()
                .get(15, TimeUnit.SECONDS)
                .get(Topics.READS);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            description.partitions()
                .forEach(p -> request.put(new TopicPartition(Topics.READS, p.partition()), OffsetSpec.latest()));
            var offsets = admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get(15, TimeUnit.SECONDS);
            Map<Integer, Long> end = new TreeMap<>();
            offsets.forEach((tp, info) -> end.put(tp.partition(), info.offset()));
            return end;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WebhooksUnavailableException("interrupted while reading the end of " + Topics.READS);
        }
        catch (Exception e) {
            throw new WebhooksUnavailableException("cannot read the end of " + Topics.READS + ": " + e.getMessage());
        }
    }

    private static String newId() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        StringBuilder s = new StringBuilder("sub_");
        long buffer = 0;
        int bits = 0;
        for (byte x : b) {
            buffer = (buffer << 8) | (x & 0xff);
            bits += 8;
            while (bits >= 5) {
                s.append(BASE32[(int) ((buffer >> (bits - 5)) & 31)]);
                bits -= 5;
            }
        }
        if (bits > 0) {
            s.append(BASE32[(int) ((buffer << (5 - bits)) & 31)]);
        }
        return s.toString().toLowerCase(Locale.ROOT);
    }

}
