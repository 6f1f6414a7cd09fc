package io.chainfeed.platform.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * A test resolver with fixed answers, so no test depends on real DNS: a listed name
 * resolves to its addresses, an IP literal as the JDK reads it, anything else not at all.
 * Shared with the other modules' tests through this module's test jar.
 */
public final class FixedResolver {

    private FixedResolver() {
    }

    /**
     * @param names host name to its addresses (IPv4 or IPv6 literals); an empty array
     * resolves to nothing
     * @return the resolver; an unlisted name that is not a literal throws
     * {@link UnknownHostException}
     */
    public static AddressGuard.Resolver of(Map<String, String[]> names) {
        return host -> {
            String[] answer = names.get(host);
            if (answer == null) {
                if (host.chars()
                    .allMatch(c -> Character.isDigit(c) || c == '.' || c == ':' || (c >= 'a' && c <= 'f'))) {
                    return InetAddress.getAllByName(host);
                }
                throw new UnknownHostException(host);
            }
            InetAddress[] out = new InetAddress[answer.length];
            for (int i = 0; i < answer.length; i++) {
                out[i] = InetAddress.getByAddress(host, InetAddress.getByName(answer[i]).getAddress());
            }
            return out;
        };
    }

}
