package io.chainfeed.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Small process, port and file helpers shared by the launchers. */
final class Processes {

    private static final Logger LOG = LoggerFactory.getLogger(Processes.class);
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private Processes() {
    }

    /** Whether something already listens on (or holds) 127.0.0.1:port. */
    static boolean portInUse(int port) {
        return !LoopbackPorts.bindable(port);
    }

    /**
     * Whether a TCP connection to host:port succeeds within the timeout, to a listener: a
     * connection to itself does not count, and is reset at once.
     *
     * <p>
     * A port in the kernel's ephemeral range ({@link #ephemeralPorts()}) that nothing
     * listens on yet can be given to a connection to that very port as its source: TCP's
     * simultaneous open then connects the socket to itself, and it holds the port, so the
     * server starting there fails with "Address already in use". Seen with the cluster
     * fault test's port base 47100: the launcher's readiness poll of a starting
     * Elasticsearch node took its HTTP port. Readiness polls ask this first, and talk
     * HTTP only once something listens (a listening port is never handed out as a
     * source).
     */
    static boolean canConnect(String host, int port, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            if (selfConnected(socket)) {
                socket.setSoLinger(true, 0); // RST: nothing left in TIME_WAIT on the port
                return false;
            }
            return true;
        }
        catch (IOException e) {
            return false;
        }
    }

    /** Whether a connected socket is connected to itself (same address and port). */
    static boolean selfConnected(Socket socket) {
        return socket.isConnected() && socket.getLocalPort() == socket.getPort()
                && socket.getLocalAddress().equals(socket.getInetAddress());
    }

    /**
     * The kernel's ephemeral port range ({@code /proc/sys/net/ipv4/ip_local_port_range}),
     * from which connections take their source port; Linux's default 32768-60999 when it
     * cannot be read.
     * @return the first and the last port
     */
    static int[] ephemeralPorts() {
        try {
            String[] range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            return new int[] { Integer.parseInt(range[0]), Integer.parseInt(range[1]) };
        }
        catch (IOException | RuntimeException e) {
            return new int[] { 32768, 60999 };
        }
    }

    /**
     * Fails with a clear message when the port is taken.
     * @param port the port
     * @param what what should listen there, e.g. "Kafka broker"
     * @param hint how to pick another port, e.g. "--kafka-port"; may be null
     */
    static void requireFree(int port, String what, String hint) {
        if (portInUse(port)) {
            throw new IllegalStateException("port " + port + " (" + what + ") on 127.0.0.1 is already in use by"
                    + " another process" + (hint == null ? "" : "; choose another one with " + hint));
        }
    }

    /** The uid of this JVM, from /proc/self; -1 when it cannot be read (not Linux). */
    static int currentUid() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue();
        }
        catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    /** Deletes a directory tree if it exists (symlinks are removed, not followed). */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Copies a directory tree (the target must not exist). */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(source, target);
                }
            }
        }
    }

    /** chown -R uid:uid, without following symlinks. */
    static void chownTree(Path dir, int uid) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(p, "unix:gid", uid, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    /**
     * Checks that an unprivileged user (not the owner, not in the group) can reach
     * {@code path}: every ancestor needs the others-execute bit, and the path itself the
     * given others permissions.
     * @return a description of the first problem, or empty when the path is reachable
     */
    static Optional<String> othersCannotReach(Path path, Set<PosixFilePermission> needed) throws IOException {
        Path absolute = path.toAbsolutePath().normalize();
        for (Path p = absolute.getParent(); p != null; p = p.getParent()) {
            if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                return Optional.of(p + " is not searchable by other users (needs o+x)");
            }
        }
        Set<PosixFilePermission> actual = Files.getPosixFilePermissions(absolute);
        if (!actual.containsAll(needed)) {
            return Optional.of(absolute + " lacks " + needed + " for other users (has " + actual + ")");
        }
        return Optional.empty();
    }

    /**
     * The last {@code n} lines of a text file (empty when it does not exist); reads at
     * most 256 KB.
     */
    static List<String> tail(Path file, int n) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ)) {
            long size = channel.size();
            int chunk = (int) Math.min(size, 256 * 1024);
            channel.position(size - chunk);
            ByteBuffer buffer = ByteBuffer.allocate(chunk);
            while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                // keep reading
            }
            List<String> lines = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).lines()
                .collect(Collectors.toList());
            return lines.subList(Math.max(0, lines.size() - n), lines.size());
        }
        catch (IOException e) {
            return List.of("(could not read " + file + ": " + e + ")");
        }
    }

    /** Formats the tail of several log files for an error message. */
    static String tails(int n, Path... files) {
        StringBuilder out = new StringBuilder();
        for (Path file : files) {
            List<String> lines = tail(file, n);
            if (!lines.isEmpty()) {
                out.append("\n--- last ").append(lines.size()).append(" lines of ").append(file).append(" ---\n");
                lines.forEach(line -> out.append(line).append('\n'));
            }
        }
        return out.toString();
    }

    /** Writes the pids, one a line. */
    static void writePidFile(Path pidFile, long... pids) throws IOException {
        StringBuilder text = new StringBuilder();
        for (long pid : pids) {
            text.append(pid).append('\n');
        }
        Files.createDirectories(pidFile.toAbsolutePath().getParent());
        Files.writeString(pidFile, text);
    }

    /**
     * The pids in a pid file, one a line; empty when there is no file or it is
     * unreadable.
     */
    static List<Long> readPidFile(Path pidFile) {
        if (!Files.isRegularFile(pidFile)) {
            return List.of();
        }
        try {
            List<Long> pids = new ArrayList<>();
            for (String line : Files.readAllLines(pidFile)) {
                String trimmed = line.trim();
                if (trimmed.matches("\\d+")) {
                    pids.add(Long.parseLong(trimmed));
                }
            }
            return pids;
        }
        catch (IOException e) {
            return List.of();
        }
    }

    /** The command line of a live process, or "" when it cannot be read. */
    static String commandLine(ProcessHandle handle) {
        Optional<String> fromInfo = handle.info().commandLine();
        if (fromInfo.isPresent()) {
            return fromInfo.get();
        }
        // ProcessHandle.Info can come back empty for processes of other users; /proc is
        // authoritative.
        Path cmdline = Path.of("/proc", Long.toString(handle.pid()), "cmdline");
        try (InputStream in = Files.newInputStream(cmdline)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace('\0', ' ').trim();
        }
        catch (IOException e) {
            return "";
        }
    }

    /**
     * Stops processes left behind by an earlier run: those named in the pid files, plus
     * any live process whose command line matches. Only processes whose command line
     * passes {@code isOurs} are touched.
     * @param what a name for the log, e.g. "Elasticsearch"
     * @param pidFiles pid files of the earlier run (they are deleted afterwards)
     * @param isOurs the test on a command line that identifies the earlier run's
     * processes
     * @return how many processes were stopped
     */
    static int stopStale(String what, List<Path> pidFiles, Predicate<String> isOurs) throws IOException {
        Set<ProcessHandle> stale = new LinkedHashSet<>();
        for (Path pidFile : pidFiles) {
            for (long pid : readPidFile(pidFile)) {
                ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(h -> isOurs.test(commandLine(h)))
                    .ifPresent(stale::add);
            }
        }
        long self = ProcessHandle.current().pid();
        ProcessHandle.allProcesses()
            .filter(h -> h.pid() != self)
            .filter(h -> isOurs.test(commandLine(h)))
            .forEach(stale::add);
        for (Path pidFile : pidFiles) {
            Files.deleteIfExists(pidFile);
        }
        if (stale.isEmpty()) {
            return 0;
        }
        LOG.warn("{}: stopping {} process(es) left by an earlier run: {}", what, stale.size(),
                stale.stream().map(h -> Long.toString(h.pid())).collect(Collectors.joining(", ")));
        List<ProcessHandle> all = new ArrayList<>(stale);
        stale.forEach(h -> h.descendants().forEach(all::add));
        terminate(all, Duration.ofSeconds(20));
        return stale.size();
    }

    /**
     * SIGTERM to all, wait up to {@code grace}, then SIGKILL the survivors and wait for
     * them.
     */
    static void terminate(List<ProcessHandle> handles, Duration grace) {
        handles.forEach(ProcessHandle::destroy);
        List<ProcessHandle> survivors = awaitGone(handles, grace);
        if (!survivors.isEmpty()) {
            LOG.warn("force-killing {} process(es) that ignored SIGTERM for {} s: {}", survivors.size(),
                    grace.toSeconds(), survivors.stream().map(h -> Long.toString(h.pid())).toList());
            survivors.forEach(ProcessHandle::destroyForcibly);
            List<ProcessHandle> undead = awaitGone(survivors, Duration.ofSeconds(10));
            undead.forEach(h -> LOG.error("process {} is still alive after SIGKILL", h.pid()));
        }
    }

    /**
     * Polls until every process has exited, up to {@code timeout}. A zombie counts as
     * gone: orphans of an earlier run are reaped by init, which may take its time, and
     * {@code ProcessHandle.onExit()} polls non-children only about once a second.
     * @return the processes still running
     */
    static List<ProcessHandle> awaitGone(List<ProcessHandle> handles, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ProcessHandle> running = handles.stream().filter(Processes::running).toList();
        while (!running.isEmpty() && System.nanoTime() < deadline) {
            sleep(Duration.ofMillis(50));
            running = running.stream().filter(Processes::running).toList();
        }
        return running;
    }

    /** Alive and not a zombie. */
    static boolean running(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(handle.pid()), "stat"));
            // pid (comm) state ...: comm may contain spaces and parentheses, the state
            // follows the last ')'.
            int close = stat.lastIndexOf(')');
            return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
        }
        catch (IOException e) {
            return handle.isAlive();
        }
    }

    /**
     * Stops a child process and all its descendants: the descendants are collected first
     * (once the parent is gone they are re-parented and can no longer be found), then
     * SIGTERM, wait, SIGKILL.
     */
    static void stopTree(Process process, Duration grace) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(process.toHandle());
        process.descendants().forEach(all::add);
        terminate(all, grace);
    }

    /**
     * The command run through {@code setsid} (util-linux) when it is installed: the child
     * leads a session and process group of its own, so a signal to the launcher's process
     * group (Ctrl-C in a terminal, {@code kill -TERM -- -<pgid>}) reaches the launcher
     * only, which then stops its children in order. The pid stays the child's: a child of
     * a JVM never leads a process group, so {@code setsid} execs in place.
     * @param command the command
     * @return the command behind {@code setsid}, or as it was where there is none
     */
    static List<String> inOwnSession(List<String> command) {
        Path setsid = Stream.of("/usr/bin/setsid", "/bin/setsid")
            .map(Path::of)
            .filter(Files::isExecutable)
            .findFirst()
            .orElse(null);
        if (setsid == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>();
        wrapped.add(setsid.toString());
        wrapped.addAll(command);
        return wrapped;
    }

    /** The java launcher of the running JVM. */
    static Path javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * Sleeps, turning an interrupt into an unchecked exception (the interrupt flag stays
     * set).
     */
    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Registers a JVM shutdown hook; returns it so that it can be removed. */
    static Thread addShutdownHook(String name, Runnable action) {
        Thread hook = new Thread(action, name);
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /** Removes a shutdown hook unless the JVM is already shutting down. */
    static void removeShutdownHook(Thread hook) {
        if (hook == null || Thread.currentThread() == hook) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: nothing to remove
        }
    }

}
