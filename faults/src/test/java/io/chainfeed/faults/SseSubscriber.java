package io.chainfeed.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An SSE client of {@code GET /api/v1/feeds/stream} that behaves as a browser's
 * {@code EventSource}: it keeps the last event id it saw and, when the stream ends or the
 * connection fails (the api was killed), reconnects with {@code Last-Event-ID}, waiting
 * the server's {@code retry:} hint (or 1 s) between attempts. Every {@code read} event's
 * id is recorded, with repeats, for the {@link Ledger}.
 */
public final class SseSubscriber implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SseSubscriber.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI stream;

    private final String name;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<String> received = new CopyOnWriteArrayList<>();

    private final AtomicInteger connections = new AtomicInteger();

    private final Thread thread;

    private volatile String lastEventId;

    private volatile boolean ready;

    private volatile long retryMillis = 1000;

    private volatile boolean closed;

    private volatile InputStream body;

    /**
     * Connects (on its own thread) and keeps reconnecting until closed.
     * @param api the api's base URI
     * @param topic the topic selector, e.g. {@code kind:signal}
     * @param name a name for the log
     */
    public SseSubscriber(URI api, String topic, String name) {
        this.stream = api.resolve("/api/v1/feeds/stream?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8));
        this.name = name;
        this.thread = new Thread(this::run, "sse-" + name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        while (!closed) {
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(stream).header("Accept", "text/event-stream");
                if (lastEventId != null) {
                    request.header("Last-Event-ID", lastEventId);
                }
                HttpResponse<InputStream> r = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
                body = r.body();
                if (r.statusCode() != 200) {
                    r.body().close();
                    throw new IllegalStateException("HTTP " + r.statusCode());
                }
                connections.incrementAndGet();
                read(new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8)));
            }
            catch (Exception e) {
                if (e instanceof InterruptedException) {
                    return;
                }
                LOG.debug("{}: stream failed: {}", name, e.toString());
            }
            if (!closed) {
                try {
                    // EventSource's reconnection delay, not a wait for state
                    Thread.sleep(retryMillis);
                }
                catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void read(BufferedReader in) throws java.io.IOException {
        String event = "message";
        String id = null;
        StringBuilder data = new StringBuilder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isEmpty()) {
                if (id != null) {
                    lastEventId = id;
                }
                if (event.equals("ready")) {
                    ready = true;
                }
                else if (event.equals("read") && data.length() > 0) {
                    received.add(JSON.readTree(data.toString()).path("id").asText());
                }
                event = "message";
                id = null;
                data.setLength(0);
            }
            else if (line.startsWith("id:")) {
                id = line.substring(3).strip();
            }
            else if (line.startsWith("event:")) {
                event = line.substring(6).strip();
            }
            else if (line.startsWith("data:")) {
                data.append(line.substring(5).strip());
            }
            else if (line.startsWith("retry:")) {
                retryMillis = Long.parseLong(line.substring(6).strip());
            }
        }
    }

    /** Whether the first connection was made and the server said {@code ready}. */
    public boolean ready() {
        return ready;
    }

    /** How many times a stream was opened (1 + reconnections). */
    public int connections() {
        return connections.get();
    }

    /** The read ids of every {@code read} event, with repeats. */
    public List<String> received() {
        return List.copyOf(received);
    }

    /** {@link #received()} counted per id. */
    public Map<String, Integer> counts() {
        return Ledger.counts(received);
    }

    /** The name given at construction. */
    public String name() {
        return name;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        InputStream b = body;
        if (b != null) {
            try {
                b.close();
            }
            catch (java.io.IOException e) {
                // closing anyway
            }
        }
    }

}
