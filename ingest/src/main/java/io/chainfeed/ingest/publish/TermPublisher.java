package io.chainfeed.ingest.publish;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.platform.Sha256;
import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes reference data ({@value Topics#LAYERS}, {@value Topics#COMPANIES}) and term
 * updates ({@value Topics#TERMS}, keyed by slug) through a {@link RecordSink}: in the
 * service one Kafka transaction per call ({@link KafkaTransactions}), so a call's records
 * are visible all together or not at all.
 *
 * <p>
 * It keeps a ledger of what each key last published, read from the compacted topics
 * themselves, so re-publishing unchanged content publishes nothing, and each changed term
 * gets a version strictly greater than its last one
 * ({@code max(now in epoch ms, last + 1)}). Before each decision the ledger catches up
 * with the topics' last stable offsets ({@code read_committed}), so records written by
 * any other publisher (the CLI, another ingest instance) are seen; a ledger record that
 * cannot be decoded is dead-lettered ({@link DeadLetters}) and skipped. Every publish is
 * awaited until its deadline: a failure raises {@link PublishException} (or a subtype,
 * see {@link RecordSink#publish}), so a caller never reports success for a record Kafka
 * did not take, and the ledger remembers only what was committed. Publishes are
 * serialised within a process (a caller waits for its turn no longer than its deadline);
 * two processes publishing the same slug in the same millisecond can still race (the
 * later record wins in the compacted topic).
 */
public final class TermPublisher {

    private static final Logger log = LoggerFactory.getLogger(TermPublisher.class);

    /**
     * Deadline of a corpus or reference-data load (many records, at start or from the
     * CLI).
     */
    private static final Duration BULK_TIMEOUT = Duration.ofSeconds(60);

    private final RecordSink sink;

    private final Consumer<String, byte[]> ledger;

    private final Clock clock;

    private final Duration deadline;

    /** The topics the ledger reads (and may dead-letter records of). */
    public static final List<String> LEDGER_TOPICS = List.of(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES);

    private final DeadLetters deadLetters;

    private final IngestMeters meters;

    private final ReentrantLock lock = new ReentrantLock();

    private List<TopicPartition> ledgerPartitions;

    private final AvroSerde<TermUpdate> termSerde = AvroSerde.of(TermUpdate.class);

    private final AvroSerde<ChainLayer> layerSerde = AvroSerde.of(ChainLayer.class);

    private final AvroSerde<Company> companySerde = AvroSerde.of(Company.class);

    private final Map<String, LedgerEntry> terms = new ConcurrentHashMap<>();

    private final Map<String, String> referenceHashes = new ConcurrentHashMap<>();

    /**
     * @param producer an idempotent producer with {@code acks=all}; not closed by the
     * publisher
     * @param ledger a group-less consumer (String keys, byte[] values, read_committed)
     * used only by this publisher to read the compacted topics; not closed by the
     * publisher
     * @param clock source of {@code updatedAt} and versions
     * @param meters where accepted and published records count
     * @throws NullPointerException if {@code meters} is null
     */
    public TermPublisher(Producer<String, byte[]> producer, Consumer<String, byte[]> ledger, Clock clock,
            IngestMeters meters) {
        this(new AwaitedSends(producer), ledger, clock, Duration.ofSeconds(30), null, meters);
    }

    /**
     * @param sink where records go (the service: one transaction per call)
     * @param ledger as above; not closed by the publisher
     * @param clock source of {@code updatedAt} and versions
     * @param deadline how long one {@link #publish(TermContent)} may take, lock wait and
     * ledger catch-up included
     * @param deadLetters where undecodable ledger records are copied; null to only log
     * them
     * @param meters where accepted and published records count
     * @throws NullPointerException if {@code meters} is null
     */
    public TermPublisher(RecordSink sink, Consumer<String, byte[]> ledger, Clock clock, Duration deadline,
            DeadLetters deadLetters, IngestMeters meters) {
        this.sink = sink;
        this.ledger = ledger;
        this.clock = clock;
        this.deadline = deadline;
        this.deadLetters = deadLetters;
        this.meters = Objects.requireNonNull(meters, "meters");
        if (deadLetters != null) {
            deadLetters.registerAtStart(LEDGER_TOPICS);
        }
    }

    /** What a publish did. */
    /**
     * Record header on every {@value Topics#TERMS} record naming the content hash the
     * bundled corpus last published for the slug (absent when the corpus never published
     * it). A user's change carries the header forward, so the baseline survives log
     * compaction, which keeps only a key's latest record.
     */
    public static final String CORPUS_HASH_HEADER = "chainfeed-corpus-hash";

    /**
     * What a publish did: wrote a record, found the same content already there, or
     * (corpus loads only) kept a user's change of a term the corpus has not changed since
     * it last published it.
     */
    public enum Outcome {

        PUBLISHED, UNCHANGED, KEPT

    }

    /**
     * Result of publishing one term.
     *
     * @param slug term slug
     * @param version the version now current for the slug
     * @param outcome whether a record was written
     */
    public record Result(String slug, long version, Outcome outcome) {
    }

    private record LedgerEntry(String contentHash, long version, String corpusHash) {
    }

    /**
     * Reads the compacted reference and term topics up to their current end offsets (from
     * the beginning on the first call, from where it stopped afterwards) and remembers
     * the last content hash and version per key.
     * @param timeout how long to wait for the end offsets and the records
     * @throws PublishException if the topics cannot be read in time
     */
    public void catchUp(Duration timeout) {
        Deadline until = Deadline.after(timeout);
        lock(until);
        try {
            catchUpLocked(until);
        }
        finally {
            lock.unlock();
        }
    }

    private void lock(Deadline until) {
        try {
            if (!lock.tryLock(until.remaining().toNanos(), TimeUnit.NANOSECONDS)) {
                throw new PublishException("another publish held the ledger past the deadline; nothing was published");
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted; nothing was published", e);
        }
    }

    private void catchUpLocked(Deadline until) {
        try {
            catchUpLocked(until, until.remaining());
        }
        catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw new PublishException("could not read the publish ledger within the deadline; nothing was published",
                    e);
        }
    }

    private void catchUpLocked(Deadline until, Duration timeout) {
        if (ledgerPartitions == null) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : LEDGER_TOPICS) {
                List<PartitionInfo> infos = ledger.partitionsFor(topic, timeout);
                if (infos != null) {
                    infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
                }
            }
            ledger.assign(partitions);
            ledger.seekToBeginning(partitions);
            ledgerPartitions = partitions;
        }
        Map<TopicPartition, Long> end = ledger.endOffsets(ledgerPartitions, until.remaining());
        int records = 0;
        while (ledgerPartitions.stream().anyMatch(tp -> ledger.position(tp, until.remaining()) < end.get(tp))) {
            if (until.expired()) {
                throw new PublishException(
                        "could not read the publish ledger within the deadline; nothing was" + " published");
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
            }
            else {
                TermUpdate t;
                try {
                    t = termSerde.deserialize(r.topic(), r.value());
                }
                catch (RuntimeException e) {
                    skip(r, e);
                    return;
                }
                Header header = r.headers().lastHeader(CORPUS_HASH_HEADER);
                // Records from before the header existed: a corpus record is its own
                // baseline.
                String corpusHash = header != null ? new String(header.value(), StandardCharsets.UTF_8)
                        : "corpus".equals(t.getOrigin()) ? t.getContentHash() : null;
                terms.merge(r.key(), new LedgerEntry(t.getContentHash(), t.getVersion(), corpusHash),
                        (a, b) -> b.version() >= a.version() ? b : a);
            }
        }
        else if (r.value() != null) {
            try {
                // Reference records are compared by their bytes; decode only to tell
                // poison from data.
                (r.topic().equals(Topics.LAYERS) ? layerSerde : companySerde).deserialize(r.topic(), r.value());
            }
            catch (RuntimeException e) {
                skip(r, e);
                return;
            }
            referenceHashes.put(r.topic() + "/" + r.key(), Sha256.hex(r.value()));
        }
    }

    private void skip(ConsumerRecord<String, byte[]> r, RuntimeException e) {
        if (deadLetters != null) {
            deadLetters.send(r, r.key().getBytes(StandardCharsets.UTF_8), r.value(), DeadLetters.Reason.UNDECODABLE, e);
        }
        else {
            log.warn("skipping an undecodable record at {}: {}", DeadLetters.origin(r), e.getMessage());
        }
    }

    /**
     * Publishes a term unless the slug's last published content is identical.
     * @param content the term's content
     * @return the slug, the current version and whether anything was written
     * @throws PublishException if the broker does not acknowledge the record
     */
    public Result publish(TermContent content) {
        return publish(content, Deadline.after(deadline));
    }

    /**
     * Publishes a term unless the slug's last published content is identical.
     * @param content the term's content
     * @param until when the caller must have its answer (lock wait and ledger catch-up
     * included)
     * @return the slug, the current version and whether anything was written
     * @throws PublishException if it was not published; see {@link RecordSink#publish}
     * for its subtypes
     */
    public Result publish(TermContent content, Deadline until) {
        return publishAll(List.of(content), until).get(0);
    }

    private record Pending(String slug, String hash, long version, String corpusHash,
            ProducerRecord<String, byte[]> record) {
    }

    /**
     * Publishes every term, sending them all before awaiting the acknowledgements.
     * @param contents terms to publish
     * @return one result per term, in order
     * @throws PublishException if any record is not acknowledged (earlier ones may have
     * been written; they are idempotent to re-publish)
     */
    public List<Result> publishAll(List<TermContent> contents) {
        return publishAll(contents, Deadline.after(BULK_TIMEOUT), false);
    }

    /**
     * Loads a bundled corpus's terms without undoing users' changes, in one transaction.
     * Per slug, against the ledger:
     * <ul>
     * <li>never published: published;</li>
     * <li>the same content is current: {@link Outcome#UNCHANGED};</li>
     * <li>the corpus's content is what the corpus last published, but someone changed the
     * term since: {@link Outcome#KEPT} (the user's change stays);</li>
     * <li>the term exists but the corpus never published it (a user made it first):
     * {@link Outcome#KEPT};</li>
     * <li>the corpus's content differs from what the corpus last published (the corpus
     * changed): published, and it becomes the new baseline.</li>
     * </ul>
     * @param contents the corpus's terms
     * @return one result per term, in order
     * @throws PublishException if the records are not committed (a reload publishes only
     * what is missing)
     */
    public List<Result> publishCorpus(List<TermContent> contents) {
        return publishAll(contents, Deadline.after(BULK_TIMEOUT), true);
    }

    private List<Result> publishAll(List<TermContent> contents, Deadline until) {
        return publishAll(contents, until, false);
    }

    private List<Result> publishAll(List<TermContent> contents, Deadline until, boolean corpus) {
        lock(until);
        try {
            catchUpLocked(until);
            List<Result> results = new ArrayList<>();
            List<Pending> pending = new ArrayList<>();
            Map<String, LedgerEntry> planned = new HashMap<>();
            for (TermContent content : contents) {
                String hash = content.contentHash();
                LedgerEntry last = planned.containsKey(content.slug()) ? planned.get(content.slug())
                        : terms.get(content.slug());
                if (last != null && last.contentHash().equals(hash)) {
                    results.add(new Result(content.slug(), last.version(), Outcome.UNCHANGED));
                    continue;
                }
                if (corpus && last != null && (last.corpusHash() == null || last.corpusHash().equals(hash))) {
                    results.add(new Result(content.slug(), last.version(), Outcome.KEPT));
                    continue;
                }
                // A corpus load sets the baseline; anyone else's change carries the
                // corpus's baseline forward.
                String corpusHash = corpus ? hash : last == null ? null : last.corpusHash();
                Instant now = clock.instant();
                long version = Math.max(now.toEpochMilli(), last == null ? 1 : last.version() + 1);
                TermUpdate update = content.toTermUpdate(version, now);
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.TERMS, content.slug(),
                        termSerde.serialize(Topics.TERMS, update));
                if (corpusHash != null) {
                    record.headers().add(CORPUS_HASH_HEADER, corpusHash.getBytes(StandardCharsets.UTF_8));
                }
                pending.add(new Pending(content.slug(), hash, version, corpusHash, record));
                planned.put(content.slug(), new LedgerEntry(hash, version, corpusHash));
                results.add(new Result(content.slug(), version, Outcome.PUBLISHED));
            }
            meters.accepted("term", contents.size());
            if (!pending.isEmpty()) {
                sink.publish(pending.stream().map(Pending::record).toList(), until);
                meters.published("term", pending.size());
                pending.forEach(p -> terms.put(p.slug(), new LedgerEntry(p.hash(), p.version(), p.corpusHash())));
            }
            return results;
        }
        finally {
            lock.unlock();
        }
    }

    /**
     * Publishes chain layers and companies whose bytes differ from what the topic already
     * holds.
     * @param layers layers, keyed by id
     * @param companies companies, keyed by id
     * @return how many records were written
     * @throws PublishException if the broker does not acknowledge a record
     */
    public int publishReference(List<ChainLayer> layers, List<Company> companies) {
        Deadline until = Deadline.after(BULK_TIMEOUT);
        lock(until);
        try {
            catchUpLocked(until);
            List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
            List<Runnable> commits = new ArrayList<>();
            for (ChainLayer l : layers) {
                addIfChanged(Topics.LAYERS, l.getId(), layerSerde.serialize(Topics.LAYERS, l), records, commits);
            }
            for (Company c : companies) {
                addIfChanged(Topics.COMPANIES, c.getId(), companySerde.serialize(Topics.COMPANIES, c), records,
                        commits);
            }
            sink.publish(records, until);
            meters.published("reference", records.size());
            commits.forEach(Runnable::run);
            return records.size();
        }
        finally {
            lock.unlock();
        }
    }

    private void addIfChanged(String topic, String key, byte[] value, List<ProducerRecord<String, byte[]>> records,
            List<Runnable> commits) {
        String ledgerKey = topic + "/" + key;
        String hash = Sha256.hex(value);
        if (hash.equals(referenceHashes.get(ledgerKey))) {
            return;
        }
        records.add(new ProducerRecord<>(topic, key, value));
        commits.add(() -> referenceHashes.put(ledgerKey, hash));
    }

}
