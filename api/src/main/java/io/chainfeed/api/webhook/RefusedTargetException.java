package io.chainfeed.api.webhook;

import java.net.UnknownHostException;

/**
 * A webhook target was refused: its URL is malformed or not http(s), or its host does not
 * resolve or resolves to an address that is not public. (At connect time the sender's DNS
 * step throws infra's {@link io.chainfeed.platform.net.RefusedAddressException} instead.)
 * An {@link UnknownHostException}, as a host that does not resolve is one of its causes.
 */
public class RefusedTargetException extends UnknownHostException {

    /**
     * @param message what was refused and why, safe to show to the subscription's owner
     */
    public RefusedTargetException(String message) {
        super(message);
    }

}
