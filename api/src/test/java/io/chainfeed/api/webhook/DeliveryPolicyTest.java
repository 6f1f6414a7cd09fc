package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeliveryPolicyTest {

    private final RetrySchedule schedule = new RetrySchedule(3, Duration.ofSeconds(2), 2, Duration.ofMinutes(1),
            Duration.ofMinutes(10));

    private final DeliveryPolicy policy = new DeliveryPolicy(schedule, new SplittableRandom(3));

    private final Instant now = Instant.parse("2026-03-01T12:00:00Z");

    private static WebhookSender.Outcome answered(int status, String retryAfter) {
        return WebhookSender.Outcome.answered(status, retryAfter,
                status < 300 ? null : "the endpoint answered " + status);
    }

    @Test
    void twoHundredsAreDelivered() {
        for (int s : new int[] { 200, 201, 202, 204, 299 }) {
            assertThat(policy.decide(answered(s, null), 1, now)).isInstanceOf(DeliveryPolicy.Delivered.class);
        }
    }

    @Test
    void goneDisablesAtOnce() {
        assertThat(policy.decide(answered(410, null), 1, now))
            .isEqualTo(new DeliveryPolicy.Disable("the endpoint answered 410 Gone"));
    }

    @Test
    void otherFailuresAreRetriedWithinTheCeiling() {
        for (WebhookSender.Outcome o : new WebhookSender.Outcome[] { answered(500, null), answered(404, null),
                answered(302, null), answered(503, null), WebhookSender.Outcome.failed("Connection refused", false),
                WebhookSender.Outcome.failed("the host resolves to 10.0.0.1", true) }) {
            DeliveryPolicy.Decision d = policy.decide(o, 1, now);
            assertThat(d).isInstanceOf(DeliveryPolicy.Retry.class);
            assertThat(((DeliveryPolicy.Retry) d).delay()).isBetween(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    @Test
    void retryAfterIsHonoured() {
        DeliveryPolicy.Decision d = policy.decide(answered(429, "7"), 1, now);
        assertThat(((DeliveryPolicy.Retry) d).delay()).isEqualTo(Duration.ofSeconds(7));
        d = policy.decide(answered(503, "Sun, 01 Mar 2026 12:05:00 GMT"), 2, now);
        assertThat(((DeliveryPolicy.Retry) d).delay()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void theLastFailedAttemptIsDeadLetteredWithTheReason() {
        assertThat(policy.decide(answered(500, null), 3, now))
            .isEqualTo(new DeliveryPolicy.DeadLetter("gave up after 3 attempts; last: the endpoint answered 500"));
        assertThat(policy.decide(WebhookSender.Outcome.failed("Read timed out", false), 3, now))
            .isEqualTo(new DeliveryPolicy.DeadLetter("gave up after 3 attempts; last: Read timed out"));
        assertThat(policy.decide(answered(200, null), 3, now)).isInstanceOf(DeliveryPolicy.Delivered.class);
        assertThat(answered(200, null).error()).isEqualTo(Optional.empty());
    }

}
