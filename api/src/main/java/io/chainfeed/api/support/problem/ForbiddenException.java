package io.chainfeed.api.support.problem;

import org.springframework.http.HttpStatus;

/**
 * The credentials are valid but do not allow this request; rendered as a 403 problem of
 * the given type.
 */
public class ForbiddenException extends ProblemException {

    /**
     * @param type the problem type's last path segment, e.g. {@code origin-not-allowed}
     * @param message what is not allowed, for the client
     */
    public ForbiddenException(String type, String message) {
        super(HttpStatus.FORBIDDEN, type, "Forbidden", message);
    }

}
