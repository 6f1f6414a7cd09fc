package io.chainfeed.platform.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

    @ParameterizedTest
    @ValueSource(strings = { "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.255",
            "127.0.0.1", "127.255.255.254", "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1",
            "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9", "224.0.0.1",
            "239.255.255.250", "240.0.0.1", "255.255.255.255", "::", "::1", "fe80::1", "febf::1", "fc00::1",
            "fd12:3456::1", "fec0::1", "ff02::1", "2001:db8::1", "100::1", "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2", "64:ff9b:1::1",
            // IPv6 forms carrying a refused IPv4 address
            "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1", "::10.1.2.3",
            "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::", "2002:c0a8:101::1", "2002:a00:1::" })
    void refusesAddressesThatAreNotGloballyRoutable(String literal) throws Exception {
        assertThat(AddressPolicy.refusal(InetAddress.getByName(literal))).as(literal).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = { "8.8.8.8", "1.1.1.1", "93.184.215.14", "100.63.255.255", "100.128.0.0", "172.15.255.255",
            "172.32.0.0", "192.169.0.1", "198.17.255.255", "198.20.0.0", "223.255.255.255", "11.0.0.1",
            "2606:4700:4700::1111", "2a00:1450:4001::200e", "64:ff9b::8.8.8.8", "2002:808:808::1", "::ffff:8.8.8.8" })
    void allowsGloballyRoutableUnicast(String literal) throws Exception {
        assertThat(AddressPolicy.refusal(InetAddress.getByName(literal))).as(literal).isEmpty();
    }

    @Test
    void namesTheReason() throws Exception {
        assertThat(AddressPolicy.refusal(InetAddress.getByName("127.0.0.1"))).hasValue("loopback");
        assertThat(AddressPolicy.refusal(InetAddress.getByName("192.168.0.10"))).hasValue("private (RFC 1918)");
        assertThat(AddressPolicy.refusal(InetAddress.getByName("::7f00:1")).orElseThrow())
            .startsWith("loopback, carried in the IPv6 address");
    }

    @Test
    void judgesAnIpv4MappedAddressHeldAsIpv6() throws Exception {
        // The JDK turns ::ffff:a.b.c.d literals into IPv4 addresses; raw bytes can still
        // make an IPv6 one.
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 127;
        mapped[15] = 1;
        InetAddress a = Inet6Address.getByAddress(null, mapped, -1);
        assertThat(a).isInstanceOf(Inet6Address.class);
        assertThat(AddressPolicy.refusal(a)).isPresent();
        assertThat(AddressPolicy.isLoopback(a)).isTrue();
    }

    @Test
    void loopbackInEveryForm() throws Exception {
        for (String s : new String[] { "127.0.0.1", "127.1.2.3", "::1", "::127.0.0.1", "::ffff:127.0.0.1" }) {
            assertThat(AddressPolicy.isLoopback(InetAddress.getByName(s))).as(s).isTrue();
        }
        for (String s : new String[] { "10.0.0.1", "::2", "8.8.8.8", "fe80::1" }) {
            assertThat(AddressPolicy.isLoopback(InetAddress.getByName(s))).as(s).isFalse();
        }
    }

}
