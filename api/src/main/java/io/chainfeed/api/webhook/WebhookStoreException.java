package io.chainfeed.api.webhook;

import io.chainfeed.api.support.problem.ProblemException;
import org.springframework.http.HttpStatus;

/**
 * Kafka did not store a subscription or delivery state in time; answered as a 503 problem
 * detail.
 */
public class WebhookStoreException extends ProblemException {

    /**
     * @param message what was not stored, for logs
     * @param cause Kafka's error
     */
    public WebhookStoreException(String message, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "webhooks-unavailable", "Webhooks are unavailable",
                "The change could not be stored; try again shortly.", message, cause, -1);
    }

}
