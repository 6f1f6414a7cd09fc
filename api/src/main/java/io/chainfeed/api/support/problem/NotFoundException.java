package io.chainfeed.api.support.problem;

import org.springframework.http.HttpStatus;

/**
 * The requested resource does not exist; rendered as a 404 problem detail of type
 * {@code not-found}.
 */
public class NotFoundException extends ProblemException {

    /**
     * @param message what was not found
     */
    public NotFoundException(String message) {
        super(HttpStatus.NOT_FOUND, "not-found", "Not found", message);
    }

}
