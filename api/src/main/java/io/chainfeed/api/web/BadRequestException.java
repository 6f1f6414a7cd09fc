package io.chainfeed.api.web;

/** The request cannot be answered as asked; rendered as a 400 problem detail of the given type. */
public class BadRequestException extends RuntimeException {
    private final String type;

    /**
     * @param type    the problem type's last path segment, e.g. {@code invalid-cursor}
     * @param message what is wrong, for the client
     */
    public BadRequestException(String type, String message) {
        super(message);
        this.type = type;
    }

    /** @return the problem type's last path segment */
    public String type() {
        return type;
    }
}
