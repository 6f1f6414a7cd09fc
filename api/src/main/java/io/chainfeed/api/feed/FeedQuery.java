package io.chainfeed.api.feed;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.chainfeed.api.selector.Selector;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadFields;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Component;

/**
 * Reads a page of a topic from the reads index ({@value ReadsIndex#ALIAS}): the documents
 * {@link Selector#toQuery()} selects, newest {@code publishedAt} first (when chainfeed
 * published the read's current version, so a new or changed read is always on the first
 * page, however long ago its event was observed), then by read id, continued with
 * {@code search_after} from a {@link FeedCursor}. A document without {@code publishedAt}
 * (indexed before the field existed) sorts as published at the epoch, after every other.
 * Tag evidence is left out of the documents.
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class FeedQuery {

    /** The document field feeds are ordered by. */
    public static final String PUBLISHED_AT = ReadFields.PUBLISHED_AT;

    private final ElasticsearchClient client;

    /**
     * A page of documents and where the next one starts.
     *
     * @param docs the read documents as stored (without tag evidence), in feed order
     * @param next the cursor of the next page, or null when this is the last
     */
    public record Page(List<ReadDocument> docs, FeedCursor next) {
    }

    /**
     * @param selector the topic
     * @param after where to start (exclusive), null for the newest
     * @param size most documents, at least 1
     * @return the page
     * @throws IOException when Elasticsearch cannot be reached
     * @throws co.elastic.clients.elasticsearch._types.ElasticsearchException when it
     * refuses the query
     */
    public Page page(Selector selector, FeedCursor after, int size) throws IOException {
        SearchResponse<ReadDocument> response = client.search(s -> {
            s.index(ReadsIndex.ALIAS)
                .query(q -> q.bool(b -> b.filter(selector.toQuery())))
                .sort(o -> o.field(f -> f.field(PUBLISHED_AT).order(SortOrder.Desc).missing(FieldValue.of(0L))))
                .sort(o -> o.field(f -> f.field(ReadFields.ID).order(SortOrder.Asc)))
                .size(size + 1)
                .trackTotalHits(t -> t.enabled(false))
                .source(src -> src.filter(f -> f.excludes(ReadsIndex.VECTOR_AND_TAG_EVIDENCE_FIELDS)));
            if (after != null) {
                s.searchAfter(FieldValue.of(after.publishedAt().toEpochMilli()), FieldValue.of(after.readId()));
            }
            return s;
        }, ReadDocument.class);
        List<Hit<ReadDocument>> hits = response.hits().hits();
        List<ReadDocument> docs = new ArrayList<>();
        for (int i = 0; i < Math.min(size, hits.size()); i++) {
            docs.add(hits.get(i).source());
        }
        FeedCursor next = null;
        if (hits.size() > size) {
            ReadDocument last = docs.get(docs.size() - 1);
            next = new FeedCursor(publishedAt(last), last.id());
        }
        return new Page(docs, next);
    }

    /**
     * @param doc a read document
     * @return its {@code publishedAt}, or the epoch when it has none (indexed before the
     * field existed)
     */
    public static Instant publishedAt(ReadDocument doc) {
        return doc.publishedAt() == null ? Instant.EPOCH : Instant.parse(doc.publishedAt());
    }

}
