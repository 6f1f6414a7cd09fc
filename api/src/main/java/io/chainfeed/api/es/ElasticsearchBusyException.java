package io.chainfeed.api.es;

/**
 * Elasticsearch answers (its liveness probe does) but a request took longer than the
 * client's socket timeout: the search engine is overloaded, not down. Answered 503
 * {@code busy} with {@code Retry-After}, and not counted against the circuit breaker.
 */
public class ElasticsearchBusyException extends RuntimeException {

    /**
     * @param message what took too long
     * @param cause the timeout
     */
    public ElasticsearchBusyException(String message, Throwable cause) {
        super(message, cause);
    }

}
