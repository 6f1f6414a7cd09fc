package io.chainfeed.platform.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hc.client5.http.DnsResolver;

/**
 * Apache HttpClient 5's DNS step backed by an {@link AddressGuard}: every new connection
 * (to the first URL and to each redirect) resolves its host here, every address is
 * checked, and HttpClient connects to exactly the addresses returned (it does not resolve
 * the name again), so a DNS answer that changes after a check (rebinding) cannot lead to
 * a refused address. A refusal throws {@link RefusedAddressException} before any socket
 * is opened. TLS still verifies, and sends as SNI, the host name of the URL.
 *
 * <p>
 * Install it on the connection manager
 * ({@code PoolingHttpClientConnectionManagerBuilder.setDnsResolver}) of a client that
 * connects directly: through a proxy this step would resolve the proxy, not the target.
 * Pooled connections should have a time to live, so the name is checked again at least
 * that often.
 */
public final class GuardedDnsResolver implements DnsResolver {

    private final AddressGuard guard;

    /**
     * @param guard resolves and checks each host
     */
    public GuardedDnsResolver(AddressGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /**
     * @param host the host to connect to
     * @return its addresses, all allowed
     * @throws RefusedAddressException if one is refused
     * @throws UnknownHostException if it does not resolve
     */
    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        return guard.resolve(host);
    }

    /**
     * @param host the host to connect to
     * @param port the port
     * @return its addresses with the port, all allowed
     * @throws RefusedAddressException if one is refused
     * @throws UnknownHostException if it does not resolve
     */
    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
        return Arrays.stream(guard.resolve(host)).map(a -> new InetSocketAddress(a, port)).toList();
    }

    /**
     * Only used for SPNEGO/Kerberos, which these clients never do; answers without a
     * look-up.
     * @param host a host name
     * @return the same name
     */
    @Override
    public String resolveCanonicalHostname(String host) {
        return host;
    }

}
