package io.chainfeed.api.access;

import io.chainfeed.platform.net.AddressRange;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code chainfeed.api.client-limits}: the per-client rate limits of the
 * public paths and of the admin key paths ({@link ClientLimitInterceptor}) and whom to
 * believe about a client's address.
 *
 * @param enabled limit clients at all
 * @param perMinute requests a client address may make a minute to the public paths, all
 * of them together (a token bucket of a minute's capacity, refilled greedily)
 * @param trustedProxies the proxies (CIDR blocks or bare addresses) whose
 * {@code X-Forwarded-For} is believed; default the loopback addresses {@code 127.0.0.0/8}
 * and {@code ::1}, which is where a caching proxy or load balancer of the embedded
 * default sits. A request straight from a trusted proxy (no forwarded client beyond it)
 * is the operator's own and is not limited.
 * @param ipv6PrefixBits how much of an IPv6 client address names the client (64: a
 * subscriber usually gets a whole /64, RFC 6177)
 * @param maxClients how many client buckets are kept at most (an idle bucket is dropped
 * after two minutes, when it would be full again anyway)
 * @param adminPerMinute requests a client address may make a minute to the admin key
 * paths ({@code /api/v1/admin/**}), in buckets of their own apart from the public paths'
 * (30: an operator's script issuing or revoking keys one after another, while someone
 * guessing admin keys gets 30 tries a minute per address)
 */
@ConfigurationProperties("chainfeed.api.client-limits")
public record ClientLimitProperties(@DefaultValue("true") boolean enabled, @DefaultValue("240") int perMinute,
        @DefaultValue( {
                "127.0.0.0/8", "::1" }) List<String> trustedProxies,
        @DefaultValue("64") int ipv6PrefixBits, @DefaultValue("200000") int maxClients,
        @DefaultValue("30") int adminPerMinute){

    /**
     * @throws IllegalArgumentException for a rate under 1, a prefix outside 1-128, or a
     * trusted proxy that is not a CIDR block
     */
    public ClientLimitProperties {
        trustedProxies = List.copyOf(trustedProxies);
        if (perMinute < 1) {
            throw new IllegalArgumentException("chainfeed.api.client-limits.per-minute must be at least 1");
        }
        if (adminPerMinute < 1) {
            throw new IllegalArgumentException("chainfeed.api.client-limits.admin-per-minute must be at least 1");
        }
        if (ipv6PrefixBits < 1 || ipv6PrefixBits > 128) {
            throw new IllegalArgumentException("chainfeed.api.client-limits.ipv6-prefix-bits must be 1 to 128");
        }
        trustedProxies.forEach(AddressRange::parse);
    }

    /**
     * @return the trusted proxies as address blocks
     */
    public List<AddressRange> trustedBlocks() {
        return trustedProxies.stream().map(AddressRange::parse).toList();
    }

}
