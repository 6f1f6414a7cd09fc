package io.chainfeed.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.http.HttpHost;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.RestClient;

/**
 * Whether reads can be indexed now: checks, every {@code interval} in the background,
 * that Elasticsearch answers, that the reads index is not red and that it carries no
 * write block (the flood-stage disk watermark sets
 * {@code index.blocks.read_only_allow_delete}; an operator may set
 * {@code index.blocks.write} or {@code read_only}). Ingest shows the last answer in its
 * 2xx answers and its health, so a client knows that what it posted is committed but will
 * be searchable only once indexing resumes.
 */
public final class IndexingProbe implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<String> WRITE_BLOCKS = List.of("index.blocks.read_only_allow_delete",
            "index.blocks.write", "index.blocks.read_only");

    /**
     * One check's answer.
     *
     * @param indexable whether reads can be indexed now
     * @param reason why not (null when they can)
     * @param since when the current state began (the first check that saw it)
     */
    public record State(boolean indexable, String reason, Instant since) {
        /**
         * The state as ingest shows it: {@code state} ok or waiting, with the reason and
         * since when.
         */
        public Map<String, Object> view() {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("state", indexable ? "ok" : "waiting");
            if (!indexable) {
                v.put("reason", reason);
                v.put("since", since.toString());
            }
            return v;
        }
    }

    private final RestClient client;

    private final Clock clock;

    private final ScheduledExecutorService scheduler;

    private volatile State state;

    /**
     * Creates the probe and runs the first check at once, then every {@code interval}.
     * @param uris Elasticsearch's HTTP endpoints, comma-separated
     * @param interval time between checks
     */
    public IndexingProbe(String uris, Duration interval) {
        this(RestClient
            .builder(
                    List.of(uris.split(",")).stream().map(String::strip).map(HttpHost::create).toArray(HttpHost[]::new))
            .setRequestConfigCallback(c -> c.setConnectTimeout(500).setSocketTimeout(1500))
            .build(), Clock.systemUTC(), interval);
    }

    IndexingProbe(RestClient client, Clock clock, Duration interval) {
        this.client = client;
        this.clock = clock;
        this.state = new State(true, null, clock.instant());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "indexing-probe");
            t.setDaemon(true);
            return t;
        });
        refresh();
        scheduler.scheduleWithFixedDelay(this::refresh, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** The last check's answer. */
    public State state() {
        return state;
    }

    /**
     * Checks now and keeps the answer (the {@code since} of an unchanged state stays).
     */
    void refresh() {
        String reason = whyNot();
        State previous = state;
        boolean indexable = reason == null;
        if (previous.indexable() != indexable || (reason != null && !reason.equals(previous.reason()))) {
            state = new State(indexable, reason,
                    previous.indexable() == indexable ? previous.since() : clock.instant());
        }
    }

    /**
     * @return why reads cannot be indexed now, or null when they can
     */
    private String whyNot() {
        try {
            Request health = new Request("GET", "/_cluster/health/" + ReadsIndex.ALIAS);
            health.addParameter("timeout", "1s");
            JsonNode h = read(client.performRequest(health));
            if ("red".equals(h.path("status").asText())) {
                return "the reads index is red: its primary shard is not assigned";
            }
            Request settings = new Request("GET", "/" + ReadsIndex.ALIAS + "/_settings/index.blocks.*");
            settings.addParameter("flat_settings", "true");
            JsonNode s = read(client.performRequest(settings));
            for (JsonNode index : s) {
                for (String block : WRITE_BLOCKS) {
                    if ("true".equals(index.path("settings").path(block).asText())) {
                        return "Elasticsearch refuses writes to the reads index (" + block
                                + (block.endsWith("allow_delete") ? ": the disk is past the flood-stage watermark" : "")
                                + ")";
                    }
                }
            }
            return null;
        }
        catch (IOException | RuntimeException e) {
            return "Elasticsearch does not answer (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
        }
    }

    private static JsonNode read(Response response) throws IOException {
        return JSON.readTree(response.getEntity().getContent());
    }

    @Override
    public void close() throws IOException {
        scheduler.shutdownNow();
        client.close();
    }

}
