package io.chainfeed.api.webhook;

import io.chainfeed.api.selector.Selector;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A log of read records kept in memory that honours the {@link ReadSource} contract the
 * feed's ReadLog gives: records after the position, per partition in order, the selector
 * applied (deletions always pass), the position after each record including skipped ones,
 * a replay paced by the listener's capacity, and the subscription ended when the listener
 * refuses a record. For the engine's unit tests; the integration test runs the engine on
 * the real ReadLog over Kafka.
 */
final class InMemoryReadSource implements ReadSource {

    private final List<WebhookRead> log = new ArrayList<>();

    private final Map<Integer, Long> nextOffset = new TreeMap<>();

    final AtomicInteger opened = new AtomicInteger();

    /**
     * Wait while the listener is full (a replay) rather than offer and be refused (the
     * live tail).
     */
    volatile boolean paced = true;

    /** Appends a read to a partition; returns the record. */
    synchronized WebhookRead append(int partition, String id, long version, String layer) {
        long offset = nextOffset.merge(partition, 1L, Long::sum) - 1;
        Read read = Read.newBuilder()
            .setId(id)
            .setKind(ReadKind.TERM)
            .setSlug(id.substring(id.indexOf(':') + 1))
            .setTitle("Title of " + id)
            .setSummary("s")
            .setDisclaimer("research, not advice")
            .setVersion(version)
            .setUpdatedAt(Instant.parse("2026-03-01T00:00:00Z"))
            .setLayers(List
                .of(io.chainfeed.avro.LayerTag.newBuilder().setId(layer).setName(layer).setConfidence(1).build()))
            .build();
        WebhookRead r = new WebhookRead(partition, offset, id, read, 1_772_323_200_000L + offset,
                ("{\"id\":\"" + id + "\",\"version\":" + version + "}").getBytes(StandardCharsets.UTF_8));
        log.add(r);
        notifyAll();
        return r;
    }

    /**
     * @return the end of each partition
     */
    synchronized Map<Integer, Long> end() {
        return new TreeMap<>(nextOffset);
    }

    @Override
    public AutoCloseable subscribe(Map<Integer, Long> from, Selector selector, Listener listener) {
        opened.incrementAndGet();
        TreeMap<Integer, Long> next = new TreeMap<>(from);
        Thread t = new Thread(() -> {
            int i = 0;
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    WebhookRead r;
                    synchronized (this) {
                        while (i >= log.size()) {
                            wait();
                        }
                        r = log.get(i);
                    }
                    if (r.offset() < next.getOrDefault(r.partition(), 0L)) {
                        i++;
                        continue;
                    }
                    next.put(r.partition(), r.offset() + 1);
                    i++;
                    if (!r.deleted() && !selector.matches(r.read())) {
                        continue;
                    }
                    while (paced && listener.capacity() == 0) {
                        Thread.sleep(5);
                    }
                    if (!listener.onRead(r, new TreeMap<>(next))) {
                        listener.onClosed(true);
                        return;
                    }
                }
            }
            catch (InterruptedException e) {
                // closed
            }
        }, "in-memory-read-source");
        t.setDaemon(true);
        t.start();
        return t::interrupt;
    }

}
