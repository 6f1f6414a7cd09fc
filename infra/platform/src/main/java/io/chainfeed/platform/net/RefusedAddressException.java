package io.chainfeed.platform.net;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A host resolved to an address that {@link AddressGuard} refuses. An
 * {@link UnknownHostException}, so that an HTTP client's DNS step
 * ({@link GuardedDnsResolver}) may throw it and abort the connection before a socket is
 * opened; the message reads {@code the host <host> resolves to <address>, <reason>}, e.g.
 * {@code the host metadata.example.com resolves to 169.254.169.254, link-local}.
 */
public class RefusedAddressException extends UnknownHostException {

    /**
     * @param host the host as asked for
     * @param address the refused address it resolved to
     * @param reason why, from {@link AddressPolicy#refusal}, e.g. {@code loopback} or
     * {@code private (RFC 1918)}
     */
    public RefusedAddressException(String host, InetAddress address, String reason) {
        super("the host " + host + " resolves to " + address.getHostAddress() + ", " + reason);
    }

}
