package io.chainfeed.platform.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Optional;

/**
 * Resolves a host name and lets through only the addresses an outbound request may reach,
 * by {@link AddressPolicy}. Used as the DNS step of an HTTP client
 * ({@link GuardedDnsResolver}), so the client connects to exactly the addresses this
 * class checked and never resolves the name a second time: a DNS answer that changes
 * between a check and the connection (DNS rebinding) cannot lead to a private address.
 * Shared by ingest's page and feed fetcher and the api's webhook sender.
 */
public final class AddressGuard {

    /** Which addresses pass. */
    public enum Scope {

        /**
         * Only globally routable unicast addresses ({@link AddressPolicy#refusal} is
         * empty).
         */
        PUBLIC,
        /**
         * Public ones and loopback, in any form ({@link AddressPolicy#isLoopback}); local
         * testing only.
         */
        PUBLIC_AND_LOOPBACK,
        /**
         * Every address (private ones too); local use only. Names are still resolved
         * here.
         */
        ANY

    }

    /**
     * Resolves a host name to its addresses; {@link InetAddress#getAllByName} in
     * production.
     */
    @FunctionalInterface
    public interface Resolver {

        /**
         * @param host a host name or an IP literal, IPv6 without brackets
         * @return its addresses
         * @throws UnknownHostException if it does not resolve
         */
        InetAddress[] resolve(String host) throws UnknownHostException;

    }

    /**
     * The system's resolver ({@link InetAddress#getAllByName}, with the JDK's DNS cache).
     */
    public static final Resolver SYSTEM = InetAddress::getAllByName;

    private final Scope scope;

    private final Resolver resolver;

    /**
     * @param scope which addresses pass
     * @param resolver the DNS look-up
     */
    public AddressGuard(Scope scope, Resolver resolver) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    /**
     * @return which addresses pass
     */
    public Scope scope() {
        return scope;
    }

    /**
     * Resolves a host and checks every address it resolves to; one refused address
     * refuses the host (a client could connect to any of them).
     * @param host a host name or IP literal; an IPv6 literal with or without brackets
     * @return the addresses, all allowed, in the resolver's order
     * @throws RefusedAddressException if any address is refused (a subclass of
     * {@link UnknownHostException}, so a client's DNS step may throw it)
     * @throws UnknownHostException if the host does not resolve, or resolves to nothing
     */
    public InetAddress[] resolve(String host) throws UnknownHostException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses = resolver.resolve(bare);
        if (addresses == null || addresses.length == 0) {
            throw new UnknownHostException(host + " resolves to no address");
        }
        for (InetAddress a : addresses) {
            Optional<String> reason = refusal(a);
            if (reason.isPresent()) {
                throw new RefusedAddressException(host, a, reason.get());
            }
        }
        return addresses.clone();
    }

    /**
     * @param address an address
     * @return why this guard refuses it (see {@link AddressPolicy#refusal}), or empty if
     * it passes
     */
    public Optional<String> refusal(InetAddress address) {
        return switch (scope) {
            case ANY -> Optional.empty();
            case PUBLIC_AND_LOOPBACK ->
                AddressPolicy.isLoopback(address) ? Optional.empty() : AddressPolicy.refusal(address);
            case PUBLIC -> AddressPolicy.refusal(address);
        };
    }

}
