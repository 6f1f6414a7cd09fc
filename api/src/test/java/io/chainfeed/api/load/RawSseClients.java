package io.chainfeed.api.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Many SSE clients on a few threads, for the load harness: plain non-blocking sockets,
 * one {@link Selector} per thread, HTTP/1.1 parsed by hand (status line, headers, chunked
 * transfer coding per RFC 9112 section 7.1, or a body delimited by the connection's
 * close) and SSE lines split as the WHATWG HTML "Server-sent events" section says (LF,
 * CRLF or CR end a line). Far cheaper per event than a general HTTP client, so the
 * harness, which shares the machine with the API, takes less of the CPU whose latency it
 * measures. The receipt time of an event is taken when the bytes that end its
 * {@code data:} line are read from the socket.
 */
final class RawSseClients implements AutoCloseable {

    /** What the clients report; called on the IO threads. */
    interface Events {

        /**
         * @param client the client whose stream answered 200
         */
        void opened(int client);

        /**
         * @param client the client that got its {@code ready} event
         */
        void ready(int client);

        /**
         * @param client the client
         * @param dataLine the {@code data:} line of a {@code read} event (without the
         * line end)
         * @param nanos {@link System#nanoTime()} when it was read
         */
        void read(int client, String dataLine, long nanos);

        /**
         * @param client a stream that ended after it had opened
         */
        void closed(int client);

        /**
         * @param client a stream that did not open
         * @param why the reason
         */
        void failed(int client, String why);

    }

    private final InetSocketAddress address;

    private final byte[] request;

    private final Events events;

    private final List<Loop> loops = new ArrayList<>();

    private final List<Conn> conns = new ArrayList<>();

    /**
     * @param uri the stream URL (http, loopback)
     * @param threads IO threads
     * @param events where results go
     * @throws IOException if a selector cannot be opened
     */
    RawSseClients(URI uri, int threads, Events events) throws IOException {
        this.address = new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
        String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        this.request = ("GET " + target + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + address.getPort()
                + "\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
        this.events = events;
        for (int i = 0; i < threads; i++) {
            Loop loop = new Loop();
            loops.add(loop);
            Thread t = new Thread(loop, "sse-client-" + i);
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * Starts one more client (connects without waiting).
     * @return its number
     */
    int open() {
        int index = conns.size();
        Conn c = new Conn(index);
        conns.add(c);
        try {
            SocketChannel ch = SocketChannel.open();
            ch.configureBlocking(false);
            c.ch = ch;
            ch.connect(address);
            Loop loop = loops.get(index % loops.size());
            loop.pending.add(c);
            loop.selector.wakeup();
        }
        catch (IOException e) {
            events.failed(index, e.toString());
        }
        return index;
    }

    /** Closes every client's connection (the server sees them go). */
    @Override
    public void close() {
        for (Conn c : conns) {
            c.dropped = true;
            try {
                if (c.ch != null) {
                    c.ch.close();
                }
            }
            catch (IOException ignored) {
                // closing anyway
            }
        }
        for (Loop loop : loops) {
            loop.stopped = true;
            loop.selector.wakeup();
        }
    }

    private final class Loop implements Runnable {

        final Selector selector;

        final Queue<Conn> pending = new ConcurrentLinkedQueue<>();

        final ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);

        final byte[] bytes = new byte[64 * 1024];

        volatile boolean stopped;

        Loop() throws IOException {
            selector = Selector.open();
        }

        @Override
        public void run() {
            try {
                while (!stopped) {
                    selector.select(100);
                    for (Conn c; (c = pending.poll()) != null;) {
                        try {
                            c.ch.register(selector, SelectionKey.OP_CONNECT, c);
                        }
                        catch (IOException | RuntimeException e) {
                            fail(c, e.toString());
                        }
                    }
                    long now = System.nanoTime();
                    for (SelectionKey key : selector.selectedKeys()) {
                        Conn c = (Conn) key.attachment();
                        try {
                            if (key.isConnectable()) {
                                c.ch.finishConnect();
                                ByteBuffer req = ByteBuffer.wrap(request);
                                while (req.hasRemaining()) {
                                    // a few hundred bytes into an empty socket buffer
                                    c.ch.write(req);
                                }
                                key.interestOps(SelectionKey.OP_READ);
                            }
                            else if (key.isReadable()) {
                                buffer.clear();
                                int n = c.ch.read(buffer);
                                if (n < 0) {
                                    end(c, "connection closed before the response");
                                    key.cancel();
                                    c.ch.close();
                                }
                                else {
                                    buffer.flip();
                                    buffer.get(bytes, 0, n);
                                    c.feed(bytes, n, now);
                                }
                            }
                        }
                        catch (IOException | RuntimeException e) {
                            key.cancel();
                            end(c, e.toString());
                            try {
                                c.ch.close();
                            }
                            catch (IOException ignored) {
                                // already failing
                            }
                        }
                    }
                    selector.selectedKeys().clear();
                }
                selector.close();
            }
            catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

    }

    private void fail(Conn c, String why) {
        if (!c.done) {
            c.done = true;
            events.failed(c.index, why);
        }
    }

    private void end(Conn c, String why) {
        if (c.done || c.dropped) {
            return;
        }
        if (c.opened) {
            c.done = true;
            events.closed(c.index);
        }
        else {
            fail(c, why);
        }
    }

    /**
     * One client: the HTTP and SSE parser state of its connection; touched by its loop's
     * thread only.
     */
    private final class Conn {

        final int index;

        SocketChannel ch;

        volatile boolean dropped;

        boolean done;

        boolean opened;

        boolean inBody;

        boolean chunked;

        int status;

        /**
         * chunked coding: -1 reading a size line, &gt; 0 data bytes left, 0 after data
         * (its CRLF)
         */
        long chunkLeft = -1;

        final StringBuilder sizeLine = new StringBuilder();

        byte[] line = new byte[512];

        int lineLength;

        boolean lastWasCr;

        String event;

        Conn(int index) {
            this.index = index;
        }

        void feed(byte[] b, int n, long now) {
            int i = 0;
            while (i < n && !done) {
                if (!inBody) {
                    i = headerBytes(b, i, n);
                }
                else if (!chunked) {
                    body(b, i, n, now);
                    i = n;
                }
                else if (chunkLeft < 0) {
                    char ch = (char) b[i++];
                    if (ch == '\n') {
                        String size = sizeLine.toString().strip();
                        int semi = size.indexOf(';');
                        chunkLeft = Long.parseLong(semi < 0 ? size : size.substring(0, semi), 16);
                        sizeLine.setLength(0);
                        if (chunkLeft == 0) {
                            end(this, "stream ended");
                            return;
                        }
                    }
                    else {
                        sizeLine.append(ch);
                    }
                }
                else if (chunkLeft > 0) {
                    int take = (int) Math.min(chunkLeft, n - i);
                    body(b, i, i + take, now);
                    i += take;
                    chunkLeft -= take;
                }
                else {
                    if (b[i++] == '\n') { // the CRLF after a chunk's data
                        chunkLeft = -1;
                    }
                }
            }
        }

        private int headerBytes(byte[] b, int i, int n) {
            while (i < n) {
                byte x = b[i++];
                if (x == '\n') {
                    String h = new String(line, 0, lineLength, StandardCharsets.ISO_8859_1).strip();
                    lineLength = 0;
                    if (status == 0) {
                        String[] parts = h.split(" ", 3);
                        status = parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
                    }
                    else if (h.isEmpty()) {
                        if (status != 200) {
                            fail(this, "HTTP " + status);
                            return n;
                        }
                        inBody = true;
                        opened = true;
                        events.opened(index);
                        return i;
                    }
                    else if (h.regionMatches(true, 0, "transfer-encoding:", 0, 18)
                            && h.toLowerCase(java.util.Locale.ROOT).contains("chunked")) {
                        chunked = true;
                    }
                }
                else {
                    append(x);
                }
            }
            return i;
        }

        private void append(byte x) {
            if (lineLength == line.length) {
                line = java.util.Arrays.copyOf(line, line.length * 2);
            }
            line[lineLength++] = x;
        }

        private void body(byte[] b, int from, int to, long now) {
            for (int i = from; i < to; i++) {
                byte x = b[i];
                if (x == '\n' && lastWasCr) {
                    lastWasCr = false;
                    continue; // the LF of a CRLF
                }
                lastWasCr = x == '\r';
                if (x == '\n' || x == '\r') {
                    sseLine(now);
                    lineLength = 0;
                }
                else {
                    append(x);
                }
            }
        }

        private void sseLine(long now) {
            if (lineLength == 0) {
                event = null;
            }
            else if (startsWith("event: ")) {
                event = new String(line, 7, lineLength - 7, StandardCharsets.UTF_8);
            }
            else if (startsWith("data: ")) {
                if ("ready".equals(event)) {
                    events.ready(index);
                }
                else if ("read".equals(event)) {
                    events.read(index, new String(line, 6, lineLength - 6, StandardCharsets.UTF_8), now);
                }
            }
        }

        private boolean startsWith(String prefix) {
            if (lineLength < prefix.length()) {
                return false;
            }
            for (int k = 0; k < prefix.length(); k++) {
                if (line[k] != prefix.charAt(k)) {
                    return false;
                }
            }
            return true;
        }

    }

}
