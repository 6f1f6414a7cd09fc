package io.chainfeed.api.support.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.api.support.settings.ApiProperties;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.stereotype.Component;

/**
 * Warms the JIT before the api reports ready: it sends the public's own requests to
 * itself over loopback (searches for every glossary term's title and for each layer's
 * shortage, suggestions, the term cards, the chain, the layers, the first Atom and JSON
 * Feed page of each layer, the widget's data and embed pages as visitors without a key
 * see them) for {@code chainfeed.api.warmup.duration} or {@code .requests}, whichever
 * comes first, on {@code .threads} threads, the index's calls on one and the rest on the
 * others ({@link Calls}; settings: {@link ApiProperties.Warmup}; off by default, on in
 * the embedded default).
 *
 * <p>
 * It runs as an {@link ApplicationRunner}: the server already listens, and this health
 * indicator ({@code warmup}) reports {@code OUT_OF_SERVICE} until it is done, so
 * {@code /actuator/health} answers 503 and a launcher or a load balancer that waits for
 * {@code UP} sends no traffic before. Requests from loopback with no
 * {@code X-Forwarded-For} are a trusted proxy's own and so not rate limited. A failing
 * request is counted, never fatal: a warm-up that cannot reach Elasticsearch still ends
 * on time.
 */
@Component
class Warmup implements ApplicationRunner, HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(Warmup.class);

    private final ApiProperties.Warmup settings;

    private final IntSupplier port;

    private final ObjectMapper mapper;

    private volatile Health health;

    /** Whose turn it is among the {@link #VISITORS}. */
    private final AtomicInteger visitorTurn = new AtomicInteger();

    @Autowired
    Warmup(ApiProperties props, WebServerApplicationContext context, ObjectMapper mapper) {
        this(props.warmup(), () -> context.getWebServer().getPort(), mapper);
    }

    Warmup(ApiProperties.Warmup settings, IntSupplier port, ObjectMapper mapper) {
        this.settings = settings;
        this.port = port;
        this.mapper = mapper;
        this.health = on() ? Health.outOfService().withDetail("warmup", "not started").build() : Health.up().build();
    }

    private boolean on() {
        return !settings.duration().isZero() && settings.requests() > 0;
    }

    @Override
    public Health health() {
        return health;
    }

    @Override
    public void run(ApplicationArguments args) throws InterruptedException {
        if (!on()) {
            return;
        }
        health = Health.outOfService().withDetail("warmup", "running").build();
        String base = "http://127.0.0.1:" + port.getAsInt();
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long start = System.nanoTime();
        Calls calls = calls(client, base);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Map<Integer, AtomicInteger> byStatus = new ConcurrentHashMap<>();
        // mean latency in the first and the last tenth of the time: what the warm-up
        // gained
        Mean first = new Mean();
        Mean last = new Mean();
        long deadline = start + settings.duration().toNanos();
        long tenth = settings.duration().toNanos() / 10;
        int threads = settings.threads();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "warmup");
            t.setDaemon(true);
            return t;
        });
        for (int thread = 0; thread < threads; thread++) {
            List<Call> lane = calls.lane(thread, threads);
            // each thread starts at another place in its lane
            int offset = thread;
            pool.execute(() -> {
                for (int i = offset; System.nanoTime() < deadline; i++) {
                    int n = sent.incrementAndGet();
                    if (n > settings.requests()) {
                        return;
                    }
                    long t0 = System.nanoTime();
                    try {
                        int status = get(client, base, lane.get(i % lane.size())).statusCode();
                        byStatus.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    }
                    catch (IOException e) {
                        failed.incrementAndGet();
                    }
                    catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    long took = System.nanoTime() - t0;
                    if (t0 - start < tenth) {
                        first.add(took);
                    }
                    else if (deadline - t0 < tenth) {
                        last.add(took);
                    }
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(settings.duration().toMillis() + 30_000, TimeUnit.MILLISECONDS);
        pool.shutdownNow();
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        int done = Math.min(sent.get(), settings.requests());
        log.info(
                "warm-up: {} requests over {} index and {} memory calls in {} ms on {} threads, answers by status {},"
                        + " {} failed; mean latency {} ms in the first tenth of the time, {} ms in the last",
                done, calls.index().size(), calls.memory().size(), tookMs, threads, byStatus, failed.get(),
                first.millis(), last.millis());
        health = Health.up().withDetail("warmup", done + " requests in " + tookMs + " ms").build();
    }

    /**
     * One warm-up request.
     *
     * @param path path and query
     * @param forwardedFor the {@code X-Forwarded-For} client address, null for none (the
     * trusted proxy's own request, not rate limited)
     * @param visitor whether each request comes from the next of the {@link #VISITORS}
     * instead ({@code forwardedFor} is then null)
     */
    record Call(String path, String forwardedFor, boolean visitor) {

        Call(String path, String forwardedFor) {
            this(path, forwardedFor, false);
        }

        static Call of(String path) {
            return new Call(path, null);
        }

        static Call visitor(String path) {
            return new Call(path, null, true);
        }

    }

    /**
     * What the warm-up sends, in two lanes: calls that wait on Elasticsearch for tens of
     * milliseconds each (searches, suggestions, term pages) and calls the api answers
     * from memory in about a millisecond once built (the chain, layers, the first Atom
     * and JSON Feed pages, the widget's and embeds' refusals of a visitor without a key).
     * With two threads or more, the first sends the index lane and the others the memory
     * lane, so that the cheap paths the public calls most (a widget visitor) run
     * thousands of times, enough for the JIT's optimising tier, instead of waiting behind
     * searches.
     *
     * @param index the calls answered from the index
     * @param memory the calls answered from memory
     */
    record Calls(List<Call> index, List<Call> memory) {

        /**
         * @param thread the thread's number, from 0
         * @param threads how many threads
         * @return the calls that thread sends, in turn
         */
        List<Call> lane(int thread, int threads) {
            if (threads == 1) {
                List<Call> all = new ArrayList<>(index);
                all.addAll(memory);
                return all;
            }
            return thread == 0 ? index : memory;
        }

    }

    /**
     * Visitors without a partner key: addresses of TEST-NET-2 (RFC 5737), never a real
     * client, taken in turn from .1 to .254 so that none comes near its per-client limit
     * (a refusal past it is held for a second, which would stall the lane).
     */
    static final String VISITORS = "198.51.100.";

    /**
     * The calls to warm: fixed ones and, from the api's own lists, each term and layer.
     * Besides the public's answers: the widget's data and embed pages as visitors without
     * a partner key see them (refused: the warm-up holds no key).
     */
    private Calls calls(HttpClient client, String base) {
        List<Call> index = new ArrayList<>();
        List<Call> memory = new ArrayList<>();
        index.add(Call.of("/api/v1/terms"));
        index.add(Call.of("/api/v1/companies"));
        memory.add(Call.of("/api/v1/chain"));
        memory.add(Call.of("/api/v1/layers"));
        memory.add(Call.of("/api/v1/feeds/atom?topic=all"));
        memory.add(Call.of("/api/v1/feeds/json?topic=all"));
        try {
            JsonNode terms = mapper.readTree(get(client, base, Call.of("/api/v1/terms?size=200")).body()).path("terms");
            for (JsonNode term : terms) {
                index.add(Call.of("/api/v1/search?q=" + encode(term.path("title").asText())));
                index.add(Call.of("/api/v1/suggest?q=" + encode(prefix(term.path("title").asText()))));
                index.add(Call.of("/api/v1/terms/" + encode(term.path("slug").asText())));
            }
            JsonNode layers = mapper.readTree(get(client, base, Call.of("/api/v1/layers")).body()).path("layers");
            for (JsonNode layer : layers) {
                String id = layer.path("id").asText();
                index.add(Call.of("/api/v1/search?q=" + encode(layer.path("name").asText() + " shortage")));
                memory.add(Call.of("/api/v1/layers/" + encode(id)));
                memory.add(Call.of("/api/v1/feeds/atom?topic=" + encode("layer:" + id)));
                memory.add(Call.of("/api/v1/feeds/json?topic=" + encode("layer:" + id)));
            }
        }
        catch (IOException | RuntimeException e) {
            log.warn("warm-up: could not list the terms and layers ({}); warming the fixed paths only", e.toString());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (String path : List.of("/widget/v1/data/chain", "/widget/v1/data/feed?topic=all", "/embed/chain")) {
            memory.add(Call.visitor(path));
        }
        return new Calls(List.copyOf(index), List.copyOf(memory));
    }

    /** A mean of durations, added to from several threads. */
    private static final class Mean {

        private final AtomicLong sum = new AtomicLong();

        private final AtomicLong count = new AtomicLong();

        void add(long nanos) {
            sum.addAndGet(nanos);
            count.incrementAndGet();
        }

        String millis() {
            long n = count.get();
            return n == 0 ? "-" : String.format(Locale.ROOT, "%.1f", sum.get() / 1e6 / n);
        }

    }

    private HttpResponse<String> get(HttpClient client, String base, Call call)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + call.path()))
            .timeout(Duration.ofSeconds(10))
            .GET();
        String from = call.visitor() ? VISITORS + (Math.floorMod(visitorTurn.getAndIncrement(), 254) + 1)
                : call.forwardedFor();
        if (from != null) {
            request.header("X-Forwarded-For", from);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String prefix(String title) {
        return title.length() <= 3 ? title : title.substring(0, 3);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

}
