package io.chainfeed.api.webhook;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import org.apache.hc.client5.http.DnsResolver;

/**
 * HttpClient's DNS hook for webhook deliveries: every connection, to the first target and to each
 * redirect, resolves its host here, {@link TargetGuard} checks every address, and HttpClient connects to
 * exactly the addresses returned (it does not resolve again), so a changed DNS answer after the check
 * cannot lead to a private address. Refusals abort the connection with a
 * {@link RefusedTargetException} before any socket is opened.
 */
final class GuardedDnsResolver implements DnsResolver {
    private final TargetGuard guard;

    GuardedDnsResolver(TargetGuard guard) {
        this.guard = guard;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        return guard.resolve(host);
    }

    @Override
    public List<InetSocketAddress> resolve(String host, int port) throws UnknownHostException {
        return Arrays.stream(guard.resolve(host)).map(a -> new InetSocketAddress(a, port)).toList();
    }

    @Override
    public String resolveCanonicalHostname(String host) throws UnknownHostException {
        // Only used for SPNEGO/Kerberos, which webhook deliveries never do; answer without a look-up.
        return host;
    }
}
