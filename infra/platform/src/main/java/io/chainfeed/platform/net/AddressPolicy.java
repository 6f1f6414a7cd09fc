package io.chainfeed.platform.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Which IP addresses an outbound fetch or webhook may reach: only globally routable
 * unicast ones. Refused are the special-purpose ranges of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (RFC 6890 and its updates) that are not globally
 * reachable, plus multicast and the reserved 240/4: loopback, RFC 1918 private, shared
 * CGNAT space (RFC 6598), link-local, unique local (RFC 4193), the old IPv6 site-local,
 * documentation, benchmarking and discard ranges. IPv6 forms that embed an IPv4 address
 * (IPv4-mapped {@code ::ffff:a.b.c.d}, IPv4-compatible {@code ::a.b.c.d}, NAT64
 * {@code 64:ff9b::/96} and 6to4 {@code 2002::/16}) are judged by the IPv4 address they
 * carry; Teredo ({@code 2001::/32}), whose embedded address is obfuscated, is refused
 * outright.
 *
 * <p>
 * Shared by ingest's page and feed fetcher and the api's webhook sender. Pure: no DNS
 * look-up.
 */
public final class AddressPolicy {

    private record Range(AddressRange block, String reason) {
        boolean contains(byte[] address) {
            return block.contains(address);
        }
    }

    private static final List<Range> V4 = List.of(range("0.0.0.0", 8, "\"this network\" (0.0.0.0/8)"),
            range("10.0.0.0", 8, "private (RFC 1918)"),
            range("100.64.0.0", 10, "shared address space (RFC 6598, carrier-grade NAT)"),
            range("127.0.0.0", 8, "loopback"), range("169.254.0.0", 16, "link-local"),
            range("172.16.0.0", 12, "private (RFC 1918)"),
            range("192.0.0.0", 24, "IETF protocol assignments (192.0.0.0/24)"),
            range("192.0.2.0", 24, "documentation (TEST-NET-1)"),
            range("192.88.99.0", 24, "6to4 relay anycast (deprecated)"), range("192.168.0.0", 16, "private (RFC 1918)"),
            range("198.18.0.0", 15, "benchmarking (RFC 2544)"), range("198.51.100.0", 24, "documentation (TEST-NET-2)"),
            range("203.0.113.0", 24, "documentation (TEST-NET-3)"), range("224.0.0.0", 4, "multicast"),
            range("240.0.0.0", 4, "reserved (240.0.0.0/4, incl. broadcast)"));

    private static final List<Range> V6 = List.of(range("::", 128, "unspecified (::)"), range("::1", 128, "loopback"),
            range("64:ff9b:1::", 48, "local-use NAT64 (RFC 8215)"), range("100::", 64, "discard-only (RFC 6666)"),
            range("2001::", 32, "Teredo (the IPv4 address it carries is hidden)"),
            range("2001:2::", 48, "benchmarking (RFC 5180)"), range("2001:db8::", 32, "documentation"),
            range("2001:10::", 28, "ORCHID (deprecated)"), range("fc00::", 7, "unique local (RFC 4193)"),
            range("fe80::", 10, "link-local"), range("fec0::", 10, "site-local (deprecated)"),
            range("ff00::", 8, "multicast"));

    private AddressPolicy() {
    }

    /**
     * @param address an IPv4 or IPv6 address
     * @return why it is refused (e.g. {@code "loopback"}, {@code "private (RFC 1918)"}),
     * or empty if it is a globally routable unicast address
     */
    public static Optional<String> refusal(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return match(V4, b);
        }
        if (!(address instanceof Inet6Address)) {
            return Optional.of("not an IP address");
        }
        Optional<byte[]> embedded = embeddedIpv4(b);
        if (embedded.isPresent()) {
            return match(V4, embedded.get()).map(r -> r + ", carried in the IPv6 address " + address.getHostAddress());
        }
        return match(V6, b);
    }

    /**
     * @param address an address
     * @return whether it is a loopback address, in any form ({@code 127.0.0.0/8},
     * {@code ::1}, or an IPv6 address carrying a 127/8 one)
     */
    public static boolean isLoopback(InetAddress address) {
        if (address.isLoopbackAddress()) {
            return true;
        }
        byte[] b = address.getAddress();
        return address instanceof Inet6Address && embeddedIpv4(b).map(v4 -> (v4[0] & 0xff) == 127).orElse(false);
    }

    /**
     * The IPv4 address an IPv6 address carries: IPv4-mapped ({@code ::ffff:0:0/96}),
     * IPv4-compatible ({@code ::/96}, deprecated by RFC 4291, but not {@code ::} or
     * {@code ::1}), NAT64's well-known prefix ({@code 64:ff9b::/96}, RFC 6052) and 6to4
     * ({@code 2002::/16}, RFC 3056).
     */
    private static Optional<byte[]> embeddedIpv4(byte[] b) {
        if (b.length != 16) {
            return Optional.empty();
        }
        if (allZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return Optional.of(slice(b, 12));
        }
        if (allZero(b, 0, 12) && !(allZero(b, 12, 15) && (b[15] == 0 || b[15] == 1))) {
            return Optional.of(slice(b, 12));
        }
        if (b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b && allZero(b, 4, 12)) {
            return Optional.of(slice(b, 12));
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return Optional.of(new byte[] { b[2], b[3], b[4], b[5] });
        }
        return Optional.empty();
    }

    private static Optional<String> match(List<Range> ranges, byte[] b) {
        return ranges.stream().filter(r -> r.contains(b)).map(Range::reason).findFirst();
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] slice(byte[] b, int from) {
        return new byte[] { b[from], b[from + 1], b[from + 2], b[from + 3] };
    }

    private static Range range(String literal, int bits, String reason) {
        byte[] prefix = AddressRange.parse(literal).prefix();
        if (literal.contains(":") && prefix.length == 4) {
            throw new IllegalStateException("IPv6 range written as a mapped IPv4 literal: " + literal);
        }
        return new Range(new AddressRange(prefix, bits), reason);
    }

}
