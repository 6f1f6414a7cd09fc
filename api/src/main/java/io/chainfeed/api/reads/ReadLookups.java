package io.chainfeed.api.reads;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.get.GetResult;
import co.elastic.clients.elasticsearch.core.mget.MultiGetResponseItem;
import co.elastic.clients.elasticsearch.core.search.Hit;
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
     * @param id a document id
     * @return whether Elasticsearch can hold it: not empty and at most
     * {@value #MAX_ID_BYTES} bytes in UTF-8
     */
    static boolean storable(String id) {
        return !id.isEmpty() && id.getBytes(StandardCharsets.UTF_8).length <= MAX_ID_BYTES;
    }

}
