package io.chainfeed.api.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.random.RandomGenerator;

/**
 * What follows an attempt, per Standard Webhooks' "Delivery success and failure": a
 * {@code 2xx} is delivered; {@code 410 Gone} disables the subscription (the receiver
 * wants no more); anything else (another status, a redirect not followed, a timeout, a
 * refused address, a reset connection) is retried on the {@link RetrySchedule}, honouring
 * {@code Retry-After}, until the attempts run out, and then the webhook is dead-lettered
 * and the subscription moves on to the next read.
 *
 * @param schedule the retry schedule
 * @param random jitter source
 */
public record DeliveryPolicy(RetrySchedule schedule, RandomGenerator random) {
    /** The decision after one attempt. */
    public sealed interface Decision {

    }

    /** The endpoint took it: move on. */
    public record Delivered() implements Decision {
    }

    /**
     * @param delay wait this long, then try the same webhook again
     */
    public record Retry(Duration delay) implements Decision {
    }

    /**
     * @param reason why it was given up: record it on the dead-letter topic and move on
     */
    public record DeadLetter(String reason) implements Decision {
    }

    /**
     * @param reason why the subscription stops: the endpoint answered 410 Gone
     */
    public record Disable(String reason) implements Decision {
    }

    /**
     * @param outcome how the attempt went
     * @param attemptsMade attempts made for this webhook, this one included
     * @param now the current time (for a Retry-After date)
     * @return what to do next
     */
    public Decision decide(WebhookSender.Outcome outcome, int attemptsMade, Instant now) {
        if (outcome.success()) {
            return new Delivered();
        }
        if (outcome.status().orElse(0) == 410) {
            return new Disable("the endpoint answered 410 Gone");
        }
        String why = outcome.error().orElse("failed");
        if (!schedule.allowsAnother(attemptsMade)) {
            return new DeadLetter(
                    "gave up after " + attemptsMade + " attempt" + (attemptsMade == 1 ? "" : "s") + "; last: " + why);
        }
        return new Retry(
                schedule.delay(attemptsMade + 1, outcome.retryAfter().flatMap(h -> RetryAfter.parse(h, now)), random));
    }
}
