package io.chainfeed.api.webhook;

/**
 * Webhooks cannot serve the request now (no master key configured, or Kafka unreachable);
 * a 503 problem.
 */
public class WebhooksUnavailableException extends RuntimeException {

    /**
     * @param message why, for the client
     */
    public WebhooksUnavailableException(String message) {
        super(message);
    }

}
