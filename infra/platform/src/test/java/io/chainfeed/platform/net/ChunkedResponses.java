package io.chainfeed.platform.net;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Test support for the services' outbound HTTP clients (feed fetcher, webhook sender): a
 * loopback {@link com.sun.net.httpserver.HttpServer} answer that is larger than any
 * client limit and has no {@code Content-Length}, so the client can only find the limit
 * while reading. Shared through this module's test jar.
 */
public final class ChunkedResponses {

    /** Size of one chunk written, bytes. */
    public static final int CHUNK_BYTES = 64 * 1024;

    private ChunkedResponses() {
    }

    /**
     * Answers 200 with {@code chunks} chunks of {@link #CHUNK_BYTES} zero bytes, chunked
     * (no {@code Content-Length}); a client that hangs up at its limit is expected and
     * not an error.
     * @param exchange the exchange to answer
     * @param chunks how many chunks at most
     * @throws IOException when the status line cannot be sent
     */
    public static void streamUntilHungUp(HttpExchange exchange, int chunks) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            byte[] chunk = new byte[CHUNK_BYTES];
            for (int i = 0; i < chunks; i++) {
                out.write(chunk);
            }
        }
        catch (IOException e) {
            // the client hung up at its limit: expected
        }
    }

}
