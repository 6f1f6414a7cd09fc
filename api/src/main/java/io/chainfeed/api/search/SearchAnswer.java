package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.ErrorResponse;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.ElasticsearchTransportBase;
import co.elastic.clients.transport.endpoints.BinaryEndpoint;
import co.elastic.clients.transport.endpoints.BinaryResponse;
import co.elastic.clients.util.BinaryData;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.chainfeed.schemas.ReadDocument;
import jakarta.json.stream.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * The answer of Elasticsearch's search API ({@code POST <index>/_search}), read straight
 * from its JSON with Jackson into the few parts a page of {@link ReadSearch} uses: took,
 * the exact total, each hit's score, sort values, source and highlight, the point in time
 * id and the buckets of the aggregations.
 *
 * <p>
 * The request is the Java client's own {@link SearchRequest} sent through the client's
 * transport (so the same body, query string, breaker and error handling: an error status
 * raises the client's {@code ElasticsearchException}); only the answer skips the client's
 * typed {@code SearchResponse}, whose JSON-P decoding of hits and aggregations cost the
 * API more per search than this reader. Sources are ordered maps exactly as Jackson's
 * untyped reading gives them (the client read them the same way).
 *
 * @param took milliseconds Elasticsearch spent
 * @param hits the hits and total
 * @param aggregations aggregation name (with the client's {@code typed_keys} prefix, e.g.
 * {@code sterms#layer}) to its buckets
 * @param pitId the point in time id to continue with, or null outside a point in time
 * @param shards the shards' outcome; a failed shard makes {@link #search} fail
 * @param status the HTTP status of one search of a multi-search ({@link #msearch}); null
 * in the answer of a single search
 * @param error why that search failed, as Elasticsearch says it ({@code type},
 * {@code reason} ...); null when it did not
 */
record SearchAnswer(long took, Hits hits, Map<String, Buckets> aggregations, @JsonProperty("pit_id") String pitId,
        @JsonProperty("_shards") Shards shards, Integer status, Map<String, Object> error) {
    /**
     * @param failed how many shards failed
     * @param failures why, as Elasticsearch says it; null when none failed
     */
    record Shards(int failed, List<Map<String, Object>> failures) {
    }

    private static final ObjectMapper JSON = new ObjectMapper()
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private static final ObjectReader READER = JSON.readerFor(SearchAnswer.class);

    private static final ObjectReader MULTI_READER = JSON.readerFor(Multi.class);

    /**
     * The answer of {@code POST _msearch}.
     *
     * @param responses one answer per search, in the order they were sent
     */
    record Multi(List<SearchAnswer> responses) {
    }

    /**
     * The multi-search endpoint ({@code POST /_msearch?typed_keys=true}) taking the
     * newline-delimited body {@link #msearch} writes and leaving the answer as bytes.
     */
    private static final BinaryEndpoint<BinaryData> MSEARCH = new BinaryEndpoint<>("es/msearch", r -> "POST",
            r -> "/_msearch", r -> Map.of(), r -> Map.of("typed_keys", "true"), r -> Map.of(), r -> r, null);

    /**
     * The body's content type: the one the client sends its own multi-searches with (its
     * versioned JSON type, which Elasticsearch also takes for newline-delimited bodies;
     * it refuses a plain {@code application/x-ndjson} beside the client's versioned
     * {@code Accept}).
     */
    static final String NDJSON = ElasticsearchTransportBase.JSON_CONTENT_TYPE;

    /**
     * The search endpoint of the Java client (method, path, query parameters such as
     * {@code typed_keys}, headers and body all taken from
     * {@link SearchRequest#_ENDPOINT}) with the answer left as bytes.
     */
    private static final BinaryEndpoint<SearchRequest> ENDPOINT = new BinaryEndpoint<>("es/search",
            SearchRequest._ENDPOINT::method, SearchRequest._ENDPOINT::requestUrl,
            SearchRequest._ENDPOINT::pathParameters, SearchRequest._ENDPOINT::queryParameters,
            SearchRequest._ENDPOINT::headers, r -> r, null);

    /**
     * @param total exact total ({@code track_total_hits: true}), null if Elasticsearch
     * left it out
     * @param hits the page's hits, in order
     */
    record Hits(Total total, List<Hit> hits) {
    }

    /**
     * @param value the number of matches
     */
    record Total(long value) {
    }

    /**
     * @param score relevance score, null if not computed
     * @param sort the hit's sort values: score, then id
     * @param source the stored document (less the excluded keys)
     * @param highlight field to HTML-escaped fragments, best first; null without any
     */
    record Hit(@JsonProperty("_score") Double score, List<Object> sort, @JsonProperty("_source") ReadDocument source,
            Map<String, List<String>> highlight) {
    }

    /**
     * @param buckets the aggregation's buckets, in Elasticsearch's order
     */
    record Buckets(List<Bucket> buckets) {
    }

    /**
     * @param key the term (terms aggregations) or epoch milliseconds (date histograms)
     * @param keyAsString the formatted key of a date histogram, null for terms
     * @param docCount matches in the bucket
     */
    record Bucket(Object key, @JsonProperty("key_as_string") String keyAsString,
            @JsonProperty("doc_count") long docCount) {
    }

    /**
     * @param transport the client's transport
     * @param request the search
     * @return the answer
     * @throws IOException on a transport failure or an answer that is not a search answer
     * @throws co.elastic.clients.elasticsearch._types.ElasticsearchException on an error
     * status
     */
    static SearchAnswer search(ElasticsearchTransport transport, SearchRequest request) throws IOException {
        try (BinaryResponse response = transport.performRequest(request, ENDPOINT, transport.options());
                InputStream in = response.content()) {
            return read(in).whole();
        }
    }

    /**
     * @return this answer
     * @throws IOException when a shard failed: a shard that failed answers no hits, and
     * an empty page would hide the fault
     */
    SearchAnswer whole() throws IOException {
        if (shards != null && shards.failed() > 0) {
            throw new IOException("search failed on " + shards.failed() + " shard(s): " + shards.failures());
        }
        return this;
    }

    /**
     * Sends searches in one round trip ({@code _msearch}, whose body is a header line and
     * a body line per search, newline-delimited JSON: see Elasticsearch's multi-search
     * API). Each body is the Java client's own serialization of the
     * {@link SearchRequest}, so a search sent this way asks exactly what {@link #search}
     * would ask.
     * @param transport the client's transport
     * @param requests searches on an index or alias (no point in time), whose only query
     * parameter is the client's {@code typed_keys}
     * @return one answer per request, in order; an answer whose {@link #error} is set
     * failed (see {@link #failure})
     * @throws IOException on a transport failure or an answer that is not a multi-search
     * answer
     * @throws IllegalArgumentException for a request the multi-search cannot carry
     * @throws co.elastic.clients.elasticsearch._types.ElasticsearchException when the
     * multi-search as a whole is refused
     */
    static List<SearchAnswer> msearch(ElasticsearchTransport transport, List<SearchRequest> requests)
            throws IOException {
        BinaryData body = BinaryData.of(ndjson(transport.jsonpMapper(), requests), NDJSON);
        try (BinaryResponse response = transport.performRequest(body, MSEARCH, transport.options());
                InputStream in = response.content()) {
            Multi answer = MULTI_READER.readValue(in);
            if (answer.responses() == null || answer.responses().size() != requests.size()) {
                throw new IOException(
                        "the multi-search answered " + (answer.responses() == null ? "no" : answer.responses().size())
                                + " answers to " + requests.size() + " searches");
            }
            return answer.responses();
        }
    }

    /**
     * The body of a multi-search: for each request its header ({@code {"index":[...]}})
     * and its body, one JSON document a line, each line ending in a newline.
     * @param mapper the client's JSON mapper
     * @param requests the searches
     * @return the body's UTF-8 bytes
     * @throws IllegalArgumentException for a request in a point in time, without an
     * index, or with query parameters other than {@code typed_keys}
     */
    static byte[] ndjson(JsonpMapper mapper, List<SearchRequest> requests) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        for (SearchRequest request : requests) {
            Map<String, String> params = SearchRequest._ENDPOINT.queryParameters(request);
            if (request.pit() != null || request.index().isEmpty()
                    || !params.keySet().stream().allMatch("typed_keys"::equals)) {
                throw new IllegalArgumentException(
                        "a multi-search carries searches on an index with no query parameters but typed_keys, not "
                                + request.index() + " " + params
                                + (request.pit() != null ? " in a point in time" : ""));
            }
            try {
                JSON.writeValue(out, Map.of("index", request.index()));
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            out.write('\n');
            try (JsonGenerator generator = mapper.jsonProvider().createGenerator(out)) {
                mapper.serialize(request, generator);
            }
            out.write('\n');
        }
        return out.toByteArray();
    }

    /**
     * @param endpoint the endpoint named in the exception (e.g. {@code es/msearch})
     * @return null when this search of a multi-search succeeded, else its error as the
     * client raises it for a single search
     */
    ElasticsearchException failure(String endpoint) {
        if (error == null) {
            return null;
        }
        Object type = error.get("type");
        Object reason = error.get("reason");
        int code = status == null ? 500 : status;
        return new ElasticsearchException(endpoint,
                ErrorResponse.of(e -> e.status(code)
                    .error(c -> c.type(type == null ? "unknown" : type.toString())
                        .reason(reason == null ? null : reason.toString()))));
    }

    /**
     * @param json a search answer's JSON
     * @return the parts of it this record keeps
     * @throws IOException when it is not JSON of that shape
     */
    static SearchAnswer read(InputStream json) throws IOException {
        return READER.readValue(json);
    }

    /**
     * @param name the aggregation's name as requested, e.g. {@code layer}
     * @return its buckets, empty if the answer has none under that name
     */
    List<Bucket> buckets(String name) {
        if (aggregations == null) {
            return List.of();
        }
        for (Map.Entry<String, Buckets> e : aggregations.entrySet()) {
            String key = e.getKey();
            int hash = key.indexOf('#');
            if (key.substring(hash + 1).equals(name)) {
                return e.getValue().buckets() == null ? List.of() : e.getValue().buckets();
            }
        }
        return List.of();
    }
}
