package io.chainfeed.api.webhook;

/**
 * Kafka did not store a subscription or delivery state in time; answered as a 503 problem
 * detail.
 */
public class WebhookStoreException extends RuntimeException {

    /**
     * @param message what was not stored
     * @param cause Kafka's error
     */
    public WebhookStoreException(String message, Throwable cause) {
        super(message, cause);
    }

}
