package io.chainfeed.streams.index;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.elasticsearch.core.BulkRequest;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;
import io.chainfeed.avro.Read;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.ReadDocument;
import io.chainfeed.schemas.ReadDocuments;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

/**
 * Consumes {@value Topics#READS} ({@code read id -> Read}, read_committed) and writes
 * each read to the reads index behind its alias: document id = read id,
 * {@code version_type=external} with {@link ReadsIndex#externalVersion} of the read's
 * version, so replays and duplicates are no-ops (a 409 version conflict means the index
 * already holds that version, perhaps with its vector added by {@link ReadEmbedder}, or a
 * newer one). A tombstone deletes the document (with the same external-version guard
 * unavailable, deletes are plain). Offsets are committed only after every item of the
 * bulk succeeded; on any other item failure the batch is retried from the last committed
 * offsets with exponential backoff. A record that cannot be decoded goes to
 * {@value Topics#READS_DLQ} with the reason in headers.
 */
public final class ReadIndexer extends BatchLoop {

    private final Producer<byte[], byte[]> dlqProducer;

    private final DeadLetters deadLetters;

    private final ElasticsearchClient client;

    private final String alias;

    private final AvroSerde<Read> serde = AvroSerde.of(Read.class);

    private final AtomicLong indexed = new AtomicLong();

    private final StreamsMeters meters;

    private volatile boolean healthy = true;

    /**
     * @param consumer a consumer with {@code enable.auto.commit=false} and
     * {@code isolation.level=read_committed}; owned and closed by the indexer
     * @param dlqProducer an idempotent producer for dead letters; owned and closed by the
     * indexer
     * @param client Elasticsearch client
     * @param alias the index alias to write to
     * @param registry where the indexer's meters go (the indexed and dead-letter
     * counters): the service's registry
     * @throws NullPointerException if {@code registry} is null
     */
    public ReadIndexer(Consumer<String, byte[]> consumer, Producer<byte[], byte[]> dlqProducer,
            ElasticsearchClient client, String alias, MeterRegistry registry) {
        super(consumer, Topics.READS, "bulk");
        this.dlqProducer = dlqProducer;
        this.deadLetters = new DeadLetters(dlqProducer, "streams-indexer", registry);
        this.meters = new StreamsMeters(registry);
        deadLetters.registerAtStart(List.of(Topics.READS));
        this.client = client;
        this.alias = alias;
    }

    /**
     * @return documents written (or confirmed already present) since start
     */
    public long indexedCount() {
        return indexed.get();
    }

    /**
     * @return false while the last bulk failed and is being retried
     */
    public boolean healthy() {
        return healthy;
    }

    @Override
    protected Map<TopicPartition, OffsetAndMetadata> process(ConsumerRecords<String, byte[]> records) throws Exception {
        indexBatch(records);
        return nextOffsets(records);
    }

    @Override
    protected void succeeded() {
        healthy = true;
    }

    @Override
    protected void failed() {
        healthy = false;
    }

    @Override
    protected void closed() {
        dlqProducer.close(Duration.ofSeconds(5));
    }

    private void indexBatch(ConsumerRecords<String, byte[]> records) throws Exception {
        BulkRequest.Builder bulk = new BulkRequest.Builder();
        List<String> ids = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            if (r.value() == null) {
                if (r.key() != null) {
                    bulk.operations(op -> op.delete(d -> d.index(alias).id(r.key())));
                    ids.add(r.key());
                }
                continue;
            }
            Read read;
            try {
                read = serde.deserialize(r.topic(), r.value());
            }
            catch (RuntimeException e) {
                deadLetter(r, e);
                continue;
            }
            ReadDocument doc = ReadDocuments.toDocument(read, Instant.ofEpochMilli(r.timestamp()));
            bulk.operations(op -> op.index(i -> i.index(alias)
                .id(read.getId())
                .version(ReadsIndex.externalVersion(read.getVersion()))
                .versionType(VersionType.External)
                .document(doc)));
            ids.add(read.getId());
        }
        if (ids.isEmpty()) {
            return;
        }
        BulkResponse response = client.bulk(bulk.build());
        List<String> failures = new ArrayList<>();
        for (BulkResponseItem item : response.items()) {
            int status = item.status();
            // version conflict: same or newer version already indexed
            boolean ok = (status >= 200 && status < 300) || status == 409
                    || (status == 404 && item.operationType().jsonValue().equals("delete"));
            if (!ok) {
                failures.add(item.id() + ": " + status + " "
                        + (item.error() == null ? "" : item.error().type() + " " + item.error().reason()));
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(
                    failures.size() + " of " + ids.size() + " items failed, first: " + failures.get(0));
        }
        indexed.addAndGet(ids.size());
        meters.indexed(ids.size());
    }

    private void deadLetter(ConsumerRecord<String, byte[]> r, Exception e) throws Exception {
        // Awaited: the offset is committed after the batch, and the copy must exist by
        // then.
        deadLetters
            .send(r, r.key() == null ? null : r.key().getBytes(StandardCharsets.UTF_8), r.value(),
                    DeadLetters.Reason.UNDECODABLE, e)
            .get(30, TimeUnit.SECONDS);
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(ConsumerRecords<String, byte[]> records) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<String, byte[]>> list = records.records(tp);
            offsets.put(tp, new OffsetAndMetadata(list.get(list.size() - 1).offset() + 1));
        }
        return offsets;
    }

}
