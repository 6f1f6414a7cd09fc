package io.chainfeed.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Elasticsearch indices behind aliases, idempotently, with the low-level
 * {@link RestClient}.
 *
 * <p>
 * Readers and writers only ever use the alias ({@link ReadsIndex#ALIAS}); the concrete
 * index ({@link ReadsIndex#INDEX}) carries the version. New fields are added to the
 * existing index in place (Elasticsearch's put-mapping accepts new fields and refuses to
 * change existing ones); a change to an existing field means a new index, a re-index from
 * Kafka, and an alias swap.
 */
public final class IndexSetup {

    private static final Logger LOG = LoggerFactory.getLogger(IndexSetup.class);

    private static final ObjectMapper JSON = new ObjectMapper();

    private IndexSetup() {
    }

    /**
     * Ensures {@link ReadsIndex#ALIAS} exists, creating {@link ReadsIndex#INDEX} from its
     * mapping when it does not.
     * @param client a client of the cluster
     * @throws IOException when Elasticsearch cannot be reached or refuses
     */
    public static void ensureReadsIndex(RestClient client) throws IOException {
        ensureIndexBehindAlias(client, ReadsIndex.ALIAS, ReadsIndex.INDEX, ReadsIndex.settingsAndMappings());
    }

    /**
     * Ensures {@code alias} exists with the mapping's fields. When it does, the
     * {@code mappings} of the JSON body are applied to the indices behind it with a
     * put-mapping, which adds fields that are new and leaves identical ones as they are;
     * otherwise {@code concreteIndex} is created from the JSON body (unless it exists)
     * and the alias is added to it as the write index. Safe to call from several services
     * at once.
     * @param client a client of the cluster
     * @param alias e.g. {@code chainfeed-reads}
     * @param concreteIndex e.g. {@code chainfeed-reads-v1}
     * @param settingsAndMappingsJson the body of {@code PUT /<concreteIndex>}: settings
     * and mappings
     * @throws ResponseException when Elasticsearch refuses for another reason than a
     * concurrent creation, or refuses the mapping of an existing index (a field changed
     * type: that needs a new concrete index)
     */
    public static void ensureIndexBehindAlias(RestClient client, String alias, String concreteIndex,
            String settingsAndMappingsJson) throws IOException {
        Objects.requireNonNull(settingsAndMappingsJson, "settingsAndMappingsJson");
        List<String> behind = indicesBehindAlias(client, alias);
        if (!behind.isEmpty()) {
            applyMappings(client, alias, settingsAndMappingsJson);
            LOG.info("alias {} exists and points to {}; mapping applied", alias, behind);
            return;
        }
        Request create = new Request("PUT", "/" + concreteIndex);
        create.setJsonEntity(settingsAndMappingsJson);
        try {
            client.performRequest(create);
            LOG.info("created index {}", concreteIndex);
        }
        catch (ResponseException e) {
            if (!"resource_already_exists_exception".equals(errorType(e))) {
                throw e;
            }
            LOG.info("index {} exists already", concreteIndex);
        }
        ObjectNode body = JSON.createObjectNode();
        ObjectNode add = body.putArray("actions").addObject().putObject("add");
        add.put("index", concreteIndex).put("alias", alias).put("is_write_index", true);
        Request aliases = new Request("POST", "/_aliases");
        aliases.setJsonEntity(body.toString());
        try {
            client.performRequest(aliases);
        }
        catch (ResponseException e) {
            // Someone else may have pointed the alias at another index meanwhile: then
            // theirs stands.
            List<String> now = indicesBehindAlias(client, alias);
            if (now.isEmpty() || now.contains(concreteIndex)) {
                throw e;
            }
            LOG.warn("alias {} was pointed at {} meanwhile; left as is", alias, now);
            return;
        }
        LOG.info("alias {} -> {} (write index)", alias, concreteIndex);
    }

    /**
     * Puts the {@code mappings} object of a settings-and-mappings body on every index
     * behind an alias.
     * @throws ResponseException when Elasticsearch refuses it, e.g.
     * {@code illegal_argument_exception} for a field whose type or analyzer differs from
     * the existing one
     */
    static void applyMappings(RestClient client, String alias, String settingsAndMappingsJson) throws IOException {
        JsonNode mappings = JSON.readTree(settingsAndMappingsJson).path("mappings");
        if (!mappings.isObject()) {
            return;
        }
        Request put = new Request("PUT", "/" + alias + "/_mapping");
        put.setJsonEntity(mappings.toString());
        client.performRequest(put);
    }

    /**
     * The indices an alias points to.
     * @return the index names, empty when the alias does not exist
     */
    public static List<String> indicesBehindAlias(RestClient client, String alias) throws IOException {
        Request request = new Request("GET", "/_alias/" + alias);
        request.addParameter("ignore", "404");
        Response response = client.performRequest(request);
        if (response.getStatusLine().getStatusCode() == 404) {
            return List.of();
        }
        return indexNames(EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8));
    }

    /**
     * The top-level field names of a {@code GET /_alias/<name>} answer: the index names.
     */
    static List<String> indexNames(String aliasResponse) throws IOException {
        JsonNode root = JSON.readTree(aliasResponse);
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = root.fieldNames(); it.hasNext();) {
            String name = it.next();
            // A 404 answer without "ignore" support carries "error" and "status" fields
            // instead.
            if (!"error".equals(name) && !"status".equals(name)) {
                names.add(name);
            }
        }
        names.sort(null);
        return names;
    }

    /**
     * Waits until the cluster is at least yellow, polling
     * {@code GET /_cluster/health?wait_for_status=yellow} every 250 ms (connection errors
     * count as not yet).
     * @param client a client of the cluster
     * @param timeout how long to wait
     * @throws IllegalStateException when the timeout passes
     */
    public static void waitForYellow(RestClient client, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer yet";
        while (true) {
            Request health = new Request("GET", "/_cluster/health");
            health.addParameter("wait_for_status", "yellow");
            health.addParameter("timeout", "1s");
            health.addParameter("ignore", "408");
            try {
                Response response = client.performRequest(health);
                if (response.getStatusLine().getStatusCode() == 200) {
                    return;
                }
                last = EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
            }
            catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Elasticsearch not yellow after " + timeout.toSeconds() + " s (last: " + last + ")");
            }
            pause(Duration.ofMillis(250));
        }
    }

    private static String errorType(ResponseException e) {
        try {
            JsonNode root = JSON.readTree(EntityUtils.toString(e.getResponse().getEntity(), StandardCharsets.UTF_8));
            return root.path("error").path("type").asText("");
        }
        catch (IOException | RuntimeException parse) {
            return "";
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Elasticsearch", e);
        }
    }

}
