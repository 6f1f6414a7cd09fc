package io.chainfeed.api.selector;

import io.chainfeed.api.support.problem.BadRequestException;

/**
 * A topic selector that cannot be parsed; rendered as a 400 problem of type
 * {@code invalid-selector}.
 */
public class SelectorException extends BadRequestException {

    /**
     * @param message what is wrong and where (1-based character position), for the client
     */
    public SelectorException(String message) {
        super("invalid-selector", message);
    }

}
