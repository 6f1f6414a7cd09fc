package io.chainfeed.api.chain;

import io.chainfeed.api.support.problem.ProblemException;
import org.springframework.http.HttpStatus;

/**
 * The chain as of an instant cannot be computed now: the streams service, which holds the
 * kept signals, did not answer in time, is down, is not ready to be queried, or its
 * circuit breaker is open. Rendered as a 503 problem detail of type
 * {@code chain-unavailable} with {@code Retry-After}.
 */
public class ChainUnavailableException extends ProblemException {

    /**
     * @param message what failed, for the client (no internals)
     * @param cause the underlying failure, for the log; may be null
     */
    public ChainUnavailableException(String message, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "chain-unavailable", "The chain history is unavailable", message, cause,
                DEPENDENCY_RETRY_AFTER_SECONDS);
    }

}
