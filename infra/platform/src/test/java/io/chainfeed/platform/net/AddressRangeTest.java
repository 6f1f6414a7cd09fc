package io.chainfeed.platform.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AddressRangeTest {

    @Test
    void blocksContainTheirAddressesOnly() {
        AddressRange ten = AddressRange.parse("10.0.0.0/8");
        assertThat(ten.contains(AddressRange.literal("10.200.3.4").orElseThrow())).isTrue();
        assertThat(ten.contains(AddressRange.literal("11.0.0.1").orElseThrow())).isFalse();
        AddressRange odd = AddressRange.parse("172.16.0.0/12");
        assertThat(odd.contains(AddressRange.literal("172.31.255.255").orElseThrow())).isTrue();
        assertThat(odd.contains(AddressRange.literal("172.32.0.0").orElseThrow())).isFalse();
        AddressRange one = AddressRange.parse("::1");
        assertThat(one.bits()).isEqualTo(128);
        assertThat(one.contains(AddressRange.literal("[::1]").orElseThrow())).isTrue();
        assertThat(one.contains(AddressRange.literal("127.0.0.1").orElseThrow())).as("families never mix").isFalse();
        assertThat(AddressRange.parse("2001:db8::/32").toString()).isEqualTo("2001:db8:0:0:0:0:0:0/32");
        assertThat(AddressRange.parse("0.0.0.0/0").contains(AddressRange.literal("8.8.8.8").orElseThrow())).isTrue();
    }

    @Test
    void onlyLiteralsAreAddressesAndNothingIsLookedUp() {
        assertThat(AddressRange.literal("203.0.113.9")).isPresent();
        assertThat(AddressRange.literal(" 2001:db8::7 ")).isPresent();
        assertThat(AddressRange.literal("256.1.1.1")).as("octet over 255").isEmpty();
        assertThat(AddressRange.literal("localhost")).as("a host name is never resolved").isEmpty();
        assertThat(AddressRange.literal("unknown")).isEmpty();
        assertThat(AddressRange.literal("_hidden")).isEmpty();
        assertThat(AddressRange.literal("1.2.3")).isEmpty();
        assertThat(AddressRange.literal("")).isEmpty();
    }

    @Test
    void badBlocksAreRefusedWithTheirText() {
        assertThatThrownBy(() -> AddressRange.parse("10.0.0.0/33")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("33 bits");
        assertThatThrownBy(() -> AddressRange.parse("example.org/8")).hasMessageContaining("example.org/8");
        assertThatThrownBy(() -> AddressRange.parse("10.0.0.0/x")).hasMessageContaining("10.0.0.0/x");
    }

}
