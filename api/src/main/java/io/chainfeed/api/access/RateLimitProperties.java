package io.chainfeed.api.access;

import java.time.Duration;
import java.util.UUID;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.rate-limits}: how the api instances share each key's
 * usage.
 *
 * @param shared exchange per-key usage with the other api instances over Kafka
 * ({@code true}); with {@code false} each instance enforces each key's rate on its own
 * @param syncInterval how often this instance publishes the requests it granted since the
 * last report; the over-grant across instances grows with it (see docs/configuration.md)
 * @param instanceId this instance's name on the usage records (default: a random UUID per
 * start)
 * @param partnerDailyQuota requests a PARTNER key may make per day, on top of its rate
 * per minute (100,000,000: a widget on pages with about 1,150 views a second around the
 * clock; 0 turns the daily quota off)
 */
@ConfigurationProperties("chainfeed.rate-limits")
public record RateLimitProperties(@DefaultValue("true") boolean shared, @DefaultValue("250ms") Duration syncInterval,
        String instanceId, @DefaultValue("100000000") long partnerDailyQuota) {

    /**
     * Fills the instance id (a random UUID) when unset.
     * @throws IllegalArgumentException when the quota is negative or the interval not
     * positive
     */
    public RateLimitProperties {
        instanceId = instanceId != null && !instanceId.isBlank() ? instanceId : UUID.randomUUID().toString();
        if (partnerDailyQuota < 0) {
            throw new IllegalArgumentException("chainfeed.rate-limits.partner-daily-quota must be 0 or more");
        }
        if (syncInterval == null || syncInterval.isNegative() || syncInterval.isZero()) {
            throw new IllegalArgumentException("chainfeed.rate-limits.sync-interval must be positive");
        }
    }
}
