package io.chainfeed.streams.tagging;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.reference.ReferenceStores;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Turns each source record (a glossary term, a constraint signal; key its id, value null
 * for a tombstone) into a tagged {@link Read}, keeps the latest source per key and the
 * read last published per read id, and re-tags every kept source when reference data
 * (layers, companies, glossary terms) changes. A {@link Tagging} says how a dictionary is
 * built from reference data and how it tags one source; a subclass may drop stale sources
 * and narrow what a re-tag publishes.
 *
 * <p>
 * Reads are published through {@link ReadVersions}: a read whose content equals the one
 * last published for its id is not written at all, so a reference change that leaves a
 * read as it was yields no new version (no record on the reads topic, nothing pushed over
 * SSE or sent as a webhook). A read's ordering {@code version} is
 * {@code max(source version, newest reference timestamp)}, epoch ms.
 *
 * <p>
 * Two generations are tracked: the one the current dictionary was built for (rebuilt
 * lazily before tagging, so a new source is always tagged with the newest reference data)
 * and the one all kept sources were last re-tagged for. The punctuation (every
 * {@link #RETAG_CHECK}, wall clock) compares the latter, so a source arriving between a
 * reference change and the next check does not swallow the re-tag. A source kept from
 * before the sent-reads store existed is compared, on a re-tag, with its read under the
 * previous dictionary.
 *
 * @param <V> the source record type
 * @param <D> the dictionary built from one generation of reference data
 */
public abstract class RetaggingProcessor<V, D> implements Processor<String, V, String, Read> {

    /** How often the punctuation checks for changed reference data (wall clock). */
    public static final Duration RETAG_CHECK = Duration.ofSeconds(1);

    private final ReferenceStores stores;

    private final Names names;

    private final Tagging<V, D> tagging;

    private final StreamsMeters meters;

    private ProcessorContext<String, Read> context;

    private ReferenceStores.View reference;

    private KeyValueStore<String, V> kept;

    private KeyValueStore<String, Read> sent;

    private D dictionary;

    private long builtFor = -1;

    /** The dictionary every kept source was last tagged with, and its generation. */
    private D retagBase;

    private long retaggedFor = -1;

    /**
     * The names a re-tagging processor is wired under in its topology.
     *
     * @param processor the processor node, e.g. {@code tag-terms}
     * @param keptStore the persistent store of the latest source per key
     * @param sentStore the persistent store of the read last published per read id
     * @param sink the sink node writing its reads to {@value Topics#READS}
     */
    public record Names(String processor, String keptStore, String sentStore, String sink) {
    }

    /**
     * Builds a dictionary from one generation of reference data, e.g.
     * {@link Tagger#build}.
     *
     * @param <D> the dictionary type
     */
    @FunctionalInterface
    public interface Dictionary<D> {

        /**
         * @param layers every chain layer
         * @param companies every company
         * @param terms every glossary term
         * @return the dictionary
         */
        D build(Collection<ChainLayer> layers, Collection<Company> companies, Collection<TermUpdate> terms);

    }

    /**
     * How one kind of source is tagged.
     *
     * @param kind the kind of source, e.g. {@code term}: the {@code kind} tag of the
     * tagged-reads meter
     * @param dictionary builds the dictionary of a reference generation
     * @param tag tags a source with a dictionary; the read's id is {@code readId} of the
     * source's key
     * @param version the source's own version (epoch ms or a counter that grows with each
     * edit)
     * @param readId the read id of a source key
     * @param <V> the source record type
     * @param <D> the dictionary type
     */
    public record Tagging<V, D>(String kind, Dictionary<D> dictionary, BiFunction<D, V, Read> tag,
            ToLongFunction<V> version, UnaryOperator<String> readId) {
    }

    /**
     * @param stores the topology's reference stores and clock
     * @param names the processor's stores (and nodes)
     * @param tagging how a source is tagged
     * @param meters where the reads sent count ({@code kind} = the tagging's kind)
     * @throws NullPointerException if {@code meters} is null
     */
    protected RetaggingProcessor(ReferenceStores stores, Names names, Tagging<V, D> tagging, StreamsMeters meters) {
        this.stores = stores;
        this.names = names;
        this.tagging = tagging;
        this.meters = Objects.requireNonNull(meters, "meters");
    }

    /**
     * Adds a re-tagging processor to a topology under construction: its two persistent
     * stores, the processor over {@code sources} and the sink of its reads to
     * {@value Topics#READS}.
     * @param builder the topology's builder, with the reference global stores added
     * @param sources the source stream (key -> source record, null for a tombstone)
     * @param sourceType the source record's Avro class
     * @param names where the processor is wired
     * @param processor makes one processor a task
     * @param <V> the source record type
     */
    public static <V extends SpecificRecord> void addTo(StreamsBuilder builder, KStream<String, V> sources,
            Class<V> sourceType, Names names, ProcessorSupplier<String, V, String, Read> processor) {
        AvroSerde<Read> readSerde = AvroSerde.of(Read.class);
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(names.keptStore()),
                Serdes.String(), AvroSerde.of(sourceType)));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(names.sentStore()),
                Serdes.String(), readSerde));
        sources.process(processor, Named.as(names.processor()), names.keptStore(), names.sentStore())
            .to(Topics.READS, Produced.with(Serdes.String(), readSerde).withName(names.sink()));
    }

    /**
     * @param incoming a source just arrived
     * @param kept the one kept for the same key
     * @return whether {@code incoming} is older than {@code kept} and is dropped; never,
     * unless overridden
     */
    protected boolean stale(V incoming, V kept) {
        return false;
    }

    /**
     * @param before the dictionary the kept sources were last tagged with
     * @param after the current one
     * @return whether re-tagging can change nothing, so it is skipped; false unless
     * overridden
     */
    protected boolean sameDictionary(D before, D after) {
        return false;
    }

    /**
     * What a re-tag publishes for one kept source, before {@link ReadVersions} drops it
     * when nothing changed.
     * @param read the source's read under the current dictionary, versioned
     * @param base the read last published, or the read under the previous dictionary
     * @return the read to publish, or null to publish nothing; {@code read} unless
     * overridden
     */
    protected Read retagged(Read read, Read base) {
        return read;
    }

    /**
     * @return the newest reference record timestamp, epoch ms; 0 before any
     */
    protected final long newestReferenceTimestamp() {
        return reference.clock().newestTimestamp();
    }

    @Override
    public void init(ProcessorContext<String, Read> context) {
        this.context = context;
        reference = stores.open(context);
        kept = context.getStateStore(names.keptStore());
        sent = context.getStateStore(names.sentStore());
        ensureCurrent();
        retagBase = dictionary;
        retaggedFor = builtFor;
        context.schedule(RETAG_CHECK, PunctuationType.WALL_CLOCK_TIME, this::retagIfChanged);
    }

    @Override
    public void process(Record<String, V> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            String readId = tagging.readId().apply(record.key());
            kept.delete(record.key());
            sent.delete(readId);
            context.forward(record.withKey(readId).withValue(null));
            return;
        }
        V before = kept.get(record.key());
        if (before != null && stale(record.value(), before)) {
            return;
        }
        kept.put(record.key(), record.value());
        ensureCurrent();
        Read read = versioned(tagging.tag().apply(dictionary, record.value()), record.value());
        publish(record.withKey(read.getId()).withValue(read), sent.get(read.getId()), context.currentSystemTimeMs());
    }

    private void retagIfChanged(long now) {
        if (reference.clock().generation() == retaggedFor) {
            return;
        }
        ensureCurrent();
        D before = retagBase;
        retagBase = dictionary;
        retaggedFor = builtFor;
        if (sameDictionary(before, dictionary)) {
            return;
        }
        try (KeyValueIterator<String, V> it = kept.all()) {
            while (it.hasNext()) {
                KeyValue<String, V> kv = it.next();
                Read read = versioned(tagging.tag().apply(dictionary, kv.value), kv.value);
                Read last = sent.get(read.getId());
                Read base = last != null ? last : versioned(tagging.tag().apply(before, kv.value), kv.value);
                Read next = retagged(read, base);
                if (next != null) {
                    publish(new Record<>(next.getId(), next, now), base, now);
                }
            }
        }
    }

    /**
     * Publishes {@code record}'s read as the version after {@code last}
     * ({@link ReadVersions#next}), unless it changes nothing a reader sees.
     * @param publishedAtMs the wall clock when the version is written: the record's
     * processing time, or the punctuation's own time for a re-tag (the context's cached
     * system time is refreshed only when the task processes records, so it can be old in
     * a punctuation)
     */
    private void publish(Record<String, Read> record, Read last, long publishedAtMs) {
        Read next = ReadVersions.next(record.value(), last, Instant.ofEpochMilli(publishedAtMs));
        if (next == null) {
            return;
        }
        sent.put(record.key(), next);
        context.forward(record.withValue(next));
        meters.tagged(tagging.kind(), 1);
    }

    private void ensureCurrent() {
        long generation = reference.clock().generation();
        if (dictionary == null || generation != builtFor) {
            dictionary = tagging.dictionary().build(reference.layers(), reference.companies(), reference.terms());
            builtFor = generation;
        }
    }

    private Read versioned(Read read, V source) {
        read.setVersion(Math.max(tagging.version().applyAsLong(source), newestReferenceTimestamp()));
        return read;
    }

}
