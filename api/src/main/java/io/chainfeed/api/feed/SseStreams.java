package io.chainfeed.api.feed;

import io.chainfeed.api.readlog.InvalidEventIdException;
import io.chainfeed.api.readlog.LogPosition;
import io.chainfeed.api.readlog.ReadLog;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.api.selector.SelectorException;
import io.chainfeed.api.selector.TopicParser;
import io.chainfeed.api.support.settings.ApiProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The open SSE streams of this API instance: opens them (Servlet async, non-blocking
 * writes, no timeout), sends every stream a heartbeat comment on a fixed interval (which
 * also finds clients that went away: the write fails and the stream is cleaned up),
 * closes streams whose client has taken nothing for the stall timeout, and closes them
 * all on shutdown so clients reconnect elsewhere. A few writer threads serve every
 * stream; no thread is held per connection.
 *
 * <p>
 * Settings ({@code chainfeed.api.feed.*}): {@code heartbeat} (15s), {@code retry} (3s:
 * the reconnection delay sent to clients), {@code buffer-events} (256: events queued per
 * client before it is closed as too slow), {@code stall-timeout} (60s),
 * {@code writer-threads} (2), {@code response-buffer} (4KB: the container's output buffer
 * of each stream, held as long as the stream is open; a frame larger than it is written
 * straight through).
 */
@Component
public class SseStreams implements SmartLifecycle {

    private final ReadLog readLog;

    private final TopicParser topics;

    private final Duration heartbeat;

    private final Duration retry;

    private final int bufferEvents;

    private final Duration stallTimeout;

    private final int writerThreads;

    private final int responseBufferBytes;

    private final Set<SseConnection> connections = ConcurrentHashMap.newKeySet();

    private ExecutorService writers;

    private ScheduledExecutorService heartbeats;

    private volatile boolean running;

    SseStreams(ReadLog readLog, TopicParser topics, ApiProperties props, ObjectProvider<MeterRegistry> meters) {
        ApiProperties.Feed feed = props.feed();
        this.readLog = readLog;
        this.topics = topics;
        this.heartbeat = feed.heartbeat();
        this.retry = feed.retry();
        this.bufferEvents = feed.bufferEvents();
        this.stallTimeout = feed.stallTimeout();
        this.writerThreads = feed.writerThreads();
        this.responseBufferBytes = (int) feed.responseBuffer().toBytes();
        meters.ifAvailable(m -> Gauge.builder("chainfeed.feed.sse.connections", connections, Set::size)
            .description("open SSE streams")
            .register(m));
    }

    ReadLog readLog() {
        return readLog;
    }

    /**
     * Turns a client's request for a topic into an SSE stream ({@code text/event-stream},
     * headers that keep proxies from buffering or caching it), after checking what it
     * asks for: the topic and the position to resume at are checked before anything is
     * written. The subscription starts once the container is ready to write.
     * @param request the request (async supported)
     * @param response its response, not yet committed
     * @param topic the selector text ({@link TopicParser})
     * @param lastEventIdHeader the {@code Last-Event-ID} header, may be null; wins over
     * the parameter
     * @param lastEventIdParam the {@code lastEventId} query parameter (for clients that
     * cannot set headers), may be null; with neither the stream starts at the log's end
     * @throws SelectorException (400) if the topic is not a valid selector
     * @throws InvalidEventIdException (400) if the id is malformed or names a partition
     * the log does not have
     * @throws IOException if the response cannot be set up
     * @throws IllegalStateException if the streams are shut down
     */
    public void open(HttpServletRequest request, HttpServletResponse response, String topic, String lastEventIdHeader,
            String lastEventIdParam) throws IOException {
        Selector selector = topics.parse(topic);
        LogPosition from = readLog.resumePosition(lastEventIdHeader, lastEventIdParam);
        open(request, response, selector, from);
    }

    private void open(HttpServletRequest request, HttpServletResponse response, Selector selector, LogPosition from)
            throws IOException {
        if (!running) {
            throw new IllegalStateException("the SSE streams are shut down");
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-cache, no-transform");
        response.setHeader("X-Accel-Buffering", "no");
        // The container's output buffer is held as long as the stream lives: keep it
        // small.
        response.setBufferSize(responseBufferBytes);
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        ServletOutputStream out = async.getResponse().getOutputStream();
        SseConnection c = new SseConnection(this, async, out, writers, bufferEvents, from, selector);
        c.retry(retry.toMillis());
        connections.add(c);
        async.addListener(c);
        out.setWriteListener(c);
    }

    void forget(SseConnection c) {
        connections.remove(c);
    }

    /**
     * @return how many SSE streams are open on this instance
     */
    public int connections() {
        return connections.size();
    }

    private void beat() {
        long stall = stallTimeout.toNanos();
        for (SseConnection c : connections) {
            c.heartbeat(stall);
        }
    }

    @Override
    public void start() {
        AtomicInteger n = new AtomicInteger();
        // A lock-free hand-off queue: the log's tail hands every stream of a read to the
        // writers in one
        // burst (10,000 drains for 10,000 streams), where a locking queue's put and take
        // contend.
        writers = new ThreadPoolExecutor(writerThreads, writerThreads, 0, TimeUnit.MILLISECONDS,
                new LinkedTransferQueue<>(), r -> {
                    Thread t = new Thread(r, "sse-writer-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sse-heartbeat");
            t.setDaemon(true);
            return t;
        });
        heartbeats.scheduleWithFixedDelay(this::beat, heartbeat.toMillis(), heartbeat.toMillis(),
                TimeUnit.MILLISECONDS);
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        heartbeats.shutdownNow();
        for (SseConnection c : List.copyOf(connections)) {
            c.close();
        }
        writers.shutdown();
        try {
            writers.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return ReadLog.PHASE + 1;
    }

}
