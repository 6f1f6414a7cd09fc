package io.chainfeed.api.webhook;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.webhooks}.
 *
 * @param deliver let this API instance deliver webhooks: every instance with {@code true}
 * joins the delivery lease group and delivers the subscriptions of the lease partitions
 * it owns; {@code false}: this instance never delivers
 * @param allowLoopback let targets on loopback ({@code 127.0.0.0/8}, {@code ::1})
 * through: local testing only; every other private or special address stays refused
 * @param masterKey base64 of the 32-byte AES key that seals the signing secrets
 * (environment: {@code CHAINFEED_WEBHOOKS_MASTERKEY}); never committed
 * @param masterKeyFile a file holding that base64 key instead (the launcher writes one
 * per run dir)
 * @param secretGrace how long a replaced signing secret keeps signing after a rotation
 * @param maxAttempts attempts per webhook, the first included, before it is dead-lettered
 * @param initialDelay ceiling of the delay before the second attempt
 * @param multiplier growth of that ceiling per further attempt
 * @param maxDelay largest ceiling
 * @param maxRetryAfter longest {@code Retry-After} honoured; longer answers wait this
 * long
 * @param connectTimeout TCP connect timeout per attempt
 * @param requestTimeout time allowed for the endpoint's answer
 * @param workers attempts in flight at once, across subscriptions
 * @param queueCapacity reads held in memory per subscription before it is paused and
 * replayed later
 * @param maxPerKey subscriptions one API key may hold
 * @param maxRedirects 307/308 redirects followed per attempt, each target checked again
 * @param leaseGroup the consumer group of the delivery lease (one per deployment)
 * @param leaseSessionTimeout how long a silent instance keeps its subscriptions before
 * another takes them over ({@code session.timeout.ms}; the broker allows 6 s to 5 min by
 * default)
 * @param instanceId this instance's name in the lease group's client ids (default: host
 * name and pid)
 * @param failingAfter how long a subscription's endpoint may keep failing (no 2xx since
 * its first failed attempt) before the subscription is shown as {@code failing}
 */
@ConfigurationProperties("chainfeed.webhooks")
public record WebhookProperties(@DefaultValue("true") boolean deliver, boolean allowLoopback, String masterKey,
        Path masterKeyFile, @DefaultValue("24h") Duration secretGrace, @DefaultValue("10") int maxAttempts,
        @DefaultValue("5s") Duration initialDelay, @DefaultValue("3") double multiplier,
        @DefaultValue("6h") Duration maxDelay, @DefaultValue("24h") Duration maxRetryAfter,
        @DefaultValue("5s") Duration connectTimeout, @DefaultValue("15s") Duration requestTimeout,
        @DefaultValue("8") int workers, @DefaultValue("256") int queueCapacity, @DefaultValue("25") int maxPerKey,
        @DefaultValue("3") int maxRedirects, @DefaultValue("chainfeed-api-webhook-lease") String leaseGroup,
        @DefaultValue("10s") Duration leaseSessionTimeout, String instanceId,
        @DefaultValue("5m") Duration failingAfter) {

    /**
     * Fills the instance id (host name and pid) when unset.
     * @throws IllegalArgumentException when a count is out of range or the lease group is
     * blank
     */
    public WebhookProperties {
        instanceId = instanceId != null && !instanceId.isBlank() ? instanceId : defaultInstanceId();
        if (maxAttempts < 1 || workers < 1 || queueCapacity < 1 || maxPerKey < 0 || maxRedirects < 0 || multiplier < 1
                || leaseGroup == null || leaseGroup.isBlank()) {
            throw new IllegalArgumentException("chainfeed.webhooks: max-attempts, workers and queue-capacity must be"
                    + " at least 1, multiplier at least 1, max-per-key and max-redirects not negative, lease-group"
                    + " not blank");
        }
    }

    private static String defaultInstanceId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        }
        catch (IOException e) {
            host = "localhost";
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    /**
     * @return the retry schedule these settings describe
     */
    public RetrySchedule retrySchedule() {
        return new RetrySchedule(maxAttempts, initialDelay, multiplier, maxDelay, maxRetryAfter);
    }
}
