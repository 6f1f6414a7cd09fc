package io.chainfeed.devstack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The running launcher's control channel: a Unix domain socket at
 * {@code <run dir>/control.sock} (so only local users allowed by the file's permissions
 * reach it; no TCP port) taking one request a connection, one line of UTF-8:
 * {@code restart <part>} (a service, or the embedded {@code kafka} or
 * {@code elasticsearch}) or {@code status}. The answer is one line, {@code ok <message>}
 * or {@code error <message>}, sent once the part is healthy again (or failed to be); a
 * status lists each part as {@code <name>: <state> (<detail>)}, the parts separated by
 * tabs ({@link #STATUS_SEPARATOR}: a detail may hold a semicolon).
 *
 * <p>
 * {@link #main} is the client: {@code ./chainfeed restart streams} runs
 * {@code StackControl streams --run-dir .run}, {@code ./chainfeed status} runs
 * {@code StackControl status}.
 */
public final class StackControl implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StackControl.class);

    /** The socket's file name in the run dir. */
    public static final String SOCKET = "control.sock";

    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(180);

    /** Between two parts of a status answer. */
    static final String STATUS_SEPARATOR = "\t";

    private final Path socket;

    private final ServerSocketChannel server;

    private final Thread acceptor;

    private StackControl(Path socket, ServerSocketChannel server, Stack stack) {
        this.socket = socket;
        this.server = server;
        this.acceptor = new Thread(() -> serve(stack), "stack-control");
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    /**
     * Listens on {@code <run dir>/control.sock}, replacing a socket file left by an
     * earlier run.
     * @param runDir the stack's run dir
     * @param stack the stack whose services the requests restart
     * @return the listening channel; {@link #close()} stops it and removes the file
     * @throws IOException when the socket cannot be bound
     */
    static StackControl listen(Path runDir, Stack stack) throws IOException {
        Path socket = runDir.resolve(SOCKET);
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        try {
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        }
        catch (UnsupportedOperationException e) {
            // not a POSIX file system: the run dir's own permissions apply
        }
        return new StackControl(socket, server, stack);
    }

    private void serve(Stack stack) {
        while (server.isOpen()) {
            try (SocketChannel client = server.accept()) {
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(Channels.newInputStream(client), StandardCharsets.UTF_8));
                Writer out = Channels.newWriter(client, StandardCharsets.UTF_8);
                out.write(handle(stack, in.readLine()) + "\n");
                out.flush();
            }
            catch (IOException e) {
                if (server.isOpen()) {
                    LOG.warn("control request failed: {}", e.toString());
                }
            }
        }
    }

    /** Runs one request line; returns the answer line. */
    static String handle(Stack stack, String request) {
        String[] words = request == null ? new String[0] : request.strip().split("\\s+");
        if (words.length == 1 && words[0].equals("status")) {
            Map<String, SupervisedStatus> status = stack.status();
            boolean allUp = status.values().stream().allMatch(SupervisedStatus::up);
            return (allUp ? "ok " : "error ") + status.entrySet()
                .stream()
                .map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(STATUS_SEPARATOR));
        }
        if (words.length != 2 || !words[0].equals("restart")) {
            return "error unknown request '" + request + "'; expected: restart <service> or status";
        }
        try {
            Duration took = stack.restartService(words[1], RESTART_TIMEOUT);
            return String.format("ok %s restarted and healthy in %.1f s", words[1], took.toMillis() / 1000.0);
        }
        catch (IllegalArgumentException | IllegalStateException | IOException e) {
            return "error " + e.getMessage().lines().findFirst().orElse(e.toString());
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        Files.deleteIfExists(socket);
    }

    /** The client: {@code restart <service> [--run-dir DIR]}. */
    @Command(name = "chainfeed restart", mixinStandardHelpOptions = true,
            description = "Restarts one part of the running stack and waits until it is healthy"
                    + " (or, as chainfeed status, lists what each part is doing).")
    static final class Client implements Callable<Integer> {

        @Parameters(index = "0", description = "streams, ingest, api, kafka or elasticsearch")
        String service;

        /** Asks for the status instead of a restart ({@code ./chainfeed status}). */
        boolean status;

        @Option(names = "--run-dir", description = "Run dir of the running stack (default: ${DEFAULT-VALUE}).")
        Path runDir = Path.of(".run");

        PrintStream out = System.out;

        PrintStream err = System.err;

        @Override
        public Integer call() throws IOException {
            Path socket = runDir.resolve(SOCKET);
            if (!Files.exists(socket)) {
                err.println("chainfeed restart: no running stack at " + runDir.toAbsolutePath().normalize() + " (no "
                        + SOCKET + "); start it with ./chainfeed run");
                return 1;
            }
            try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                Writer w = Channels.newWriter(channel, StandardCharsets.UTF_8);
                w.write((status ? "status" : "restart " + service) + "\n");
                w.flush();
                String answer = new BufferedReader(
                        new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8))
                    .readLine();
                if (status && answer != null && (answer.startsWith("ok ") || answer.startsWith("error "))) {
                    // One part a line; exit code 1 unless every part is up.
                    List.of(answer.substring(answer.indexOf(' ') + 1).split(STATUS_SEPARATOR)).forEach(out::println);
                    return answer.startsWith("ok ") ? 0 : 1;
                }
                if (answer != null && answer.startsWith("ok ")) {
                    out.println(answer.substring(3));
                    return 0;
                }
                err.println(
                        "chainfeed restart: " + (answer == null ? "no answer" : answer.replaceFirst("^error ", "")));
                return 1;
            }
            catch (IOException e) {
                err.println("chainfeed restart: cannot reach the launcher at " + socket + ": " + e.getMessage());
                return 1;
            }
        }

    }

    /**
     * Command-line client.
     * @param args {@code <part> [--run-dir DIR]}, or {@code status [--run-dir DIR]}
     */
    public static void main(String[] args) {
        Client client = new Client();
        if (args.length > 0 && args[0].equals("status")) {
            client.status = true;
        }
        System.exit(new CommandLine(client).execute(args));
    }

}
