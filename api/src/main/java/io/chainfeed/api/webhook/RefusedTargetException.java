package io.chainfeed.api.webhook;

import java.net.UnknownHostException;

/**
 * A webhook target was refused: its URL is malformed or not http(s), or its host resolves to an address
 * that is not public. An {@link UnknownHostException} so that HttpClient's DNS hook may throw it and
 * abort the connection before a socket is opened.
 */
public class RefusedTargetException extends UnknownHostException {
    /** @param message what was refused and why, safe to show to the subscription's owner */
    public RefusedTargetException(String message) {
        super(message);
    }
}
