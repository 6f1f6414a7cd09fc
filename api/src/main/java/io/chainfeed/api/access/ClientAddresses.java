package io.chainfeed.api.access;

import io.chainfeed.platform.net.AddressRange;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Who a request comes from. The peer address of the connection, unless that peer is a
 * trusted proxy: then the {@code X-Forwarded-For} header (every instance of it, in order)
 * is read from the right, skipping trusted proxies, and the first address that is not one
 * is the client. An entry that is not an IP literal ends the walk at the last good
 * address (a forged or obfuscated hop is never believed). This is the rule of nginx's
 * {@code real_ip_recursive} and Tomcat's {@code RemoteIpValve}; MDN's X-Forwarded-For
 * page explains why only the right-most untrusted entry can be relied on.
 */
public final class ClientAddresses {

    private final List<AddressRange> trusted;

    private final int ipv6PrefixBits;

    /**
     * @param trusted the trusted proxies
     * @param ipv6PrefixBits how many leading bits name an IPv6 client
     */
    public ClientAddresses(List<AddressRange> trusted, int ipv6PrefixBits) {
        this.trusted = List.copyOf(trusted);
        this.ipv6PrefixBits = ipv6PrefixBits;
    }

    /**
     * The client of a request.
     * @param peer the connection's peer address (as {@code getRemoteAddr()} gives it)
     * @param forwardedFor the {@code X-Forwarded-For} header values, in order (may be
     * empty)
     * @return the client address, and whether it is itself a trusted proxy (the request
     * came from a proxy with no client beyond it); empty when the peer is not an address
     */
    public Optional<Client> resolve(String peer, List<String> forwardedFor) {
        Optional<InetAddress> start = AddressRange.literal(peer);
        if (start.isEmpty()) {
            return Optional.empty();
        }
        InetAddress client = start.get();
        if (!isTrusted(client)) {
            return Optional.of(new Client(client, false));
        }
        List<String> hops = new ArrayList<>();
        for (String value : forwardedFor) {
            for (String hop : value.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.strip());
                }
            }
        }
        Collections.reverse(hops);
        for (String hop : hops) {
            Optional<InetAddress> address = AddressRange.literal(hop);
            if (address.isEmpty()) {
                break;
            }
            client = address.get();
            if (!isTrusted(client)) {
                return Optional.of(new Client(client, false));
            }
        }
        return Optional.of(new Client(client, true));
    }

    /**
     * @param request a request
     * @return its client, as {@link #resolve(String, List)} finds it
     */
    public Optional<Client> resolve(HttpServletRequest request) {
        return resolve(request.getRemoteAddr(), Collections.list(request.getHeaders("X-Forwarded-For")));
    }

    /**
     * @param address a client address
     * @return the name its bucket goes by: the address for IPv4, its leading
     * {@code ipv6PrefixBits} as a CIDR block for IPv6
     */
    public String bucketName(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length == 4) {
            return address.getHostAddress();
        }
        int full = ipv6PrefixBits / 8;
        int rest = ipv6PrefixBits % 8;
        for (int i = full; i < b.length; i++) {
            b[i] = i == full && rest != 0 ? (byte) (b[i] & (0xff << (8 - rest))) : 0;
        }
        return new AddressRange(b, ipv6PrefixBits).toString();
    }

    private boolean isTrusted(InetAddress address) {
        return trusted.stream().anyMatch(r -> r.contains(address));
    }

    /**
     * @param address the client's address
     * @param trustedProxy whether that address is one of the trusted proxies
     */
    public record Client(InetAddress address, boolean trustedProxy) {
    }

}
