package io.chainfeed.api.answers;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.chainfeed.platform.ReadsIndex;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the index shows of some reads: their versions, by id.
 */
@FunctionalInterface
interface ShownVersions {

    /**
     * @param ids read ids
     * @return the version the index shows of each id it shows (a searchable read)
     * @throws IOException when the index cannot be searched
     */
    Map<String, Long> of(List<String> ids) throws IOException;

    /**
     * A search by id of the reads index ({@value ReadsIndex#ALIAS}; not a get, which is
     * real-time: a search sees what a search of the public sees, after a refresh). The
     * indexer writes each read with {@link ReadsIndex#externalVersion} of its version,
     * and {@link ReadsIndex#readVersion} turns the hit's version back into the read's.
     * @param es the api's Elasticsearch client
     * @return the versions the index shows
     */
    static ShownVersions of(ElasticsearchClient es) {
        return ids -> {
            Map<String, Long> shown = new HashMap<>();
            SearchResponse<Void> r = es.search(s -> s.index(ReadsIndex.ALIAS)
                .query(q -> q.ids(i -> i.values(ids)))
                .size(ids.size())
                .version(true)
                .source(src -> src.fetch(false)), Void.class);
            for (Hit<Void> hit : r.hits().hits()) {
                shown.put(hit.id(), hit.version() == null ? 0L : ReadsIndex.readVersion(hit.version()));
            }
            return shown;
        };
    }

}
