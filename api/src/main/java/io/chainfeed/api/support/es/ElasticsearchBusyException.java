package io.chainfeed.api.support.es;

import io.chainfeed.api.support.problem.ProblemException;
import org.springframework.http.HttpStatus;

/**
 * Elasticsearch answers (its liveness probe does) but a request took longer than the
 * client's socket timeout: the search engine is overloaded, not down. Answered 503
 * {@code busy} with {@code Retry-After}, and not counted against the circuit breaker.
 */
public class ElasticsearchBusyException extends ProblemException {

    /**
     * @param message what took too long, for logs
     * @param cause the timeout
     */
    public ElasticsearchBusyException(String message, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "busy", "The service is busy",
                "The search engine is answering slowly under load; try again in a second.",
                "Elasticsearch slow: " + message, cause, 1);
    }

}
