package io.chainfeed.api.webhook;

import io.chainfeed.platform.net.AddressGuard;
import io.chainfeed.platform.net.AddressPolicy;
import io.chainfeed.platform.net.RefusedAddressException;
import java.net.IDN;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Decides which webhook targets may be called. A target URL must be absolute {@code http}
 * or {@code https}, with a host, without user info or fragment, at most
 * {@value #MAX_URL_LENGTH} characters; a non-ASCII host must be written in its IDNA
 * (punycode) form; an IPv4 literal must be four decimal numbers (the shortened, octal and
 * hexadecimal spellings that some clients read as other addresses are refused). Every
 * address the host resolves to must be public ({@link AddressPolicy}); with
 * {@code allowLoopback}, loopback addresses pass too (local testing). The same check
 * ({@link #addresses()}) runs when a subscription is created and, through infra's
 * {@link io.chainfeed.platform.net.GuardedDnsResolver}, on every connection a delivery
 * opens, redirects included; the connection then goes to exactly the addresses that were
 * checked, so a DNS answer that changes in between (rebinding) cannot slip through.
 */
public final class TargetGuard {

    /** Longest target URL accepted. */
    public static final int MAX_URL_LENGTH = 2048;

    private static final Pattern NUMERIC_LABEL = Pattern.compile("(?i)[0-9]+|0x[0-9a-f]*");

    private static final Pattern DOTTED_QUAD = Pattern.compile(
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])" + "(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

    /** What a refused address adds to the owner's message. */
    private static final String ONLY_PUBLIC = ": webhooks go only to public addresses";

    private final boolean allowLoopback;

    private final AddressGuard addresses;

    /**
     * @param allowLoopback let loopback addresses through (local testing only)
     * @param resolver the DNS look-up ({@link AddressGuard#SYSTEM} in production)
     */
    public TargetGuard(boolean allowLoopback, AddressGuard.Resolver resolver) {
        this.allowLoopback = allowLoopback;
        this.addresses = new AddressGuard(
                allowLoopback ? AddressGuard.Scope.PUBLIC_AND_LOOPBACK : AddressGuard.Scope.PUBLIC, resolver);
    }

    /**
     * @return whether loopback targets pass
     */
    public boolean allowsLoopback() {
        return allowLoopback;
    }

    /**
     * @return the address check, for the sender's DNS step
     * ({@link io.chainfeed.platform.net.GuardedDnsResolver})
     */
    public AddressGuard addresses() {
        return addresses;
    }

    /**
     * @param refused a refusal from {@link #addresses()}
     * @return the message for the subscription's owner, naming the host, the address and
     * the reason
     */
    public static String explain(RefusedAddressException refused) {
        return refused.getMessage() + ONLY_PUBLIC;
    }

    /**
     * Checks a URL's form, without DNS.
     * @param text the URL as given
     * @return the parsed URI
     * @throws RefusedTargetException naming the fault
     */
    public URI parse(String text) throws RefusedTargetException {
        if (text == null || text.isBlank()) {
            throw new RefusedTargetException("the target URL is missing");
        }
        if (text.length() > MAX_URL_LENGTH) {
            throw new RefusedTargetException("the target URL is longer than " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(text.trim());
        }
        catch (URISyntaxException e) {
            throw new RefusedTargetException("the target URL is malformed: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new RefusedTargetException("the target URL must start with https:// or http://");
        }
        if (uri.getRawUserInfo() != null) {
            throw new RefusedTargetException("the target URL must not carry user info (user:password@)");
        }
        if (uri.getRawFragment() != null) {
            throw new RefusedTargetException("the target URL must not have a fragment (#...)");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            String authority = uri.getRawAuthority();
            if (authority != null) {
                String bare = authority.replaceFirst(":[0-9]*$", "");
                if (NUMERIC_LABEL.matcher(bare.substring(bare.lastIndexOf('.') + 1)).matches()) {
                    throw new RefusedTargetException(
                            "write an IPv4 address as four decimal numbers (a.b.c.d), not " + bare);
                }
            }
            if (authority != null && !authority.chars().allMatch(c -> c < 0x80)) {
                throw new RefusedTargetException(
                        "write the host in its ASCII (punycode) form, e.g. " + asciiHint(authority));
            }
            throw new RefusedTargetException("the target URL has no valid host");
        }
        if (uri.getPort() == 0 || uri.getPort() > 65535) {
            throw new RefusedTargetException("the target URL's port is out of range");
        }
        if (!host.startsWith("[")) {
            String bare = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
            String last = bare.substring(bare.lastIndexOf('.') + 1);
            if (NUMERIC_LABEL.matcher(last).matches() && !DOTTED_QUAD.matcher(bare).matches()) {
                throw new RefusedTargetException(
                        "write an IPv4 address as four decimal numbers (a.b.c.d), not " + host);
            }
        }
        return uri;
    }

    /**
     * Checks a URL's form and every address its host resolves to.
     * @param text the URL as given
     * @return the parsed URI
     * @throws RefusedTargetException naming the fault: form, an unknown host, or a
     * refused address
     */
    public URI check(String text) throws RefusedTargetException {
        URI uri = parse(text);
        resolve(uri.getHost());
        return uri;
    }

    /**
     * Resolves a host and checks every address.
     * @param host a host name or literal, IPv6 literals with or without brackets
     * @return the addresses, all allowed
     * @throws RefusedTargetException if the host does not resolve or any address is
     * refused
     */
    public InetAddress[] resolve(String host) throws RefusedTargetException {
        try {
            return addresses.resolve(host);
        }
        catch (RefusedAddressException e) {
            throw new RefusedTargetException(explain(e));
        }
        catch (UnknownHostException e) {
            throw new RefusedTargetException("the host " + host + " does not resolve");
        }
    }

    private static String asciiHint(String authority) {
        try {
            return IDN.toASCII(authority.replaceAll(":[0-9]*$", ""));
        }
        catch (IllegalArgumentException e) {
            return "xn--...";
        }
    }

}
