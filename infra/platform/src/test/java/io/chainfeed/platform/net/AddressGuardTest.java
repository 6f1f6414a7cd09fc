package io.chainfeed.platform.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AddressGuardTest {

    private static final Map<String, String[]> NAMES = Map.of("public.example.com",
            new String[] { "93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c" }, "mixed.example.com",
            new String[] { "93.184.215.14", "10.0.0.7" }, "localhost", new String[] { "127.0.0.1", "::1" },
            "empty.example.com", new String[0]);

    private static AddressGuard guard(AddressGuard.Scope scope) {
        return new AddressGuard(scope, FixedResolver.of(NAMES));
    }

    @Test
    void publicScopeReturnsEveryAddressOfAPublicHost() throws Exception {
        assertThat(guard(AddressGuard.Scope.PUBLIC).resolve("public.example.com"))
            .extracting(InetAddress::getHostAddress)
            .containsExactly("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c");
        assertThat(guard(AddressGuard.Scope.PUBLIC).resolve("[2606:4700:4700::1111]")).hasSize(1);
    }

    @Test
    void oneRefusedAddressRefusesTheHostNamingAddressAndReason() {
        assertThatThrownBy(() -> guard(AddressGuard.Scope.PUBLIC).resolve("mixed.example.com"))
            .isInstanceOf(RefusedAddressException.class)
            .hasMessage("the host mixed.example.com resolves to 10.0.0.7, private (RFC 1918)");
        assertThatThrownBy(() -> guard(AddressGuard.Scope.PUBLIC).resolve("[::ffff:169.254.169.254]"))
            .isInstanceOf(RefusedAddressException.class)
            .hasMessageContaining("link-local");
    }

    @Test
    void scopesDecideOnLoopbackAndPrivateAddresses() throws Exception {
        assertThatThrownBy(() -> guard(AddressGuard.Scope.PUBLIC).resolve("localhost"))
            .isInstanceOf(RefusedAddressException.class)
            .hasMessageContaining("loopback");
        assertThat(guard(AddressGuard.Scope.PUBLIC_AND_LOOPBACK).resolve("localhost")).hasSize(2);
        assertThat(guard(AddressGuard.Scope.PUBLIC_AND_LOOPBACK).resolve("[::ffff:127.0.0.1]")).hasSize(1);
        assertThatThrownBy(() -> guard(AddressGuard.Scope.PUBLIC_AND_LOOPBACK).resolve("mixed.example.com"))
            .isInstanceOf(RefusedAddressException.class);
        assertThat(guard(AddressGuard.Scope.ANY).resolve("mixed.example.com")).hasSize(2);
    }

    @Test
    void aHostThatDoesNotResolveIsUnknownNotRefused() {
        for (AddressGuard.Scope scope : AddressGuard.Scope.values()) {
            assertThatThrownBy(() -> guard(scope).resolve("nowhere.example.com")).as(scope.name())
                .isInstanceOf(UnknownHostException.class)
                .isNotInstanceOf(RefusedAddressException.class);
            assertThatThrownBy(() -> guard(scope).resolve("empty.example.com")).as(scope.name())
                .isInstanceOf(UnknownHostException.class)
                .isNotInstanceOf(RefusedAddressException.class);
        }
    }

    @Test
    void theDnsStepChecksEveryLookUpAndReturnsExactlyTheCheckedAddresses() throws Exception {
        // The answer changes after the first look-up (rebinding): the DNS step checks the
        // answer it hands
        // to the client, not an earlier one.
        AtomicInteger lookups = new AtomicInteger();
        AddressGuard.Resolver rebinding = host -> new InetAddress[] {
                InetAddress.getByAddress(host, lookups.getAndIncrement() == 0
                        ? new byte[] { 93, (byte) 184, (byte) 215, 14 } : new byte[] { 127, 0, 0, 1 }) };
        GuardedDnsResolver dns = new GuardedDnsResolver(new AddressGuard(AddressGuard.Scope.PUBLIC, rebinding));
        assertThat(dns.resolve("rebind.example.com", 443)).containsExactly(new InetSocketAddress(
                InetAddress.getByAddress("rebind.example.com", new byte[] { 93, (byte) 184, (byte) 215, 14 }), 443));
        assertThatThrownBy(() -> dns.resolve("rebind.example.com", 443)).isInstanceOf(RefusedAddressException.class)
            .hasMessage("the host rebind.example.com resolves to 127.0.0.1, loopback");
        assertThatThrownBy(() -> dns.resolve("rebind.example.com")).isInstanceOf(RefusedAddressException.class);
        assertThat(dns.resolveCanonicalHostname("rebind.example.com")).isEqualTo("rebind.example.com");
        assertThat(lookups).hasValue(3);
    }

}
