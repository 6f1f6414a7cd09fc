package io.chainfeed.api.support.problem;

import org.springframework.http.HttpStatus;

/**
 * The request conflicts with the resource's state; rendered as a 409 problem detail of
 * the given type.
 */
public class ConflictException extends ProblemException {

    /**
     * @param type the problem type's last path segment, e.g.
     * {@code subscription-disabled}
     * @param message what is in the way, for the client
     */
    public ConflictException(String type, String message) {
        super(HttpStatus.CONFLICT, type, "Conflict", message);
    }

}
