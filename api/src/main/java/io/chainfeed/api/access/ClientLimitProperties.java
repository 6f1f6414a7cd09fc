package io.chainfeed.api.access;

import io.chainfeed.platform.net.AddressRange;
import java.time.Duration;
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
 * @param refusalDelay the longest a client's 429 is held before it is sent, bounded by
 * its {@code Retry-After} ({@link RefusalDelays}; 1 s: a client looping without pause
 * gets about one refusal a second per connection; 0 answers every refusal at once)
 * @param maxHeldRefusals how many refusals may be held at once, each an open connection
 * without a thread (past it, refusals are answered at once)
 */
@ConfigurationProperties("chainfeed.api.client-limits")
public record ClientLimitProperties(@DefaultValue("true") boolean enabled, @DefaultValue("240") int perMinute,
        @DefaultValue( {
                "127.0.0.0/8", "::1" }) List<String> trustedProxies,
        @DefaultValue("64") int ipv6PrefixBits, @DefaultValue("200000") int maxClients,
        @DefaultValue("30") int adminPerMinute, @DefaultValue("1s") Duration refusalDelay,
        @DefaultValue("2000") int maxHeldRefusals){

    /**
     * @throws IllegalArgumentException for a rate under 1, a prefix outside 1-128, a
     * trusted proxy that is not a CIDR block, a negative refusal delay or fewer than one
     * held refusal
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
        if (refusalDelay.isNegative()) {
            throw new IllegalArgumentException("chainfeed.api.client-limits.refusal-delay must not be negative");
        }
        if (maxHeldRefusals < 1) {
            throw new IllegalArgumentException("chainfeed.api.client-limits.max-held-refusals must be at least 1");
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
