package io.chainfeed.api.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.testsupport.PrometheusScrape;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * Mixed public traffic against one running api instance, all at once, for a bounded time
 * and number of requests (issue 25's load test; run by {@code bench/mixed-traffic.sh},
 * loopback only):
 * <ul>
 * <li><b>widget</b>: visitors (10,000 addresses, sent as {@code X-Forwarded-For} through
 * the trusted loopback) of 100 partner origins calling widget data (term cards, the
 * chain, a topic's list) with one partner key;</li>
 * <li><b>embed</b>: the same visitors loading embed pages;</li>
 * <li><b>search</b>: 200 searchers with varied queries (the glossary's term titles and
 * layer names);</li>
 * <li><b>feeds</b>: 2,000 feed readers polling Atom and JSON Feed of a topic with
 * {@code If-None-Match};</li>
 * <li><b>sse</b>: subscribers holding {@code /api/v1/feeds/stream} open;</li>
 * <li><b>abusive</b>: one address searching in a tight loop, which the per-client limit
 * must refuse (429) while nobody else is refused.</li>
 * </ul>
 * Each class is a set of closed-loop threads with a think time. Prints per class:
 * requests, rate, p50/p99/max latency (HdrHistogram), answers by status (2xx, 304, 429,
 * other) and failures; the api's CPU per 1,000 requests (/proc); the load average before
 * and after; and a last {@code RESULT} line. Arguments: {@code --name value} pairs, see
 * {@link #main}.
 */
public final class MixedTraffic {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> args;

    private final String api;

    private final HttpClient http;

    /**
     * One HTTP client per class ({@code --client-per-class true}) rather than one for all
     * (the default, which every figure in docs/benchmarks.md used). The JDK client serves
     * all its connections on one selector thread, so with one client an embed's answer
     * can wait behind the widget's 1,100 a second inside the load generator; five runs of
     * each on 2026-12-07 showed no difference beyond run-to-run noise.
     */
    private final boolean clientPerClass;

    private final Map<String, Stats> stats = new LinkedHashMap<>();

    private final AtomicLong total = new AtomicLong();

    private volatile boolean running = true;

    private MixedTraffic(Map<String, String> args) {
        this.args = args;
        this.api = arg("url", "http://127.0.0.1:8080");
        if (!api.matches("http://(127\\.0\\.0\\.1|localhost)(:\\d+)?")) {
            throw new IllegalArgumentException("only loopback targets: " + api);
        }
        this.http = newClient();
        this.clientPerClass = Boolean.parseBoolean(arg("client-per-class", "false"));
    }

    private static HttpClient newClient() {
        return HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    }

    /**
     * @param argv {@code --url} (http://127.0.0.1:8080), {@code --admin-key-file}
     * (.run/admin-key), {@code --api-pid} (.run/pids/api.pid's), {@code --seconds} (30),
     * {@code --max-requests} (2,000,000), {@code --visitors} (10000), {@code --origins}
     * (100), {@code --searchers} (200), {@code --readers} (2000), {@code --sse} (2000),
     * {@code --client-per-class} (false), and per class {@code --<class>-threads} /
     * {@code --<class>-think-ms}
     * @throws Exception on a setup failure (no api, no admin key)
     */
    public static void main(String[] argv) throws Exception {
        Map<String, String> a = new java.util.HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            a.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        new MixedTraffic(a).run();
    }

    private String arg(String name, String fallback) {
        return args.getOrDefault(name, fallback);
    }

    private int num(String name, int fallback) {
        return Integer.parseInt(arg(name, String.valueOf(fallback)));
    }

    private void run() throws Exception {
        long pid = Long.parseLong(arg("api-pid", Files.readString(Path.of(".run/pids/api.pid")).strip()));
        String adminKey = Files.readString(Path.of(arg("admin-key-file", ".run/admin-key"))).strip();
        int originCount = num("origins", 100);
        List<String> origins = new ArrayList<>();
        for (int i = 0; i < originCount; i++) {
            origins.add("https://partner-" + i + ".example");
        }
        String key = partnerKey(adminKey, origins);
        List<String> slugs = new ArrayList<>();
        List<String> queries = new ArrayList<>();
        for (JsonNode t : get("/api/v1/terms")) {
            slugs.add(t.path("slug").asText());
            queries.add(t.path("title").asText());
        }
        List<String> topics = new ArrayList<>(List.of("all"));
        for (JsonNode l : get("/api/v1/layers")) {
            topics.add("layer:" + l.path("id").asText());
            queries.add(l.path("name").asText() + " shortage");
        }
        int visitors = num("visitors", 10_000);
        int searchers = num("searchers", 200);
        int readers = num("readers", 2_000);
        // a reader's last ETag per feed, keyed by its address (one feed per reader)
        Map<String, String> etags = new ConcurrentHashMap<>();
        String enc = "&key=" + key;

        List<Thread> threads = new ArrayList<>();
        threads.addAll(workers("widget", 32, 20, r -> {
            int v = r.nextInt(visitors);
            String path = switch (r.nextInt(3)) {
                case 0 -> "/widget/v1/data/term/" + slugs.get(r.nextInt(slugs.size())) + "?x=1" + enc;
                case 1 -> "/widget/v1/data/chain?x=1" + enc;
                default -> "/widget/v1/data/feed?topic=" + url(topics.get(r.nextInt(topics.size()))) + enc;
            };
            return request(path).header("Origin", origins.get(v % origins.size()))
                .header("X-Forwarded-For", visitor(v));
        }));
        threads.addAll(workers("embed", 4, 50, r -> {
            int v = r.nextInt(visitors);
            return request("/embed/term/" + slugs.get(r.nextInt(slugs.size())) + "?x=1" + enc).header("X-Forwarded-For",
                    visitor(v));
        }));
        threads.addAll(
                workers("search", 8, 50, r -> request("/api/v1/search?q=" + url(queries.get(r.nextInt(queries.size()))))
                    .header("X-Forwarded-For", "198.19.1." + (r.nextInt(searchers) % 250))));
        threads.addAll(workers("feeds", 8, 100, r -> {
            int reader = r.nextInt(readers);
            String topic = topics.get(reader % topics.size());
            String path = (reader % 2 == 0 ? "/api/v1/feeds/atom" : "/api/v1/feeds/json") + "?topic=" + url(topic);
            String address = "198.19." + (2 + reader / 250) + "." + (reader % 250);
            HttpRequest.Builder b = request(path).header("X-Forwarded-For", address);
            String tag = etags.get(address);
            if (tag != null) {
                b.header("If-None-Match", tag);
            }
            return b;
        }, (req, resp) -> resp.headers()
            .firstValue("ETag")
            .ifPresent(tag -> etags.put(req.headers().firstValue("X-Forwarded-For").orElseThrow(), tag))));
        threads.addAll(workers("abusive", 1, 0,
                r -> request("/api/v1/search?q=memory").header("X-Forwarded-For", "203.0.113.66")));

        int sse = num("sse", 2_000);
        AtomicInteger sseOpen = new AtomicInteger();
        AtomicInteger sseFailed = new AtomicInteger();
        RawSseClients streams = sse == 0 ? null
                : new RawSseClients(URI.create(api + "/api/v1/feeds/stream?topic=all"), 2, new RawSseClients.Events() {
                    @Override
                    public void opened(int client) {
                        sseOpen.incrementAndGet();
                    }

                    @Override
                    public void ready(int client) {
                    }

                    @Override
                    public void read(int client, String dataLine, long nanos) {
                    }

                    @Override
                    public void closed(int client) {
                        sseOpen.decrementAndGet();
                    }

                    @Override
                    public void failed(int client, String why) {
                        sseFailed.incrementAndGet();
                    }
                });
        for (int i = 0; i < sse; i++) {
            streams.open();
            if (i % 200 == 199) {
                Thread.sleep(100); // connect pacing: 2,000 a second at most
            }
        }
        Map<String, Map<String, Double>> served0 = servedBuckets();
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        long cpu0 = SseLoad.cpuMillis(pid);
        long t0 = System.nanoTime();
        threads.forEach(Thread::start);
        long deadline = t0 + Duration.ofSeconds(num("seconds", 30)).toNanos();
        long maxRequests = Long.parseLong(arg("max-requests", "2000000"));
        while (System.nanoTime() < deadline && total.get() < maxRequests) {
            Thread.sleep(100);
        }
        running = false;
        for (Thread t : threads) {
            t.join(15_000);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long cpu = SseLoad.cpuMillis(pid) - cpu0;
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        int sseHeld = sseOpen.get();
        if (streams != null) {
            streams.close();
        }
        System.out.printf("%-8s %9s %8s %9s %9s %9s %8s %7s %7s %7s %7s%n", "class", "requests", "req/s", "p50 ms",
                "p99 ms", "max ms", "2xx", "304", "429", "other", "failed");
        long all = 0;
        StringBuilder result = new StringBuilder("RESULT name=mixed-traffic");
        for (Map.Entry<String, Stats> e : stats.entrySet()) {
            Stats s = e.getValue();
            long n = s.latency.getTotalCount();
            all += n + s.failed.sum();
            System.out.printf("%-8s %9d %8.1f %9.1f %9.1f %9.1f %8d %7d %7d %7d %7d%n", e.getKey(), n, n / seconds,
                    s.latency.getValueAtPercentile(50) / 1000.0, s.latency.getValueAtPercentile(99) / 1000.0,
                    s.latency.getMaxValue() / 1000.0, s.ok.sum(), s.notModified.sum(), s.limited.sum(), s.other.sum(),
                    s.failed.sum());
            result.append(String.format(" %s_p99_ms=%.1f %s_rps=%.1f %s_429=%d %s_errors=%d", e.getKey(),
                    s.latency.getValueAtPercentile(99) / 1000.0, e.getKey(), n / seconds, e.getKey(), s.limited.sum(),
                    e.getKey(), s.other.sum() + s.failed.sum()));
        }
        printServed(served0, servedBuckets());
        System.out.printf("sse: %d of %d streams held to the end, %d failed to open%n", sseHeld, sse, sseFailed.get());
        System.out.printf("%d requests in %.1f s (%.0f/s); api CPU %d ms: %.1f ms per 1,000 requests%n", all, seconds,
                all / seconds, cpu, cpu * 1000.0 / Math.max(1, all));
        System.out.println("load average before: " + loadBefore + "; after: " + loadAfter);
        result.append(String.format(" sse_held=%d cpu_ms_per_1000=%.1f seconds=%.1f", sseHeld,
                cpu * 1000.0 / Math.max(1, all), seconds));
        System.out.println(result);
        System.exit(0);
    }

    /**
     * The api's own {@code http.server.requests} SLO buckets (application.properties),
     * per load class: cumulative counts by upper bound ({@code le}, seconds, as
     * Prometheus prints it), summed over status and method. Empty when the api exposes no
     * buckets.
     */
    private Map<String, Map<String, Double>> servedBuckets() throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request("/actuator/prometheus").build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, Map<String, Double>> out = new TreeMap<>();
        for (PrometheusScrape.Sample sample : new PrometheusScrape("api", r.body())
            .samples("http_server_requests_seconds_bucket")) {
            String cls = classOf(sample.labels().getOrDefault("uri", ""));
            String le = sample.labels().get("le");
            if (cls != null && le != null) {
                out.computeIfAbsent(cls, k -> new TreeMap<>()).merge(le, sample.value(), Double::sum);
            }
        }
        return out;
    }

    /** The load class of a request's URI template (searches include the abusive loop). */
    private static String classOf(String uri) {
        if (uri.startsWith("/widget/v1/data/")) {
            return "widget";
        }
        if (uri.startsWith("/embed/")) {
            return "embed";
        }
        if (uri.equals("/api/v1/search")) {
            return "search";
        }
        if (uri.startsWith("/api/v1/feeds/atom") || uri.startsWith("/api/v1/feeds/json")) {
            return "feeds";
        }
        return null;
    }

    /**
     * Prints, per class, what the api itself measured over the run (from the request's
     * start in Spring MVC to its end, so without the kernel's and the load generator's
     * queues): the requests and the share answered within 50 and 150 ms, and the first
     * bucket bound that holds 99% of them.
     */
    private static void printServed(Map<String, Map<String, Double>> before, Map<String, Map<String, Double>> after) {
        if (after.isEmpty()) {
            System.out.println("served: the api exposes no http.server.requests buckets");
            return;
        }
        System.out.printf("%-8s %9s %9s %9s %16s%n", "served", "requests", "<=50 ms", "<=150 ms", "p99 within ms");
        for (Map.Entry<String, Map<String, Double>> e : after.entrySet()) {
            Map<String, Double> b = before.getOrDefault(e.getKey(), Map.of());
            Map<Double, Double> diff = new TreeMap<>();
            e.getValue()
                .forEach((le, v) -> diff.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
                        v - b.getOrDefault(le, 0.0)));
            double n = diff.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
            if (n <= 0) {
                continue;
            }
            double p99 = diff.entrySet()
                .stream()
                .filter(x -> x.getValue() >= 0.99 * n)
                .mapToDouble(Map.Entry::getKey)
                .findFirst()
                .orElse(Double.POSITIVE_INFINITY);
            System.out.printf("%-8s %9.0f %8.2f%% %8.2f%% %16s%n", e.getKey(), n,
                    100 * diff.getOrDefault(0.05, Double.NaN) / n, 100 * diff.getOrDefault(0.15, Double.NaN) / n,
                    Double.isInfinite(p99) ? "over the last" : String.format("%.0f", p99 * 1000));
        }
    }

    private static String visitor(int v) {
        // 198.18.0.0/15 (RFC 2544 benchmarking): never a real client
        return "198.18." + (v / 250) + "." + (v % 250 + 1);
    }

    private interface Shape {

        HttpRequest.Builder next(ThreadLocalRandom r);

    }

    private interface Seen {

        void answered(HttpRequest request, HttpResponse<byte[]> response);

    }

    private List<Thread> workers(String name, int defaultThreads, int defaultThink, Shape shape) {
        return workers(name, defaultThreads, defaultThink, shape, null);
    }

    private List<Thread> workers(String name, int defaultThreads, int defaultThink, Shape shape, Seen seen) {
        int n = num(name + "-threads", defaultThreads);
        int think = num(name + "-think-ms", defaultThink);
        Stats s = stats.computeIfAbsent(name, k -> new Stats());
        HttpClient client = clientPerClass ? newClient() : http;
        List<Thread> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                while (running) {
                    HttpRequest req = shape.next(r).build();
                    long start = System.nanoTime();
                    try {
                        HttpResponse<byte[]> resp = client.send(req, HttpResponse.BodyHandlers.ofByteArray());
                        s.latency.recordValue(Math.max(1, (System.nanoTime() - start) / 1_000));
                        int code = resp.statusCode();
                        if (seen != null) {
                            seen.answered(req, resp);
                        }
                        (code / 100 == 2 ? s.ok : code == 304 ? s.notModified : code == 429 ? s.limited : s.other)
                            .increment();
                        if (code / 100 != 2 && code != 304 && code != 429 && s.other.sum() <= 3) {
                            System.err.println(name + ": " + code + " " + req.uri() + " "
                                    + new String(resp.body(), StandardCharsets.UTF_8));
                        }
                    }
                    catch (IOException e) {
                        s.failed.increment();
                    }
                    catch (InterruptedException e) {
                        return;
                    }
                    total.incrementAndGet();
                    if (think > 0) {
                        try {
                            Thread.sleep(r.nextInt(think, 2 * think + 1) / 2 + think / 2);
                        }
                        catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }, "load-" + name + "-" + i);
            t.setDaemon(true);
            out.add(t);
        }
        return out;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(10));
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + " answered " + r.statusCode() + ": " + r.body());
        }
        JsonNode body = JSON.readTree(r.body());
        return body.isArray() ? body : body.path(body.has("terms") ? "terms" : body.has("layers") ? "layers" : "items");
    }

    private String partnerKey(String adminKey, List<String> origins) throws IOException, InterruptedException {
        String body = JSON
            .writeValueAsString(Map.of("kind", "PARTNER", "label", "mixed-traffic load", "allowedOrigins", origins));
        HttpResponse<String> r = http.send(request("/api/v1/admin/keys").header("Authorization", "Bearer " + adminKey)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("could not issue a partner key: " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body()).path("token").asText();
    }

    private static String url(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static final class Stats {

        final ConcurrentHistogram latency = new ConcurrentHistogram(60_000_000L, 3);

        final LongAdder ok = new LongAdder();

        final LongAdder notModified = new LongAdder();

        final LongAdder limited = new LongAdder();

        final LongAdder other = new LongAdder();

        final LongAdder failed = new LongAdder();

    }

}
