package io.chainfeed.api.support.problem;

import org.springframework.http.HttpStatus;

/**
 * The request cannot be answered as asked; rendered as a 400 problem detail of the given
 * type.
 */
public class BadRequestException extends ProblemException {

    /**
     * @param type the problem type's last path segment, e.g. {@code invalid-cursor}
     * @param message what is wrong, for the client
     */
    public BadRequestException(String type, String message) {
        super(HttpStatus.BAD_REQUEST, type, "Bad request", message);
    }

}
