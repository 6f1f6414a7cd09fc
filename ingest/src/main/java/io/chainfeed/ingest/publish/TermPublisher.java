package io.chainfeed.ingest.publish;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes reference data ({@value Topics#LAYERS}, {@value Topics#COMPANIES}) and term updates
 * ({@value Topics#TERMS}, keyed by slug) with an idempotent, {@code acks=all} producer.
 *
 * <p>It keeps a ledger of what each key last published, read from the compacted topics themselves,
 * so re-publishing unchanged content publishes nothing, and each changed term gets a version strictly
 * greater than its last one ({@code max(now in epoch ms, last + 1)}). Before each decision the ledger
 * catches up with the topics' end offsets, so records written by any other publisher (the CLI,
 * another ingest instance) are seen. Every send is awaited: a failed send raises
 * {@link PublishException}, so a caller never reports success for a record the broker did not
 * acknowledge. Publishes are serialised within a process; two processes publishing the same slug in
 * the same millisecond can still race (the later record wins in the compacted topic).
 */
public final class TermPublisher {
    private static final Logger log = LoggerFactory.getLogger(TermPublisher.class);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(30);

    private final Producer<String, byte[]> producer;
    private final Consumer<String, byte[]> ledger;
    private final Clock clock;
    private final Object lock = new Object();
    private List<TopicPartition> ledgerPartitions;
    private final AvroSerde<TermUpdate> termSerde = AvroSerde.of(TermUpdate.class);
    private final AvroSerde<ChainLayer> layerSerde = AvroSerde.of(ChainLayer.class);
    private final AvroSerde<Company> companySerde = AvroSerde.of(Company.class);
    private final Map<String, LedgerEntry> terms = new ConcurrentHashMap<>();
    private final Map<String, String> referenceHashes = new ConcurrentHashMap<>();

    /**
     * @param producer an idempotent producer with {@code acks=all}; not closed by the publisher
     * @param ledger   a group-less consumer (String keys, byte[] values, read_committed) used only by this
     *                 publisher to read the compacted topics; not closed by the publisher
     * @param clock    source of {@code updatedAt} and versions
     */
    public TermPublisher(Producer<String, byte[]> producer, Consumer<String, byte[]> ledger, Clock clock) {
        this.producer = producer;
        this.ledger = ledger;
        this.clock = clock;
    }

    /**
     * Record header on every {@value Topics#TERMS} record naming the content hash the bundled corpus last
     * published for the slug (absent when the corpus never published it). A user's change carries the
     * header forward, so the baseline survives log compaction, which keeps only a key's latest record.
     */
    public static final String CORPUS_HASH_HEADER = "chainfeed-corpus-hash";

    /**
     * What a publish did: wrote a record, found the same content already there, or (corpus loads only)
     * kept a user's change of a term the corpus has not changed since it last published it.
     */
    public enum Outcome { PUBLISHED, UNCHANGED, KEPT }

    /**
     * Result of publishing one term.
     *
     * @param slug    term slug
     * @param version the version now current for the slug
     * @param outcome whether a record was written
     */
    public record Result(String slug, long version, Outcome outcome) {
    }

    /**
     * @param corpusHash the content hash the corpus last published for the slug, or null if it never did
     */
    private record LedgerEntry(String contentHash, long version, String corpusHash) {
    }

    /**
     * Reads the compacted reference and term topics up to their current end offsets (from the
     * beginning on the first call, from where it stopped afterwards) and remembers the last content
     * hash and version per key.
     *
     * @param timeout how long to wait for the end offsets and the records
     * @throws PublishException if the topics cannot be read in time
     */
    public void catchUp(Duration timeout) {
        synchronized (lock) {
            catchUpLocked(timeout);
        }
    }

    private void catchUpLocked(Duration timeout) {
        if (ledgerPartitions == null) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES)) {
                List<PartitionInfo> infos = ledger.partitionsFor(topic, timeout);
                if (infos != null) {
                    infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
                }
            }
            ledger.assign(partitions);
            ledger.seekToBeginning(partitions);
            ledgerPartitions = partitions;
        }
        Map<TopicPartition, Long> end = ledger.endOffsets(ledgerPartitions, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        int records = 0;
        while (ledgerPartitions.stream().anyMatch(tp -> ledger.position(tp, timeout) < end.get(tp))) {
            if (System.nanoTime() > deadline) {
                throw new PublishException("could not read the publish ledger within " + timeout);
            }
            for (ConsumerRecord<String, byte[]> r : ledger.poll(Duration.ofMillis(100))) {
                records++;
                remember(r);
            }
        }
        if (records > 0) {
            log.debug("ledger caught up over {} records: {} terms, {} reference keys", records, terms.size(),
                    referenceHashes.size());
        }
    }

    private void remember(ConsumerRecord<String, byte[]> r) {
        if (r.key() == null) {
            return;
        }
        if (r.topic().equals(Topics.TERMS)) {
            if (r.value() == null) {
                terms.remove(r.key());
            } else {
                TermUpdate t = termSerde.deserialize(r.topic(), r.value());
                Header header = r.headers().lastHeader(CORPUS_HASH_HEADER);
                // Records from before the header existed: a corpus record is its own baseline.
                String corpusHash = header != null ? new String(header.value(), StandardCharsets.UTF_8)
                        : "corpus".equals(t.getOrigin()) ? t.getContentHash() : null;
                terms.merge(r.key(), new LedgerEntry(t.getContentHash(), t.getVersion(), corpusHash),
                        (a, b) -> b.version() >= a.version() ? b : a);
            }
        } else if (r.value() != null) {
            referenceHashes.put(r.topic() + "/" + r.key(), sha256(r.value()));
        }
    }

    /**
     * Publishes a term unless the slug's last published content is identical.
     *
     * @param content the term's content
     * @return the slug, the current version and whether anything was written
     * @throws PublishException if the broker does not acknowledge the record
     */
    public Result publish(TermContent content) {
        synchronized (lock) {
            catchUpLocked(CATCH_UP_TIMEOUT);
            return publishLocked(content);
        }
    }

    private Result publishLocked(TermContent content) {
        LedgerEntry last = terms.get(content.slug());
        return publishLocked(content, last == null ? null : last.corpusHash());
    }

    /** Publishes unless unchanged; the record carries {@code corpusHash} (null: none) as its baseline. */
    private Result publishLocked(TermContent content, String corpusHash) {
        String hash = content.contentHash();
        LedgerEntry last = terms.get(content.slug());
        if (last != null && last.contentHash().equals(hash)) {
            return new Result(content.slug(), last.version(), Outcome.UNCHANGED);
        }
        Instant now = clock.instant();
        long version = Math.max(now.toEpochMilli(), last == null ? 1 : last.version() + 1);
        TermUpdate update = content.toTermUpdate(version, now);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.TERMS, content.slug(),
                termSerde.serialize(Topics.TERMS, update));
        if (corpusHash != null) {
            record.headers().add(CORPUS_HASH_HEADER, corpusHash.getBytes(StandardCharsets.UTF_8));
        }
        await(producer.send(record), "term " + content.slug());
        terms.put(content.slug(), new LedgerEntry(hash, version, corpusHash));
        return new Result(content.slug(), version, Outcome.PUBLISHED);
    }

    /**
     * Loads a bundled corpus's terms without undoing users' changes. Per slug, against the ledger:
     * <ul>
     * <li>never published: published;</li>
     * <li>the same content is current: {@link Outcome#UNCHANGED};</li>
     * <li>the corpus's content is what the corpus last published, but someone changed the term since:
     *     {@link Outcome#KEPT} (the user's change stays);</li>
     * <li>the term exists but the corpus never published it (a user made it first): {@link Outcome#KEPT};</li>
     * <li>the corpus's content differs from what the corpus last published (the corpus changed):
     *     published, and it becomes the new baseline.</li>
     * </ul>
     *
     * @param contents the corpus's terms
     * @return one result per term, in order
     * @throws PublishException if a record is not acknowledged (earlier ones may have been written; a
     *                          reload publishes only what is still missing)
     */
    public List<Result> publishCorpus(List<TermContent> contents) {
        synchronized (lock) {
            catchUpLocked(CATCH_UP_TIMEOUT);
            List<Result> results = new ArrayList<>();
            for (TermContent c : contents) {
                String hash = c.contentHash();
                LedgerEntry last = terms.get(c.slug());
                if (last != null && last.contentHash().equals(hash)) {
                    results.add(new Result(c.slug(), last.version(), Outcome.UNCHANGED));
                } else if (last != null && (last.corpusHash() == null || last.corpusHash().equals(hash))) {
                    results.add(new Result(c.slug(), last.version(), Outcome.KEPT));
                } else {
                    results.add(publishLocked(c, hash));
                }
            }
            return results;
        }
    }

    /**
     * Publishes every term, sending them all before awaiting the acknowledgements.
     *
     * @param contents terms to publish
     * @return one result per term, in order
     * @throws PublishException if any record is not acknowledged (earlier ones may have been written;
     *                          they are idempotent to re-publish)
     */
    public List<Result> publishAll(List<TermContent> contents) {
        synchronized (lock) {
            catchUpLocked(CATCH_UP_TIMEOUT);
            List<Result> results = new ArrayList<>();
            for (TermContent c : contents) {
                results.add(publishLocked(c));
            }
            return results;
        }
    }

    /**
     * Publishes chain layers and companies whose bytes differ from what the topic already holds.
     *
     * @param layers    layers, keyed by id
     * @param companies companies, keyed by id
     * @return how many records were written
     * @throws PublishException if the broker does not acknowledge a record
     */
    public int publishReference(List<ChainLayer> layers, List<Company> companies) {
        synchronized (lock) {
            catchUpLocked(CATCH_UP_TIMEOUT);
            return publishReferenceLocked(layers, companies);
        }
    }

    private int publishReferenceLocked(List<ChainLayer> layers, List<Company> companies) {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        List<Runnable> commits = new ArrayList<>();
        for (ChainLayer l : layers) {
            sendIfChanged(Topics.LAYERS, l.getId(), layerSerde.serialize(Topics.LAYERS, l), sends, commits);
        }
        for (Company c : companies) {
            sendIfChanged(Topics.COMPANIES, c.getId(), companySerde.serialize(Topics.COMPANIES, c), sends, commits);
        }
        for (Future<RecordMetadata> f : sends) {
            await(f, "reference data");
        }
        commits.forEach(Runnable::run);
        return sends.size();
    }

    private void sendIfChanged(String topic, String key, byte[] value, List<Future<RecordMetadata>> sends,
            List<Runnable> commits) {
        String ledgerKey = topic + "/" + key;
        String hash = sha256(value);
        if (hash.equals(referenceHashes.get(ledgerKey))) {
            return;
        }
        sends.add(producer.send(new ProducerRecord<>(topic, key, value)));
        commits.add(() -> referenceHashes.put(ledgerKey, hash));
    }

    private static RecordMetadata await(Future<RecordMetadata> f, String what) {
        try {
            return f.get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted while publishing " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new PublishException("Kafka did not acknowledge " + what + ": " + e.getMessage(), e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
