package io.chainfeed.api.search;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * The reads of one chain layer, in two lists: those whose primary layer it is (the source
 * declares it, or the title names it: index field {@code primaryLayerIds}) and those that
 * only touch it (a company or term on the layer, a passing mention: in {@code layerIds}
 * but not in {@code primaryLayerIds}). Each list is newest {@code updatedAt} first, then
 * by id; queries go to the alias {@value ReadsIndex#ALIAS}.
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class LayerReads {

    private final ElasticsearchClient client;

    /**
     * One list of reads: how many there are in all, and the first of them.
     *
     * @param total how many reads the list has in the index
     * @param sources the stored read documents of the first {@code size}, without tag
     * evidence and index-only keys
     */
    public record Slice(long total, List<ReadDocument> sources) {
    }

    /**
     * @param primary the reads whose primary layer it is
     * @param passing the other reads tagged with the layer
     */
    public record Split(Slice primary, Slice passing) {
    }

    /**
     * @param layerId a layer id (an unknown one has no reads)
     * @param kinds {@code term}, {@code signal}: only these kinds; empty for every kind
     * @param size how many reads of each list to return, 1..50
     * @return both lists
     * @throws IOException on a transport failure
     */
    public Split reads(String layerId, List<String> kinds, int size) throws IOException {
        Query primary = query(b -> b.filter(term(ReadFields.PRIMARY_LAYER_IDS, layerId)), kinds);
        Query passing = query(
                b -> b.filter(term(ReadFields.LAYER_IDS, layerId)).mustNot(term(ReadFields.PRIMARY_LAYER_IDS, layerId)),
                kinds);
        return new Split(slice(primary, size), slice(passing, size));
    }

    private static Query query(Consumer<BoolQuery.Builder> layer, List<String> kinds) {
        BoolQuery.Builder b = new BoolQuery.Builder();
        layer.accept(b);
        if (!kinds.isEmpty()) {
            b.filter(f -> f
                .terms(t -> t.field(ReadFields.KIND).terms(v -> v.value(kinds.stream().map(FieldValue::of).toList()))));
        }
        return Query.of(q -> q.bool(b.build()));
    }

    private static Query term(String field, String value) {
        return Query.of(q -> q.term(t -> t.field(field).value(value)));
    }

    private Slice slice(Query query, int size) throws IOException {
        SearchResponse<ReadDocument> response = client.search(s -> s.index(ReadsIndex.ALIAS)
            .query(query)
            .size(size)
            .trackTotalHits(t -> t.enabled(true))
            .source(src -> src.filter(f -> f.excludes(PageRequests.WITHOUT_EVIDENCE)))
            .sort(o -> o.field(f -> f.field(ReadFields.UPDATED_AT).order(SortOrder.Desc)))
            .sort(o -> o.field(f -> f.field(ReadFields.ID).order(SortOrder.Asc))), ReadDocument.class);
        List<ReadDocument> sources = response.hits().hits().stream().map(Hit::source).toList();
        long total = response.hits().total() == null ? sources.size() : response.hits().total().value();
        return new Slice(total, sources);
    }

}
