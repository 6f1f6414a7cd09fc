package io.chainfeed.platform.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A block of IP addresses in CIDR notation (RFC 4632 for IPv4, RFC 4291 section 2.3 for
 * IPv6): a prefix and its length in bits. {@code 10.0.0.0/8}, {@code ::1/128}; a bare
 * address is the block of that one address.
 *
 * @param prefix the network address's bytes (4 for IPv4, 16 for IPv6)
 * @param bits the prefix length, 0 to 32 (IPv4) or 0 to 128 (IPv6)
 */
public record AddressRange(byte[] prefix, int bits) {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");

    /**
     * @throws IllegalArgumentException when the prefix length does not fit the address
     */
    public AddressRange {
        prefix = prefix.clone();
        if (bits < 0 || bits > prefix.length * 8) {
            throw new IllegalArgumentException(
                    "a prefix of " + bits + " bits does not fit a " + prefix.length * 8 + "-bit address");
        }
    }

    /**
     * @param cidr {@code <address>/<bits>} or a bare address, IPv4 or IPv6 literal
     * @return the block
     * @throws IllegalArgumentException when it is not an address literal (never looked up
     * in DNS) or the length does not fit
     */
    public static AddressRange parse(String cidr) {
        String text = cidr.strip();
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        InetAddress parsed = literal(address)
            .orElseThrow(() -> new IllegalArgumentException("not an IP address block: " + cidr));
        byte[] bytes = parsed.getAddress();
        int bits;
        try {
            bits = slash < 0 ? bytes.length * 8 : Integer.parseInt(text.substring(slash + 1));
        }
        catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an IP address block: " + cidr, e);
        }
        return new AddressRange(bytes, bits);
    }

    /**
     * Parses an IP address literal without ever asking DNS: a dotted-quad IPv4 address
     * (each part 0-255) or an IPv6 address (RFC 4291 section 2.2 text forms, optionally
     * in brackets as in a URI, RFC 3986 section 3.2.2).
     * @param text the text, e.g. one entry of an {@code X-Forwarded-For} header
     * @return the address, or empty when the text is not such a literal (a host name, an
     * obfuscated identifier such as {@code unknown} or {@code _hidden}, garbage)
     */
    public static Optional<InetAddress> literal(String text) {
        String t = text.strip();
        if (t.startsWith("[") && t.endsWith("]")) {
            t = t.substring(1, t.length() - 1);
        }
        var v4 = IPV4.matcher(t);
        if (v4.matches()) {
            for (int i = 1; i <= 4; i++) {
                if (Integer.parseInt(v4.group(i)) > 255) {
                    return Optional.empty();
                }
            }
        }
        else if (!(t.indexOf(':') >= 0 && IPV6.matcher(t).matches())) {
            return Optional.empty();
        }
        try {
            // a literal of one of the two forms above: getByName parses it, no DNS
            return Optional.of(InetAddress.getByName(t.toLowerCase(Locale.ROOT)));
        }
        catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /**
     * @param address an address
     * @return whether it lies in this block (an IPv4 address never lies in an IPv6 block,
     * nor the other way round)
     */
    public boolean contains(InetAddress address) {
        return contains(address.getAddress());
    }

    /**
     * @param address an address's bytes
     * @return whether they lie in this block
     */
    public boolean contains(byte[] address) {
        if (address.length != prefix.length) {
            return false;
        }
        int full = bits / 8;
        for (int i = 0; i < full; i++) {
            if (address[i] != prefix[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (address[full] & mask) == (prefix[full] & mask);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddressRange r && r.bits == bits && Arrays.equals(r.prefix, prefix);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(prefix) + bits;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(prefix).getHostAddress() + "/" + bits;
        }
        catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

}
