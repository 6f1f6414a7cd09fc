package io.chainfeed.api.web;

/** The requested resource does not exist; rendered as a 404 problem detail. */
public class NotFoundException extends RuntimeException {
    /** @param message what was not found */
    public NotFoundException(String message) {
        super(message);
    }
}
