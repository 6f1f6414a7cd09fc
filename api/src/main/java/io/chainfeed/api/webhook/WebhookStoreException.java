package io.chainfeed.api.webhook;

import io.chainfeed.api.support.problem.ProblemException;
import org.springframework.http.HttpStatus;

/**
 * Kafka did not store a subscription or delivery state in time; answered as a 503 problem
 * detail.
 */
public class WebhookStoreException extends ProblemException {

    private final String what;

    /**
     * @param message what was not stored
     * @param cause Kafka's error
     */
    public WebhookStoreException(String message, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "webhooks-unavailable", "Webhooks are unavailable",
                "The change could not be stored; try again shortly.", cause, -1);
        this.what = message;
    }

    /**
     * @return what was not stored, for logs (the client's detail says only that the
     * change could not be stored)
     */
    @Override
    public String getMessage() {
        return what;
    }

    @Override
    public String logLine() {
        return what;
    }

}
