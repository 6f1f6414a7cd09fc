package io.chainfeed.devstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms the search path of a freshly started stack before the launcher says it is up. The
 * first searches on a new or newly opened reads index are slow (Elasticsearch loads its
 * caches and the JVMs compile the path), and the api, whose socket timeout to
 * Elasticsearch is short on purpose, answers such a search 503
 * {@code search-unavailable}: a new user's first query would fail. So the launcher
 * searches once per query below, repeating a query that answers 503 until it answers
 * otherwise or the budget is spent, and logs what it saw. Best effort: it never fails the
 * start.
 */
final class SearchWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(SearchWarmUp.class);

    /** Queries that touch the term, signal and company parts of the index. */
    private static final String[] QUERIES = { "memory", "CoWoS%20shortage", "TSM" };

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private SearchWarmUp() {
    }

    /**
     * @param api the api's base URI
     * @param budget how long warming may take in all
     * @return how many searches were sent
     */
    static int warm(URI api, Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        int sent = 0;
        long t0 = System.nanoTime();
        for (String q : QUERIES) {
            int status = 0;
            while (System.nanoTime() < deadline && (status == 0 || status == 503)) {
                sent++;
                status = search(api.resolve("/api/v1/search?q=" + q));
                if (status == 503 || status == 0) {
                    sleepQuietly(Duration.ofMillis(500));
                }
            }
        }
        LOG.info("search warmed up with {} search(es) in {} ms", sent, (System.nanoTime() - t0) / 1_000_000);
        return sent;
    }

    /**
     * @return the status of one search, or 0 when it could not be sent or was interrupted
     */
    private static int search(URI uri) {
        try {
            return HTTP
                .send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
        }
        catch (IOException e) {
            return 0;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void sleepQuietly(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
