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
 * shortage, suggestions, the term cards, the chain, the layers, and the first Atom and
 * JSON Feed page of each layer) for {@code chainfeed.api.warmup.duration} or
 * {@code .requests}, whichever comes first, on {@code .threads} threads (settings:
 * {@link ApiProperties.Warmup}; off by default, on in the embedded default).
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
        List<String> paths = paths(client, base);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Map<Integer, AtomicInteger> byStatus = new ConcurrentHashMap<>();
        // mean latency in the first and the last tenth of the time: what the warm-up
        // gained
        Mean first = new Mean();
        Mean last = new Mean();
        long deadline = start + settings.duration().toNanos();
        long tenth = settings.duration().toNanos() / 10;
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), r -> {
            Thread t = new Thread(r, "warmup");
            t.setDaemon(true);
            return t;
        });
        for (int thread = 0; thread < settings.threads(); thread++) {
            int offset = thread;
            pool.execute(() -> {
                for (int i = offset; System.nanoTime() < deadline; i += settings.threads()) {
                    int n = sent.incrementAndGet();
                    if (n > settings.requests()) {
                        return;
                    }
                    long t0 = System.nanoTime();
                    try {
                        int status = get(client, base + paths.get(i % paths.size())).statusCode();
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
                "warm-up: {} requests over {} paths in {} ms on {} threads, answers by status {}, {} failed;"
                        + " mean latency {} ms in the first tenth of the time, {} ms in the last",
                done, paths.size(), tookMs, settings.threads(), byStatus, failed.get(), first.millis(), last.millis());
        health = Health.up().withDetail("warmup", done + " requests in " + tookMs + " ms").build();
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

    /**
     * The paths to warm: fixed ones and, from the api's own lists, each term and layer.
     */
    private List<String> paths(HttpClient client, String base) {
        List<String> paths = new ArrayList<>(List.of("/api/v1/chain", "/api/v1/layers", "/api/v1/terms",
                "/api/v1/companies", "/api/v1/feeds/atom?topic=all", "/api/v1/feeds/json?topic=all"));
        try {
            JsonNode terms = mapper.readTree(get(client, base + "/api/v1/terms?size=200").body()).path("terms");
            for (JsonNode term : terms) {
                paths.add("/api/v1/search?q=" + encode(term.path("title").asText()));
                paths.add("/api/v1/suggest?q=" + encode(prefix(term.path("title").asText())));
                paths.add("/api/v1/terms/" + encode(term.path("slug").asText()));
            }
            JsonNode layers = mapper.readTree(get(client, base + "/api/v1/layers").body()).path("layers");
            for (JsonNode layer : layers) {
                String id = layer.path("id").asText();
                paths.add("/api/v1/search?q=" + encode(layer.path("name").asText() + " shortage"));
                paths.add("/api/v1/layers/" + encode(id));
                paths.add("/api/v1/feeds/atom?topic=" + encode("layer:" + id));
                paths.add("/api/v1/feeds/json?topic=" + encode("layer:" + id));
            }
        }
        catch (IOException | RuntimeException e) {
            log.warn("warm-up: could not list the terms and layers ({}); warming the fixed paths only", e.toString());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return paths;
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String prefix(String title) {
        return title.length() <= 3 ? title : title.substring(0, 3);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

}
