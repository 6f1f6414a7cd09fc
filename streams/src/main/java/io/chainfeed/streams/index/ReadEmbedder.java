package io.chainfeed.streams.index;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.core.BulkRequest;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;
import co.elastic.clients.elasticsearch.core.get.GetResult;
import co.elastic.clients.elasticsearch.core.mget.MultiGetResponseItem;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.Section;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.ReadDocuments;
import io.chainfeed.schemas.ReadFields;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds each read's sentence vector to its document in the reads index, after and apart
 * from the lexical write of {@link ReadIndexer}, so a read is searchable by its words as
 * soon as before and by its meaning a moment later (issue 40).
 *
 * <p>
 * Consumes {@value Topics#READS} in its own group ({@code read_committed}, from the
 * earliest offset, so a new install or a new group fills the vectors of every read the
 * compacted topic holds). A record is taken only once the indexer's group has committed
 * past it ({@code indexed}): its lexical document, or a newer one, is then in the index.
 * For each read (the newest of a batch) the embedder reads the document's {@code version}
 * and {@code embeddedVersion} with its sequence number, and only when the document is the
 * read's version and has no vector of this model and text for it yet, embeds the read and
 * writes {@code embedding}, {@code embeddingModel} and {@code embeddedVersion} with a
 * partial update conditioned on that sequence number (the bundled Elasticsearch has no
 * scripting: optimistic concurrency stands in for a conditional script). A document that
 * is gone (the read was deleted since) or was written again meanwhile (409: a newer
 * version, whose record comes later) is skipped. The update raises Elasticsearch's
 * version by one, which {@link ReadsIndex#externalVersion} leaves room for. Offsets are
 * committed after every item of the bulk succeeded; a failed bulk is retried from the
 * committed offsets with exponential backoff. Undecodable records are skipped (the
 * indexer dead-letters them). A signal read that tells the story of a signal read already
 * in the index in other words joins that read's story in the same update
 * ({@link NearDuplicates}); two such reads in one batch, or within a refresh interval (1
 * s) of each other, do not see each other's vector.
 *
 * <p>
 * Meters: {@code chainfeed.embedding.lag} (from the record's timestamp to its vector
 * written) and {@code chainfeed.records.embedded} (vectors written).
 */
public final class ReadEmbedder extends BatchLoop {

    private static final Logger log = LoggerFactory.getLogger(ReadEmbedder.class);

    /** Longest text embedded per read (characters); the model reads about 256 pieces. */
    static final int MAX_TEXT = 1_500;

    /** What a read's vector is made of (docs/search-by-meaning-prereg.md). */
    public enum Text {

        /** The title, the aliases, then the plain-English summary. */
        TITLE_SUMMARY,

        /**
         * {@link #TITLE_SUMMARY}, then the bodies of the sections, cut at 1,500 chars.
         */
        WITH_SECTIONS;

        /**
         * @return the variant's id in lower case ({@code with_sections}): part of the
         * model id stored with each vector and of the embedder's default consumer group
         */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param model the sentence model's name (e.g. {@code SentenceEmbedder.MODEL})
         * @return what is stored as {@code embeddingModel}: the model, a slash, the
         * variant's {@link #id()}
         */
        public String modelId(String model) {
            return model + "/" + id();
        }

        /**
         * @param read a read
         * @return the text its vector is made of
         */
        public String of(Read read) {
            StringBuilder s = new StringBuilder(read.getTitle());
            if (!read.getAliases().isEmpty()) {
                s.append(" (").append(String.join(", ", read.getAliases())).append(')');
            }
            s.append(". ").append(read.getSummary());
            if (this == WITH_SECTIONS) {
                for (Section section : read.getSections()) {
                    if (s.length() >= MAX_TEXT) {
                        break;
                    }
                    s.append(' ').append(section.getBody());
                }
            }
            return s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) : s.toString();
        }

    }

    /** The committed offsets of the indexer's group on the reads topic. */
    @FunctionalInterface
    public interface IndexedOffsets {

        /**
         * @return the indexer group's committed offset per partition (absent: none yet)
         * @throws Exception when Kafka cannot say
         */
        Map<Integer, Long> committed() throws Exception;

    }

    private final ElasticsearchClient client;

    private final String alias;

    private final Function<List<String>, List<float[]>> embedder;

    private final String model;

    private final Text text;

    private final IndexedOffsets indexed;

    private final Clock clock;

    private final AvroSerde<Read> serde = AvroSerde.of(Read.class);

    private final AtomicLong embedded = new AtomicLong();

    private final Timer lag;

    private final Counter written;

    /**
     * @param consumer a consumer with {@code enable.auto.commit=false} and
     * {@code isolation.level=read_committed}; owned and closed by the embedder
     * @param client Elasticsearch client
     * @param alias the index alias to update
     * @param embedder texts to unit vectors, in order (e.g.
     * {@code SentenceEmbedder::embedAll})
     * @param model the model's name and the text variant, stored with each vector (a
     * document whose vector another model or variant made is embedded again)
     * @param text what a read's vector is made of
     * @param indexed the indexer group's committed offsets
     * @param meters where the lag timer and the counter are registered
     * @param clock the clock of the lag
     */
    public ReadEmbedder(Consumer<String, byte[]> consumer, ElasticsearchClient client, String alias,
            Function<List<String>, List<float[]>> embedder, String model, Text text, IndexedOffsets indexed,
            MeterRegistry meters, Clock clock) {
        super(consumer, Topics.READS, "vectors");
        this.client = client;
        this.alias = alias;
        this.embedder = embedder;
        this.model = model;
        this.text = text;
        this.indexed = indexed;
        this.clock = clock;
        this.lag = Timer.builder("chainfeed.embedding.lag")
            .description("From a read's record timestamp to its vector written to the reads index")
            .publishPercentileHistogram()
            .register(meters);
        this.written = Counter.builder("chainfeed.records.embedded")
            .description("Read vectors written to the reads index")
            .register(meters);
    }

    /**
     * @return vectors written since start
     */
    public long embeddedCount() {
        return embedded.get();
    }

    /**
     * Embeds the records the indexer has committed past, rewinds the consumer to the
     * first one it has not, and pauses briefly when none was ready.
     * @return the offsets to commit
     */
    @Override
    protected Map<TopicPartition, OffsetAndMetadata> process(ConsumerRecords<String, byte[]> records) throws Exception {
        Map<Integer, Long> committed = indexed.committed();
        List<ConsumerRecord<String, byte[]>> ready = new ArrayList<>();
        Map<TopicPartition, Long> firstWaiting = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            long limit = committed.getOrDefault(tp.partition(), 0L);
            for (ConsumerRecord<String, byte[]> r : records.records(tp)) {
                if (r.offset() < limit) {
                    ready.add(r);
                }
                else {
                    firstWaiting.put(tp, r.offset());
                    break;
                }
            }
        }
        embed(ready);
        Map<TopicPartition, OffsetAndMetadata> done = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : ready) {
            done.merge(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1),
                    (a, b) -> a.offset() >= b.offset() ? a : b);
        }
        if (!firstWaiting.isEmpty()) {
            rewind(firstWaiting);
            if (ready.isEmpty()) {
                TimeUnit.MILLISECONDS.sleep(200);
            }
        }
        return done;
    }

    /** A read waiting for its vector, and the document it goes to. */
    private record Pending(Read read, long timestamp, long version, long seqNo, long primaryTerm) {
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private void embed(List<ConsumerRecord<String, byte[]>> records) throws Exception {
        Map<String, ConsumerRecord<String, byte[]>> latest = new LinkedHashMap<>();
        Map<String, Read> reads = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            if (r.value() == null || r.key() == null) {
                continue;
            }
            try {
                Read read = serde.deserialize(r.topic(), r.value());
                // Only the newest version of a read in the batch counts: the others'
                // documents are gone already.
                reads.put(read.getId(), read);
                latest.put(read.getId(), r);
            }
            catch (RuntimeException e) {
                log.debug("skipped undecodable record {}-{}@{}", r.topic(), r.partition(), r.offset());
            }
        }
        if (reads.isEmpty()) {
            return;
        }
        MgetResponse<Map> docs = client.mget(m -> m.index(alias)
            .ids(List.copyOf(reads.keySet()))
            .sourceIncludes(List.of(ReadFields.VERSION, ReadFields.EMBEDDED_VERSION, ReadFields.EMBEDDING_MODEL)),
                Map.class);
        List<Pending> pending = new ArrayList<>();
        for (MultiGetResponseItem<Map> item : docs.docs()) {
            if (item.isFailure()) {
                throw new IllegalStateException(
                        "reading " + item.failure().id() + ": " + item.failure().error().reason());
            }
            GetResult<Map> doc = item.result();
            Read read = reads.get(doc.id());
            if (!doc.found() || read == null || doc.source() == null) {
                // Deleted since: nothing to add a vector to.
                continue;
            }
            ConsumerRecord<String, byte[]> r = latest.get(doc.id());
            long version = ReadDocuments.version(read);
            boolean current = doc.source().get(ReadFields.VERSION) instanceof Number n && n.longValue() == version;
            boolean done = doc.source().get(ReadFields.EMBEDDED_VERSION) instanceof Number e && e.longValue() == version
                    && model.equals(doc.source().get(ReadFields.EMBEDDING_MODEL));
            if (current && !done && doc.seqNo() != null && doc.primaryTerm() != null) {
                pending.add(new Pending(read, r.timestamp(), version, doc.seqNo(), doc.primaryTerm()));
            }
        }
        if (pending.isEmpty()) {
            return;
        }
        List<float[]> vectors = embedder.apply(pending.stream().map(p -> text.of(p.read())).toList());
        List<String> stories = NearDuplicates.stories(client, alias, pending.stream().map(Pending::read).toList(),
                vectors);
        BulkRequest.Builder bulk = new BulkRequest.Builder();
        for (int i = 0; i < pending.size(); i++) {
            Pending p = pending.get(i);
            Map<String, Object> fields = new HashMap<>(Map.of(ReadsIndex.EMBEDDING, vectors.get(i),
                    ReadFields.EMBEDDING_MODEL, model, ReadFields.EMBEDDED_VERSION, p.version()));
            if (stories.get(i) != null) {
                fields.put(ReadFields.STORY, stories.get(i));
            }
            bulk.operations(op -> op.update(u -> u.index(alias)
                .id(p.read().getId())
                .ifSeqNo(p.seqNo())
                .ifPrimaryTerm(p.primaryTerm())
                .action(a -> a.doc(fields))));
        }
        BulkResponse response = client.bulk(bulk.build());
        List<String> failures = new ArrayList<>();
        long now = clock.millis();
        int i = 0;
        long count = 0;
        for (BulkResponseItem item : response.items()) {
            int status = item.status();
            if (status >= 200 && status < 300) {
                count++;
                lag.record(Math.max(0, now - pending.get(i).timestamp()), TimeUnit.MILLISECONDS);
            }
            else if (status != 404 && status != 409) {
                // 404: deleted since; 409: written again since the read above (a newer
                // version, whose own record comes later).
                failures.add(item.id() + ": " + status + " "
                        + (item.error() == null ? "" : item.error().type() + " " + item.error().reason()));
            }
            i++;
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(
                    failures.size() + " of " + pending.size() + " vectors failed, first: " + failures.get(0));
        }
        embedded.addAndGet(count);
        written.increment(count);
    }

    /**
     * Seeks the partitions with records the indexer has not committed past back to the
     * first of them.
     */
    private void rewind(Map<TopicPartition, Long> to) {
        to.forEach(consumer::seek);
    }

}
