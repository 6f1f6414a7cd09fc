package io.chainfeed.api.load;

import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Source;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Load harness for {@code GET /api/v1/feeds/stream} (not a test: run by hand against a
 * running API, see README "SSE load benchmark"). It opens N concurrent SSE subscribers
 * (HTTP/1.1, one connection each, no thread per connection: by default
 * {@link RawSseClients}, plain non-blocking sockets on two threads; with
 * {@code --client jdk} java.net.http parsing line by line, which costs the shared CPU
 * about twice as much per event), waits until every one has its {@code ready} event,
 * measures the API's heap after a full GC ({@code jcmd}), publishes M reads straight to
 * {@code chainfeed.reads.v1} (plain producer, acks=all) at a fixed rate, and records, for
 * every subscriber and read, the time from the broker's acknowledgement (the record is
 * committed and readable) to the subscriber's receipt. Then it closes every subscriber
 * and checks the API forgets them.
 *
 * <p>
 * Arguments (all optional):
 * {@code --url http://127.0.0.1:8080 --bootstrap 127.0.0.1:19092
 * --subscribers 10000 --connect-rate 1000 --reads 60 --rate 2 --topic all --api-pid <pid>
 * --heartbeat-seconds 15 --client raw|jdk --client-threads 2}. Without {@code --api-pid}
 * the API's pid is looked up with {@code jcmd -l}.
 */
public final class SseLoad {

    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

    private final Map<String, String> args;

    private final HttpClient client;

    private final AtomicInteger ready = new AtomicInteger();

    private final AtomicInteger open = new AtomicInteger();

    private final AtomicInteger failed = new AtomicInteger();

    private final AtomicInteger duplicates = new AtomicInteger();

    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();

    private final Map<String, Long> ackedAt = new ConcurrentHashMap<>();

    /** Per read: when its last subscriber got it (System.nanoTime). */
    private final Map<String, Long> slowest = new ConcurrentHashMap<>();

    private long[] latencies;

    private final AtomicInteger latencyCount = new AtomicInteger();

    private final AtomicLong unknown = new AtomicLong();

    private final List<Subscriber> subscribers = new ArrayList<>();

    private final String run = Long.toString(System.currentTimeMillis(), 36);

    private SseLoad(Map<String, String> args) {
        this.args = args;
        this.client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(2))
            .connectTimeout(Duration.ofSeconds(30))
            .build();
    }

    /**
     * @param argv see the class comment
     */
    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            args.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        new SseLoad(args).run();
        System.exit(0);
    }

    private String arg(String name, String def) {
        return args.getOrDefault(name, def);
    }

    private void run() throws Exception {
        String url = arg("url", "http://127.0.0.1:8080");
        String bootstrap = arg("bootstrap", "127.0.0.1:19092");
        int n = Integer.parseInt(arg("subscribers", "10000"));
        int connectRate = Integer.parseInt(arg("connect-rate", "1000"));
        int reads = Integer.parseInt(arg("reads", "60"));
        double rate = Double.parseDouble(arg("rate", "2"));
        String topic = arg("topic", "all");
        int heartbeat = Integer.parseInt(arg("heartbeat-seconds", "15"));
        long pid = args.containsKey("api-pid") ? Long.parseLong(args.get("api-pid")) : findApiPid();
        latencies = new long[n * reads];

        System.out.printf("API pid %d; before: %s%n", pid, heap(pid));
        URI stream = URI.create(url + "/api/v1/feeds/stream?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8));
        String clientKind = arg("client", "raw");
        RawSseClients raw = null;
        if (clientKind.equals("raw")) {
            raw = new RawSseClients(stream, Integer.parseInt(arg("client-threads", "2")), new RawEvents(n));
        }
        else if (!clientKind.equals("jdk")) {
            throw new IllegalArgumentException("--client raw|jdk");
        }
        System.out.printf("client: %s%n", clientKind.equals("raw")
                ? "raw (non-blocking sockets, " + arg("client-threads", "2") + " threads)" : "jdk (java.net.http)");
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (raw != null) {
                raw.open();
            }
            else {
                Subscriber s = new Subscriber();
                subscribers.add(s);
                HttpRequest req = HttpRequest.newBuilder(stream).header("Accept", "text/event-stream").build();
                client.sendAsync(req, HttpResponse.BodyHandlers.fromLineSubscriber(s)).whenComplete((r, e) -> {
                    if (e != null || r.statusCode() != 200) {
                        failed(e != null ? String.valueOf(e.getCause() != null ? e.getCause() : e)
                                : "HTTP " + r.statusCode());
                    }
                });
            }
            long due = t0 + (long) ((i + 1) * 1e9 / connectRate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (ready.get() + failed.get() < n && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        System.out.printf("subscribers ready: %d of %d (failed %d) in %.1f s%n", ready.get(), n, failed.get(),
                (System.nanoTime() - t0) / 1e9);
        failures.forEach((why, count) -> System.out.printf("  failed: %d x %s%n", count.get(), why));
        String held = heap(pid);
        System.out.printf("API with %d open streams: %s%n", open.get(), held);

        long apiCpu0 = cpuMillis(pid);
        long ownCpu0 = cpuMillis(ProcessHandle.current().pid());
        publish(bootstrap, reads, rate);
        long expected = (long) ready.get() * reads;
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (latencyCount.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        System.out.printf("CPU while publishing and delivering: API %d ms (%d ms per read), harness %d ms%n",
                cpuMillis(pid) - apiCpu0, (cpuMillis(pid) - apiCpu0) / Math.max(1, reads),
                cpuMillis(ProcessHandle.current().pid()) - ownCpu0);
        int count = Math.min(latencyCount.get(), latencies.length);
        long[] l = Arrays.copyOf(latencies, count);
        Arrays.sort(l);
        System.out.printf("deliveries: %d of %d expected (duplicates %d, unknown ids %d)%n", count, expected,
                duplicates.get(), unknown.get());
        if (count > 0) {
            System.out.printf("latency from broker ack to receipt, ms: p50 %d  p90 %d  p99 %d  p99.9 %d  max %d%n",
                    pct(l, 50), pct(l, 90), pct(l, 99), pct(l, 99.9), l[count - 1]);
        }
        long[] spans = slowest.entrySet()
            .stream()
            .filter(e -> ackedAt.containsKey(e.getKey()))
            .mapToLong(e -> (e.getValue() - ackedAt.get(e.getKey())) / 1_000_000)
            .sorted()
            .toArray();
        if (spans.length > 0) {
            System.out.printf("per read, ack to its last subscriber, ms: min %d  median %d  max %d  (all: %s)%n",
                    spans[0], spans[spans.length / 2], spans[spans.length - 1], Arrays.toString(spans));
        }
        System.out.printf("streams still open after publishing: %d (closed by the server: %d)%n", open.get(),
                n - failed.get() - open.get());
        System.out.printf("API after publishing: %s%n", heap(pid));

        subscribers.forEach(Subscriber::cancel);
        if (raw != null) {
            raw.close();
        }
        // gone clients are found within two heartbeats
        Thread.sleep(TimeUnit.SECONDS.toMillis(2L * heartbeat + 3L));
        System.out.printf("API %d s after every client left: %s%n", 2 * heartbeat + 3, heap(pid));
    }

    private void failed(String why) {
        failed.incrementAndGet();
        failures.computeIfAbsent(why, k -> new AtomicInteger()).incrementAndGet();
    }

    /**
     * Times a {@code read} event's {@code data:} line against the publisher's ack; counts
     * duplicates.
     */
    private void received(Map<String, Boolean> seen, String dataLine, long now) {
        Matcher m = ID.matcher(dataLine);
        if (!m.find()) {
            unknown.incrementAndGet();
            return;
        }
        String id = m.group(1);
        Long acked = ackedAt.get(id);
        if (seen.put(id, Boolean.TRUE) != null) {
            duplicates.incrementAndGet();
        }
        else if (acked == null) {
            // received before the ack callback ran: count it as zero
            record(0);
        }
        else {
            record(Math.max(0, (now - acked) / 1_000_000));
        }
        slowest.merge(id, now, Math::max);
    }

    private void record(long ms) {
        int i = latencyCount.getAndIncrement();
        if (i < latencies.length) {
            latencies[i] = ms;
        }
    }

    /**
     * The raw clients' reports: per client, what it has seen (each client on one IO
     * thread).
     */
    private final class RawEvents implements RawSseClients.Events {

        private final Map<String, Boolean>[] seen;

        private final boolean[] counted;

        @SuppressWarnings("unchecked")
        RawEvents(int n) {
            seen = new Map[n];
            counted = new boolean[n];
        }

        @Override
        public void opened(int client) {
            seen[client] = new HashMap<>();
            open.incrementAndGet();
        }

        @Override
        public void ready(int client) {
            if (!counted[client]) {
                counted[client] = true;
                ready.incrementAndGet();
            }
        }

        @Override
        public void read(int client, String dataLine, long nanos) {
            received(seen[client], dataLine, nanos);
        }

        @Override
        public void closed(int client) {
            open.decrementAndGet();
        }

        @Override
        public void failed(int client, String why) {
            SseLoad.this.failed(why);
        }

    }

    private static long pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private void publish(String bootstrap, int reads, double rate) throws Exception {
        AvroSerde<Read> serde = AvroSerde.of(Read.class);
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
                new ByteArraySerializer())) {
            long t0 = System.nanoTime();
            for (int i = 0; i < reads; i++) {
                String id = "signal:load-" + run + "-" + i;
                Read read = Read.newBuilder()
                    .setId(id)
                    .setKind(ReadKind.SIGNAL)
                    .setSlug("load-" + run + "-" + i)
                    .setTitle("Load test read " + i)
                    .setSummary("A synthetic read published by the SSE load harness.")
                    .setLayers(List.of(new LayerTag("memory", "Memory", 1.0, true, List.of())))
                    .setSources(List.of(new Source("chainfeed SSE load harness", "https://example.org/load")))
                    .setDisclaimer("Research, not advice.")
                    .setVersion(1)
                    .setUpdatedAt(Instant.now())
                    .build();
                producer.send(new ProducerRecord<>(Topics.READS, id, serde.serialize(Topics.READS, read)), (md, e) -> {
                    if (e == null) {
                        ackedAt.put(id, System.nanoTime());
                    }
                    else {
                        System.err.println("publish failed: " + e);
                    }
                });
                long due = t0 + (long) ((i + 1) * 1e9 / rate);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
            }
            producer.flush();
        }
    }

    /**
     * One SSE client: counts {@code ready}, times {@code read} events against the
     * publisher's ack.
     */
    private final class Subscriber implements Flow.Subscriber<String> {

        private final Map<String, Boolean> seen = new HashMap<>();

        private Flow.Subscription subscription;

        private String event;

        private boolean counted;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            open.incrementAndGet();
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String line) {
            long now = System.nanoTime();
            if (line.startsWith("event: ")) {
                event = line.substring(7);
            }
            else if (line.startsWith("data: ")) {
                if ("ready".equals(event) && !counted) {
                    counted = true;
                    ready.incrementAndGet();
                }
                else if ("read".equals(event)) {
                    received(seen, line, now);
                }
            }
            else if (line.isEmpty()) {
                event = null;
            }
        }

        @Override
        public void onError(Throwable t) {
            open.decrementAndGet();
        }

        @Override
        public void onComplete() {
            open.decrementAndGet();
        }

        void cancel() {
            if (subscription != null) {
                subscription.cancel();
            }
        }

    }

    /**
     * @return heap used after a full GC, committed heap, RSS and thread count of the API
     * process
     */
    private static String heap(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        String info = jcmd(pid, "GC.heap_info");
        long used = 0;
        long total = 0;
        Matcher m = Pattern
            .compile("(?m)^\\s*(def new generation|tenured generation|garbage-first heap|PSYoungGen|ParOldGen)"
                    + "\\s+total (\\d+)K, used (\\d+)K")
            .matcher(info);
        while (m.find()) {
            total += Long.parseLong(m.group(2));
            used += Long.parseLong(m.group(3));
        }
        String status = Files.readString(Path.of("/proc/" + pid + "/status"));
        return String.format("heap used %d MB (committed %d MB), RSS %s, threads %s", used / 1024, total / 1024,
                field(status, "VmRSS"), field(status, "Threads"));
    }

    /**
     * @return user + system CPU time of a process so far, from /proc (Linux), in
     * milliseconds
     */
    static long cpuMillis(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // utime, stime (fields 14 and 15)
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return ticks * 10; // USER_HZ is 100 on Linux
    }

    private static String field(String status, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + ":\\s*(.+)$").matcher(status);
        return m.find() ? m.group(1).trim() : "?";
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    private static long findApiPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("jcmd", "-l").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        for (String line : out.split("\n")) {
            if (line.contains("chainfeed-api") && line.contains("exec.jar")
                    || line.contains("io.chainfeed.api.ApiApplication")) {
                return Long.parseLong(line.substring(0, line.indexOf(' ')));
            }
        }
        throw new IllegalStateException("no API process found by jcmd -l; pass --api-pid\n" + out);
    }

}
