package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

    @Test
    void portsComeFromBelowTheEphemeralRangeAndAreNeverHandedOutTwice() throws IOException {
        int top = LoopbackPorts.ephemeralStart();
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            int port = LoopbackPorts.free();
            assertThat(port).isLessThan(top).isGreaterThanOrEqualTo(Math.max(1024, top - 12_768));
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
            try (ServerSocket listener = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(listener.getLocalPort()).isEqualTo(port);
            }
        }
    }

}
