package io.chainfeed.api.web;

/** The resource existed but does not any more (an expired cursor); rendered as a 410 problem detail. */
public class GoneException extends RuntimeException {
    /** @param message what expired */
    public GoneException(String message) {
        super(message);
    }
}
