package io.chainfeed.api.webhook;

import io.chainfeed.api.support.problem.ProblemException;
import org.springframework.http.HttpStatus;

/**
 * Webhooks cannot serve the request now (no master key configured, or Kafka unreachable);
 * a 503 problem.
 */
public class WebhooksUnavailableException extends ProblemException {

    /**
     * @param message why, for the client
     */
    public WebhooksUnavailableException(String message) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "webhooks-unavailable", "Webhooks are unavailable", message, null, -1);
    }

}
