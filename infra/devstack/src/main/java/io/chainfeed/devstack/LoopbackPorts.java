package io.chainfeed.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on 127.0.0.1 for listeners that start a while after their port is chosen
 * (a Kafka or Elasticsearch node, a service whose URL another process is given first).
 *
 * <p>
 * A port the kernel picks for {@code bind(0)} is an ephemeral one, and the kernel hands
 * the same range to every outgoing connection: between the choice and the listener's
 * bind, a client socket may be given that port, and the listener then fails with "address
 * already in use". So a port is drawn at random from the 12,768 ports just below the
 * ephemeral range (Linux's {@code net.ipv4.ip_local_port_range}, 32768-60999 by default),
 * which the kernel never gives an outgoing connection, kept only if it binds now and this
 * JVM has not handed it out before; after 200 draws, the kernel's own choice.
 */
public final class LoopbackPorts {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private static final int SPAN = 12_768;

    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private LoopbackPorts() {
    }

    /**
     * @return a port on 127.0.0.1 that nothing listens on now, below the ephemeral range
     * when one is free there
     * @throws UncheckedIOException when not even the kernel finds one
     */
    public static int free() {
        int top = ephemeralStart();
        int bottom = Math.max(1024, top - SPAN);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = random.nextInt(bottom, top);
            if (!GIVEN.contains(port) && bindable(port) && GIVEN.add(port)) {
                return port;
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, LOOPBACK)) {
            return socket.getLocalPort();
        }
        catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    /** The first port of the kernel's ephemeral range, 32768 when it cannot be read. */
    static int ephemeralStart() {
        try {
            String[] range = Files.readString(EPHEMERAL_RANGE).trim().split("\\s+");
            int start = Integer.parseInt(range[0]);
            return start > 1024 + 1024 ? start : 32768;
        }
        catch (IOException | RuntimeException e) {
            return 32768;
        }
    }

    /**
     * @param port a port
     * @return whether a listener could bind 127.0.0.1:port now (with
     * {@code SO_REUSEADDR}, as servers bind: a closed connection's {@code TIME_WAIT} does
     * not hold it)
     */
    static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, port), 1);
            return true;
        }
        catch (IOException e) {
            return false;
        }
    }

}
