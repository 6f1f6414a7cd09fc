package io.chainfeed.api.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.platform.net.AddressRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressesTest {

    private final ClientAddresses loopbackProxy = new ClientAddresses(
            List.of(AddressRange.parse("127.0.0.0/8"), AddressRange.parse("::1"), AddressRange.parse("10.0.0.0/8")),
            64);

    private String client(String peer, String... forwardedFor) {
        ClientAddresses.Client c = loopbackProxy.resolve(peer, List.of(forwardedFor)).orElseThrow();
        return c.address().getHostAddress() + (c.trustedProxy() ? " (proxy)" : "");
    }

    @Test
    void anUntrustedPeerIsTheClientWhateverItForwards() {
        assertThat(client("203.0.113.7", "198.51.100.1")).isEqualTo("203.0.113.7");
    }

    @Test
    void behindTrustedProxiesTheRightMostUntrustedHopIsTheClient() {
        assertThat(client("127.0.0.1", "198.51.100.1")).isEqualTo("198.51.100.1");
        // the client forged a first entry; the hop our own proxy appended is believed
        assertThat(client("127.0.0.1", "1.1.1.1, 198.51.100.1")).isEqualTo("198.51.100.1");
        // two trusted hops (a CDN edge inside 10/8, then the loopback proxy)
        assertThat(client("127.0.0.1", "198.51.100.1, 10.1.2.3")).isEqualTo("198.51.100.1");
        // several header lines are one list, in order
        assertThat(client("127.0.0.1", "1.1.1.1", "198.51.100.1")).isEqualTo("198.51.100.1");
    }

    @Test
    void aHopThatIsNotAnAddressEndsTheWalkAtTheLastGoodOne() {
        assertThat(client("127.0.0.1", "198.51.100.1, unknown, 10.1.2.3")).isEqualTo("10.1.2.3 (proxy)");
        assertThat(client("127.0.0.1", "evil.example")).isEqualTo("127.0.0.1 (proxy)");
    }

    @Test
    void aTrustedProxyWithNoClientBeyondItIsSaidSo() {
        assertThat(client("127.0.0.1")).isEqualTo("127.0.0.1 (proxy)");
        assertThat(client("0:0:0:0:0:0:0:1")).isEqualTo("0:0:0:0:0:0:0:1 (proxy)");
    }

    @Test
    void ipv6ClientsShareABucketPerSlash64() {
        var a = loopbackProxy.resolve("127.0.0.1", List.of("2001:db8:1:2:aaaa::1")).orElseThrow().address();
        var b = loopbackProxy.resolve("127.0.0.1", List.of("[2001:db8:1:2:bbbb::9]")).orElseThrow().address();
        assertThat(loopbackProxy.bucketName(a)).isEqualTo("2001:db8:1:2:0:0:0:0/64")
            .isEqualTo(loopbackProxy.bucketName(b));
        var v4 = loopbackProxy.resolve("198.51.100.4", List.of()).orElseThrow().address();
        assertThat(loopbackProxy.bucketName(v4)).isEqualTo("198.51.100.4");
    }

}
