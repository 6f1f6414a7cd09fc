package io.chainfeed.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts a burst of constraint signals to {@code POST /ingest/v1/signals}, one signal a
 * request, from a few threads, and writes every answer into a {@link Ledger}: a 202
 * acknowledges the signal's read id, anything else (an error status, a timeout, a refused
 * connection) records an unacknowledged attempt. By default nothing is retried: a retry
 * of an unanswered request would blur what was acknowledged. With
 * {@link #retryingRefused} a 503 is posted again after its {@code Retry-After}, as a
 * client should: ingest answers 503 only when nothing of the request was published
 * (docs/resilience.md), so the retry cannot double anything. With
 * {@link #repostingUnknown} a 504 (committed or not, unknown) is posted again too, with
 * the same id, as a client that must get its signal in does: the audits then show whether
 * that is idempotent. A lost answer is never retried.
 */
public final class BurstDriver {

    private static final Logger LOG = LoggerFactory.getLogger(BurstDriver.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI signals;

    private final String editorKey;

    private final Ledger ledger;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final AtomicInteger answered = new AtomicInteger();

    private final AtomicInteger retried = new AtomicInteger();

    private int attemptsOn503 = 1;

    private boolean repost504;

    private final java.util.Set<String> reposted504 = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param ingest the ingest service's base URI
     * @param editorKey the editor key
     * @param ledger where answers go
     */
    public BurstDriver(URI ingest, String editorKey, Ledger ledger) {
        this.signals = ingest.resolve("/ingest/v1/signals");
        this.editorKey = editorKey;
        this.ledger = ledger;
    }

    /**
     * Starts posting {@code count} signals with ids
     * {@code <prefix>-0 .. <prefix>-(count-1)}.
     * @param prefix id prefix, unique per burst
     * @param count how many signals
     * @param threads concurrent posters
     * @return completes when every request has been answered or has failed
     */
    public CompletableFuture<Void> start(String prefix, int count, int threads) {
        return post(java.util.stream.IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).toList(), threads);
    }

    /**
     * Posts signals again with the same ids and bodies as {@link #start} did, as a client
     * does whose answer was lost or was a 504; the answers go into the ledger as before.
     * @param ids the signal ids (not the read ids: {@code <prefix>-<n>})
     * @param threads concurrent posters
     * @return completes when every request has been answered or has failed
     */
    public CompletableFuture<Void> post(java.util.List<String> ids, int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "burst-" + ids.get(0));
            t.setDaemon(true);
            return t;
        });
        CompletableFuture<?>[] all = new CompletableFuture<?>[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            all[i] = CompletableFuture.runAsync(() -> post(id), pool);
        }
        return CompletableFuture.allOf(all).whenComplete((v, e) -> pool.shutdown());
    }

    /**
     * Posts a signal refused with 503 again after the answer's {@code Retry-After} (1 s
     * when absent), up to {@code attempts} posts in all.
     * @param attempts posts of one signal at most, at least 1
     * @return this driver
     */
    public BurstDriver retryingRefused(int attempts) {
        this.attemptsOn503 = Math.max(1, attempts);
        return this;
    }

    /**
     * Also posts a signal answered 504 again (same id, same body) after its
     * {@code Retry-After}, within the attempts of {@link #retryingRefused}.
     * @return this driver
     */
    public BurstDriver repostingUnknown() {
        this.repost504 = true;
        return this;
    }

    /**
     * The read ids of the signals answered 504 and posted again (whatever the later
     * answer).
     */
    public java.util.Set<String> reposted504() {
        return new java.util.TreeSet<>(reposted504);
    }

    /** How many 503 answers were followed by another post of the same signal. */
    public int retried() {
        return retried.get();
    }

    /** How many requests have been answered or have failed so far. */
    public int answered() {
        return answered.get();
    }

    private HttpResponse<String> send(String body) throws java.io.IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(signals)
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + editorKey)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    private void post(String id) {
        String body = """
                {"id": "%s", "headline": "Fault drill %s: HBM allocation", "layers": ["memory"],
                 "direction": "tightening", "magnitude": 3, "observedAt": "2026-03-01T00:00:00Z",
                 "source": {"name": "Fault drill", "url": "https://example.com/drill/%s"}}""".formatted(id, id, id);
        try {
            HttpResponse<String> r = send(body);
            for (int attempt = 1; (r.statusCode() == 503 || (repost504 && r.statusCode() == 504))
                    && attempt < attemptsOn503; attempt++) {
                if (r.statusCode() == 504) {
                    reposted504.add("signal:" + id);
                }
                else {
                    retried.incrementAndGet();
                }
                // The server's Retry-After, as any client honours it (not a wait for
                // state in the test).
                Thread.sleep(1000L * r.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L));
                r = send(body);
            }
            if (r.statusCode() == 202) {
                JsonNode accepted = JSON.readTree(r.body()).path("accepted");
                for (JsonNode a : accepted) {
                    ledger.acknowledged(a.path("readId").asText());
                }
                if (accepted.size() != 1) {
                    ledger.unacknowledged("signal:" + id, "202 with " + accepted.size() + " accepted");
                }
            }
            else {
                ledger.unacknowledged("signal:" + id, "HTTP " + r.statusCode());
            }
        }
        catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            ledger.unacknowledged("signal:" + id, e.toString());
        }
        finally {
            int n = answered.incrementAndGet();
            if (n % 50 == 0) {
                LOG.info("burst: {} answered", n);
            }
        }
    }

}
