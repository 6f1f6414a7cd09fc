package io.chainfeed.api.reads;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.get.GetResult;
import co.elastic.clients.elasticsearch.core.mget.MultiGetResponseItem;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * Reads stored reads from the reads index (alias {@value ReadsIndex#ALIAS}) by id or by
 * company, for the read, term, company and widget answers: no text search (that is
 * {@link ReadSearch}).
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class ReadLookups {

    private final ElasticsearchClient client;

    /**
     * The longest document id Elasticsearch stores, in UTF-8 bytes: a longer id names no
     * read, and asking for it would only make Elasticsearch refuse the request.
     */
    static final int MAX_ID_BYTES = 512;

    /**
     * @param id a read id, e.g. {@code term:rdma}
     * @return the stored read, if any (none for an id longer than {@value #MAX_ID_BYTES}
     * bytes)
     * @throws IOException on a transport failure
     */
    public Optional<ReadDocument> get(String id) throws IOException {
        if (!storable(id)) {
            return Optional.empty();
        }
        GetResponse<ReadDocument> r = client
            .get(g -> g.index(ReadsIndex.ALIAS).id(id).sourceExcludes(ReadsIndex.VECTOR_FIELDS), ReadDocument.class);
        return r.found() ? Optional.of(r.source()) : Optional.empty();
    }

    /**
     * @param ids read ids
     * @return the stored reads that exist, by id, in the order asked
     * @throws IOException on a transport failure
     */
    public Map<String, ReadDocument> getAll(List<String> ids) throws IOException {
        Map<String, ReadDocument> out = new LinkedHashMap<>();
        List<String> asked = ids.stream().filter(ReadLookups::storable).toList();
        if (asked.isEmpty()) {
            return out;
        }
        MgetResponse<ReadDocument> r = client.mget(
                m -> m.index(ReadsIndex.ALIAS).ids(asked).sourceExcludes(ReadsIndex.VECTOR_FIELDS), ReadDocument.class);
        for (MultiGetResponseItem<ReadDocument> item : r.docs()) {
            if (item.isResult() && item.result().found()) {
                GetResult<ReadDocument> g = item.result();
                out.put(g.id(), g.source());
            }
        }
        return out;
    }

    /**
     * The newest reads tagged with a company (whichever of its listings the tag names).
     * @param companyId the company id, e.g. {@code sk-hynix}
     * @param size how many, 1..50
     * @return the reads, newest {@code updatedAt} first
     * @throws IOException on a transport failure
     */
    public List<ReadDocument> latestForCompany(String companyId, int size) throws IOException {
        SearchResponse<ReadDocument> response = client.search(s -> s.index(ReadsIndex.ALIAS)
            .query(q -> q.term(t -> t.field(ReadFields.COMPANIES_ID).value(companyId)))
            .sort(o -> o.field(f -> f.field(ReadFields.UPDATED_AT).order(SortOrder.Desc)))
            .source(src -> src.filter(f -> f.excludes(ReadsIndex.VECTOR_FIELDS)))
            .size(size), ReadDocument.class);
        return response.hits().hits().stream().map(Hit::source).toList();
    }

    /**
     * A read near another in meaning.
     *
     * @param read the read (without tag evidence)
     * @param similarity the cosine similarity of the two reads' sentence vectors, -1 to 1
     */
    public record Closest(ReadDocument read, double similarity) {
    }

    /** What a nearest-reads search starts from: the read's vector and story. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Seed(List<Float> embedding, String story) {
    }

    /**
     * The reads closest in meaning to a read: approximate kNN on the
     * {@value ReadsIndex#EMBEDDING} field's HNSW graph from the read's own vector,
     * leaving out the read itself, the other reads of its story (its reposts) and
     * chain-state reads (they change every few minutes and explain nothing), and any read
     * less similar than {@code minSimilarity}.
     * @param id a read id
     * @param size most reads, 1..20
     * @param minSimilarity the least cosine similarity a read needs, -1 to 1
     * @return empty when there is no such read; else the reads, most similar first (an
     * empty list while the read has no vector yet: the embedder adds it a few seconds
     * after the read is searchable by its words)
     * @throws IOException on a transport failure
     */
    public Optional<List<Closest>> closest(String id, int size, double minSimilarity) throws IOException {
        if (!storable(id)) {
            return Optional.empty();
        }
        GetResponse<Seed> seed = client.get(
                g -> g.index(ReadsIndex.ALIAS).id(id).sourceIncludes(List.of(ReadFields.EMBEDDING, ReadFields.STORY)),
                Seed.class);
        if (!seed.found()) {
            return Optional.empty();
        }
        List<Float> vector = seed.source().embedding();
        if (vector == null || vector.isEmpty()) {
            return Optional.of(List.of());
        }
        String story = seed.source().story();
        Query others = Query.of(q -> q.bool(b -> {
            b.mustNot(n -> n.ids(i -> i.values(id))).mustNot(n -> n.term(t -> t.field(ReadFields.KIND).value("state")));
            if (story != null) {
                b.mustNot(n -> n.term(t -> t.field(ReadFields.STORY).value(story)));
            }
            return b;
        }));
        SearchResponse<ReadDocument> response = client.search(
                s -> s.index(ReadsIndex.ALIAS)
                    .knn(k -> k.field(ReadsIndex.EMBEDDING)
                        .queryVector(vector)
                        .k(size)
                        .numCandidates(Math.max(100, 10 * size))
                        .filter(others))
                    .size(size)
                    .source(src -> src.filter(f -> f.excludes(ReadsIndex.VECTOR_AND_TAG_EVIDENCE_FIELDS))),
                ReadDocument.class);
        return Optional.of(response.hits()
            .hits()
            .stream()
            .map(h -> new Closest(h.source(), ReadsIndex.cosineOfScore(h.score() == null ? 0 : h.score())))
            .filter(c -> c.similarity() >= minSimilarity)
            .toList());
    }

    /**
     * @param id a document id
     * @return whether Elasticsearch can hold it: not empty and at most
     * {@value #MAX_ID_BYTES} bytes in UTF-8
     */
    static boolean storable(String id) {
        return !id.isEmpty() && id.getBytes(StandardCharsets.UTF_8).length <= MAX_ID_BYTES;
    }

}
