package io.chainfeed.api.webhook;

import io.chainfeed.api.access.ApiKeys;
import io.chainfeed.api.access.ApiPrincipal;
import io.chainfeed.api.access.KeyRateLimits;
import io.chainfeed.api.support.problem.ForbiddenException;
import io.chainfeed.api.support.problem.UnauthorizedException;
import io.chainfeed.avro.ApiKeyKind;
import io.chainfeed.avro.SealedSecret;
import io.chainfeed.avro.WebhookDeliveryState;
import io.chainfeed.avro.WebhookStatus;
import io.chainfeed.avro.WebhookSubscription;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Webhook subscriptions under a READER API key
 * ({@code Authorization: Bearer cf_<id>_<secret>}): each key sees and changes only its
 * own subscriptions; any other id answers 404, as an unknown one does. Every call counts
 * first against its client address's limit of the public paths (before this controller,
 * so a 401 or 403 is counted there too), then against the key's rate per minute
 * ({@link KeyRateLimits}); over either, a 429 problem with {@code Retry-After}.
 * Deliveries follow Standard Webhooks (see the README's Webhooks section).
 */
@RestController
@RequestMapping("/api/v1/subscriptions")
@Tag(name = "subscriptions")
class SubscriptionController {

    private final ApiKeys keys;

    private final SubscriptionService service;

    private final WebhookDeliveries deliveries;

    private final KeyRateLimits limits;

    private final Duration failingAfter;

    SubscriptionController(ApiKeys keys, SubscriptionService service, WebhookDeliveries deliveries,
            KeyRateLimits limits, WebhookProperties props) {
        this.keys = keys;
        this.service = service;
        this.deliveries = deliveries;
        this.limits = limits;
        this.failingAfter = props.failingAfter();
    }

    /**
     * The body of {@code POST /api/v1/subscriptions}.
     *
     * @param topic the topic selector, e.g. {@code layer:memory AND NOT kind:signal}
     * @param url the https (or http) endpoint that receives the webhooks
     * @param description free text for the owner, at most 500 characters
     */
    record SubscriptionRequest(String topic, String url, String description) {
    }

    @Operation(operationId = "createSubscription",
            summary = "Subscribe a URL to a topic; the signing secret is in this response only")
    @PostMapping
    @ResponseStatus(HttpStatus.CREATED) // names the answer's status in the description;
                                        // the entity sets it
    ResponseEntity<SubscriptionView.Created> create(HttpServletRequest request, @RequestBody SubscriptionRequest body) {
        String owner = owner(request);
        SubscriptionService.Created created = service.create(owner, body.topic(), body.url(), body.description());
        SubscriptionView.Created view = new SubscriptionView.Created(view(created.subscription()), created.secret());
        return ResponseEntity.created(URI.create("/api/v1/subscriptions/" + created.subscription().getId()))
            .cacheControl(CacheControl.noStore())
            .body(view);
    }

    @Operation(operationId = "listSubscriptions", summary = "This key's subscriptions, oldest first")
    @GetMapping
    ResponseEntity<SubscriptionView.Listing> list(HttpServletRequest request) {
        String owner = owner(request);
        List<SubscriptionView> items = service.list(owner)
            .stream()
            .map(sub -> view(sub, deliveries.progress(sub.getId()).orElse(null)))
            .toList();
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(new SubscriptionView.Listing(items));
    }

    @Operation(operationId = "getSubscription", summary = "One subscription with its delivery state")
    @GetMapping("/{id}")
    ResponseEntity<SubscriptionView.WithDelivery> get(HttpServletRequest request, @PathVariable String id) {
        WebhookSubscription sub = service.get(owner(request), id);
        WebhookDeliveryState progress = deliveries.progress(id).orElse(null);
        SubscriptionView.WithDelivery view = new SubscriptionView.WithDelivery(view(sub, progress),
                progress == null ? null : delivery(progress));
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(view);
    }

    @Operation(operationId = "recoverSubscription",
            summary = "Retry now every webhook due for this subscription (as Svix's recover); 202, the retry"
                    + " runs on the instance that delivers it")
    @PostMapping("/{id}/recover")
    @ResponseStatus(HttpStatus.ACCEPTED)
    ResponseEntity<SubscriptionView.Recovering> recover(HttpServletRequest request, @PathVariable String id) {
        WebhookSubscription sub = service.recover(owner(request), id);
        WebhookDeliveryState progress = deliveries.progress(id).orElse(null);
        SubscriptionView.Recovering view = new SubscriptionView.Recovering(view(sub, progress),
                sub.getRecoverRequestedAt().toString(), progress == null ? null : delivery(progress));
        return ResponseEntity.accepted().cacheControl(CacheControl.noStore()).body(view);
    }

    @Operation(operationId = "rotateSubscriptionSecret",
            summary = "Replace the signing secret; the old one keeps signing for the grace period")
    @PostMapping("/{id}/secret")
    ResponseEntity<SubscriptionView.Rotated> rotate(HttpServletRequest request, @PathVariable String id) {
        SubscriptionService.Rotated rotated = service.rotate(owner(request), id);
        SubscriptionView.Rotated view = new SubscriptionView.Rotated(view(rotated.subscription()), rotated.secret(),
                rotated.previousExpires().toString());
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(view);
    }

    @Operation(operationId = "deleteSubscription", summary = "Delete a subscription; deliveries stop")
    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    ResponseEntity<Void> delete(HttpServletRequest request, @PathVariable String id) {
        service.delete(owner(request), id);
        return ResponseEntity.noContent().build();
    }

    /**
     * The READER key the request acts for, after taking the request from its rate: 401
     * without a valid key, 403 for another kind of key (neither counts against a key),
     * 429 with {@code Retry-After} over the rate.
     */
    private String owner(HttpServletRequest request) {
        ApiPrincipal p = keys.fromRequest(request)
            .orElseThrow(() -> new UnauthorizedException("an API key is required: Authorization: Bearer <key>"));
        if (p.kind() != ApiKeyKind.READER) {
            throw new ForbiddenException("reader-key-required",
                    "subscriptions need a READER key; this is a " + p.kind() + " key");
        }
        limits.take(p);
        return p.keyId();
    }

    /**
     * The subscription as shown to its owner: never a secret, only when each was made and
     * expires.
     */
    static SubscriptionView view(WebhookSubscription s) {
        return view(s, null, null);
    }

    /**
     * The subscription with the status its delivery gives it: {@code failing} past the
     * threshold.
     */
    private SubscriptionView view(WebhookSubscription s, WebhookDeliveryState progress) {
        return view(s, progress, Instant.now().minus(failingAfter));
    }

    /**
     * @param failingBefore an active subscription whose endpoint has failed since before
     * this instant is shown {@code failing} (null: never)
     */
    static SubscriptionView view(WebhookSubscription s, WebhookDeliveryState progress, Instant failingBefore) {
        String status = s.getStatus().name().toLowerCase(Locale.ROOT);
        String reason = s.getStatusReason();
        if (s.getStatus() == WebhookStatus.ACTIVE && failingBefore != null && progress != null
                && progress.getFailingSince() != null && progress.getFailingSince().isBefore(failingBefore)) {
            status = "failing";
            reason = "no 2xx since " + progress.getFailingSince() + "; last: "
                    + (progress.getLastStatus() != null ? "HTTP " + progress.getLastStatus() : progress.getLastError());
        }
        return new SubscriptionView(s.getId(), s.getTopic(), s.getUrl(), s.getDescription(), status, reason,
                s.getCreatedAt().toString(), s.getUpdatedAt().toString(),
                s.getSecrets().stream().map(SubscriptionController::secret).toList());
    }

    private static SubscriptionView.SecretInfo secret(SealedSecret s) {
        return new SubscriptionView.SecretInfo(s.getCreatedAt().toString(),
                s.getExpiresAt() == null ? null : s.getExpiresAt().toString());
    }

    /**
     * Delivery state for the owner: position, counters, the last attempt and the next
     * one.
     */
    static SubscriptionView.Delivery delivery(WebhookDeliveryState d) {
        Map<String, Long> position = new TreeMap<>();
        d.getPosition().forEach(p -> position.put(Integer.toString(p.getPartition()), p.getNextOffset()));
        return new SubscriptionView.Delivery(position, d.getDelivered(), d.getDeadLettered(),
                d.getConsecutiveFailures(), d.getPendingWebhookId(), d.getAttempts(), text(d.getLastAttemptAt()),
                d.getLastStatus(), d.getLastError(), text(d.getLastSuccessAt()), text(d.getNextAttemptAt()),
                text(d.getFailingSince()));
    }

    private static String text(Instant i) {
        return i == null ? null : i.toString();
    }

}
