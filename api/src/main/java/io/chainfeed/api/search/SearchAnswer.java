package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.transport.ElasticsearchTransport;
import co.elastic.clients.transport.endpoints.BinaryEndpoint;
import co.elastic.clients.transport.endpoints.BinaryResponse;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.io.InputStream;
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
 */
record SearchAnswer(long took, Hits hits, Map<String, Buckets> aggregations, @JsonProperty("pit_id") String pitId,
        @JsonProperty("_shards") Shards shards) {
    /**
     * @param failed how many shards failed
     * @param failures why, as Elasticsearch says it; null when none failed
     */
    record Shards(int failed, List<Map<String, Object>> failures) {
    }

    private static final ObjectReader READER = new ObjectMapper()
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
        .readerFor(SearchAnswer.class);

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
     * @param innerHits a collapsed hit's group: inner hits name to their hits; null
     * without collapsing
     */
    record Hit(@JsonProperty("_score") Double score, List<Object> sort,
            @JsonProperty("_source") Map<String, Object> source, Map<String, List<String>> highlight,
            @JsonProperty("inner_hits") Map<String, InnerHits> innerHits) {
        Hit(Double score, List<Object> sort, Map<String, Object> source, Map<String, List<String>> highlight) {
            this(score, sort, source, highlight, null);
        }
    }

    /**
     * @param hits the hits of one inner hits request and their total
     */
    record InnerHits(Hits hits) {
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
            SearchAnswer answer = read(in);
            if (answer.shards() != null && answer.shards().failed() > 0) {
                // A shard that failed answers no hits: an empty page would hide the
                // fault.
                throw new IOException(
                        "search failed on " + answer.shards().failed() + " shard(s): " + answer.shards().failures());
            }
            return answer;
        }
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
