package io.chainfeed.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessesTest {

    @TempDir
    Path tmp;

    /**
     * A socket connected to its own port (TCP simultaneous open: what a poll of a port in
     * the ephemeral range can get while nothing listens there) holds the port; it is not
     * a listener.
     */
    @Test
    void aConnectionToItselfIsNoListenerAndHoldsThePort() throws IOException {
        int port = LoopbackPorts.free();
        try (java.net.Socket self = new java.net.Socket()) {
            self.bind(new InetSocketAddress(Processes.LOOPBACK, port));
            self.connect(new InetSocketAddress(Processes.LOOPBACK, port), 1000);
            assertThat(Processes.selfConnected(self)).isTrue();
            assertThat(Processes.portInUse(port)).as("a server could not bind it now").isTrue();
        }
        try (ServerSocket listener = new ServerSocket(0, 1, Processes.LOOPBACK);
                java.net.Socket client = new java.net.Socket(Processes.LOOPBACK, listener.getLocalPort())) {
            assertThat(Processes.selfConnected(client)).isFalse();
            assertThat(Processes.canConnect("127.0.0.1", listener.getLocalPort(), java.time.Duration.ofSeconds(1)))
                .isTrue();
        }
        int[] ephemeral = Processes.ephemeralPorts();
        assertThat(ephemeral[0]).isLessThan(ephemeral[1]);
        assertThat(StackLayout.cluster(29000).portsBetween(ephemeral[0], ephemeral[1], true, true))
            .as("the launcher's default port base stays below the usual ephemeral range")
            .isEmpty();
        assertThat(StackLayout.cluster(45000).portsBetween(45020, 45022, true, true)).containsExactly(45020, 45021,
                45022);
    }

    @Test
    void freePortIsFreeAndATakenPortIsReportedWithTheOptionName() throws IOException {
        int port = LoopbackPorts.free();
        assertThat(Processes.portInUse(port)).isFalse();
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(Processes.LOOPBACK, port));
            assertThat(Processes.portInUse(port)).isTrue();
            assertThatThrownBy(() -> Processes.requireFree(port, "Kafka broker", "--kafka-port"))
                .hasMessageContaining("port " + port + " (Kafka broker)")
                .hasMessageContaining("--kafka-port");
        }
    }

    @Test
    void tailReturnsTheLastLines() throws IOException {
        Path log = tmp.resolve("x.log");
        Files.writeString(log,
                IntStream.rangeClosed(1, 100).mapToObj(i -> "line " + i).collect(Collectors.joining("\n", "", "\n")));
        assertThat(Processes.tail(log, 3)).containsExactly("line 98", "line 99", "line 100");
        assertThat(Processes.tail(tmp.resolve("missing.log"), 3)).isEmpty();
        assertThat(Processes.tails(2, log)).contains("line 99\nline 100\n").contains(log.toString());
    }

    @Test
    void pidFileRoundTrip() throws IOException {
        Path pidFile = tmp.resolve("a/b.pid");
        Processes.writePidFile(pidFile, 12, 345);
        assertThat(Processes.readPidFile(pidFile)).containsExactly(12L, 345L);
        assertThat(Processes.readPidFile(tmp.resolve("none.pid"))).isEmpty();
    }

    @Test
    void copyAndDeleteTree() throws IOException {
        Path from = tmp.resolve("from");
        Files.createDirectories(from.resolve("d/e"));
        Files.writeString(from.resolve("d/e/f.txt"), "x");
        Processes.copyTree(from, tmp.resolve("to"));
        assertThat(tmp.resolve("to/d/e/f.txt")).hasContent("x");
        Processes.deleteTree(tmp.resolve("to"));
        assertThat(tmp.resolve("to")).doesNotExist();
        Processes.deleteTree(tmp.resolve("to"));
    }

    @Test
    void reachabilityNeedsSearchableAncestors() throws IOException {
        Path closed = tmp.resolve("closed");
        Path file = closed.resolve("open/file");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        EnumSet<PosixFilePermission> rx = EnumSet.of(PosixFilePermission.OTHERS_READ,
                PosixFilePermission.OTHERS_EXECUTE);
        // The temp dir's own ancestors may be private on some machines; only judge what
        // this test controls.
        if (Processes.othersCannotReach(tmp, EnumSet.noneOf(PosixFilePermission.class)).isEmpty()) {
            assertThat(Processes.othersCannotReach(file, rx)).get().asString().contains(closed.toString());
            Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx--x--x"));
            assertThat(Processes.othersCannotReach(file, rx)).isEmpty();
        }
    }

    @Test
    void stopStaleKillsOnlyMatchingProcessesAndRemovesThePidFile() throws Exception {
        // A marker no other process has: sleep accepts a fractional number of seconds.
        String marker = "600." + System.nanoTime() % 1_000_000;
        Process stale = new ProcessBuilder("sleep", marker).start();
        Process other = new ProcessBuilder("sleep", "601").start();
        try {
            Path pidFile = tmp.resolve("stale.pid");
            Processes.writePidFile(pidFile, stale.pid(), other.pid());
            int stopped = Processes.stopStale("test", List.of(pidFile), cmd -> cmd.contains("sleep " + marker));
            assertThat(stopped).isEqualTo(1);
            assertThat(stale.waitFor(5, TimeUnit.SECONDS)).isTrue();
            assertThat(other.isAlive()).isTrue();
            assertThat(pidFile).doesNotExist();
        }
        finally {
            stale.destroyForcibly();
            other.destroyForcibly();
        }
    }

}
