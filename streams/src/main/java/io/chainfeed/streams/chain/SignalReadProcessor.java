package io.chainfeed.streams.chain;

import static io.chainfeed.streams.reference.ReferenceStores.values;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.streams.reference.ReferenceStores;
import io.chainfeed.streams.tagging.ReadVersions;
import java.time.Instant;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Tags each constraint signal into a read ({@link SignalReads}), keeps the signal and the read last
 * published for it, and re-tags every kept signal when reference data (layers, companies, glossary
 * terms) changes. Reads are published through {@link ReadVersions}: a read whose content equals the
 * one last published for its signal is not written at all, so a glossary page that leaves a signal's
 * tags as they were yields no new version of that signal's read (no record on the reads topic, so
 * nothing pushed over SSE or sent as a webhook).
 *
 * <p>Stores: {@value ChainStateTopology#SIGNAL_READS_STORE} (signal id -> latest ConstraintSignal) and
 * {@value #SENT_STORE} (read id -> Read last published). A signal kept from before the latter store
 * existed is compared, on a re-tag, with its read under the previous dictionary.
 */
final class SignalReadProcessor implements Processor<String, ConstraintSignal, String, Read> {
    /** The read last published per read id: the base of the next version's sequence and changes. */
    static final String SENT_STORE = "signal-reads-sent-store";

    private final ReferenceStores.Clock reference;
    private ProcessorContext<String, Read> context;
    private KeyValueStore<String, ChainLayer> layers;
    private KeyValueStore<String, Company> companies;
    private KeyValueStore<String, TermUpdate> terms;
    private KeyValueStore<String, ConstraintSignal> signals;
    private KeyValueStore<String, Read> sent;
    private SignalReads reads;
    private long builtFor = -1;
    /** The dictionary every kept signal was last tagged with, and its generation. */
    private SignalReads retagBase;
    private long retaggedFor = -1;

    SignalReadProcessor(ReferenceStores.Clock reference) {
        this.reference = reference;
    }

    /**
     * Adds the processor, its two stores and its sink to {@code builder}.
     *
     * @param builder   the chain-state topology's builder, with the reference global stores added
     * @param signals   the signals stream (signal id -> ConstraintSignal)
     * @param reference the reference data clock
     */
    static void addTo(StreamsBuilder builder, KStream<String, ConstraintSignal> signals,
            ReferenceStores.Clock reference) {
        AvroSerde<ConstraintSignal> signalSerde = AvroSerde.of(ConstraintSignal.class);
        AvroSerde<Read> readSerde = AvroSerde.of(Read.class);
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(ChainStateTopology.SIGNAL_READS_STORE), Serdes.String(), signalSerde));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(SENT_STORE), Serdes.String(), readSerde));
        signals.process(() -> new SignalReadProcessor(reference), Named.as("tag-signals"),
                        ChainStateTopology.SIGNAL_READS_STORE, SENT_STORE)
                .to(ChainStateTopology.READS_TOPIC, Produced.with(Serdes.String(), readSerde)
                        .withName("signal-reads-sink"));
    }

    @Override
    public void init(ProcessorContext<String, Read> context) {
        this.context = context;
        layers = context.getStateStore(ChainStateTopology.LAYERS_STORE);
        companies = context.getStateStore(ChainStateTopology.COMPANIES_STORE);
        terms = context.getStateStore(ChainStateTopology.TERMS_STORE);
        signals = context.getStateStore(ChainStateTopology.SIGNAL_READS_STORE);
        sent = context.getStateStore(SENT_STORE);
        ensureCurrent();
        retagBase = reads;
        retaggedFor = builtFor;
        context.schedule(ChainStateTopology.REFERENCE_CHECK, PunctuationType.WALL_CLOCK_TIME, this::retagIfChanged);
    }

    @Override
    public void process(Record<String, ConstraintSignal> record) {
        if (record.key() == null) {
            return;
        }
        String readId = SignalReads.readId(record.key());
        if (record.value() == null) {
            signals.delete(record.key());
            sent.delete(readId);
            context.forward(record.withKey(readId).withValue(null));
            return;
        }
        ConstraintSignal kept = signals.get(record.key());
        if (kept != null && kept.getVersion() > record.value().getVersion()) {
            return;
        }
        signals.put(record.key(), record.value());
        ensureCurrent();
        publish(record.withKey(readId).withValue(versioned(reads.read(record.value()), record.value())),
                sent.get(readId), context.currentSystemTimeMs());
    }

    /**
     * Compared with {@code retaggedFor}, not {@code builtFor}: a signal tagged between a reference change
     * and this check rebuilds the dictionary but must not swallow the re-tag of the others.
     */
    private void retagIfChanged(long now) {
        long generation = reference.generation();
        if (generation == retaggedFor) {
            return;
        }
        ensureCurrent();
        SignalReads before = retagBase;
        retagBase = reads;
        retaggedFor = builtFor;
        try (KeyValueIterator<String, ConstraintSignal> it = signals.all()) {
            while (it.hasNext()) {
                KeyValue<String, ConstraintSignal> kv = it.next();
                Read read = versioned(reads.read(kv.value), kv.value);
                Read last = sent.get(read.getId());
                Read base = last != null ? last : versioned(before.read(kv.value), kv.value);
                publish(new Record<>(read.getId(), read, now), base, now);
            }
        }
    }

    /**
     * @param publishedAtMs the wall clock when the version is written: the record's processing time, or the
     *                      punctuation's own time for a re-tag (the context's cached system time is only
     *                      refreshed when the task processes records, so it can be old in a punctuation)
     */
    private void publish(Record<String, Read> record, Read last, long publishedAtMs) {
        Read next = ReadVersions.next(record.value(), last, Instant.ofEpochMilli(publishedAtMs));
        if (next == null) {
            return; // nothing a reader sees changed: no new version
        }
        sent.put(record.key(), next);
        context.forward(record.withValue(next));
    }

    private void ensureCurrent() {
        long generation = reference.generation();
        if (reads == null || generation != builtFor) {
            reads = new SignalReads(values(layers), values(companies), values(terms));
            builtFor = generation;
        }
    }

    /** The candidate ordering key: the signal's version or the newest reference timestamp, whichever is later. */
    private Read versioned(Read read, ConstraintSignal signal) {
        read.setVersion(Math.max(signal.getVersion(), reference.newestTimestamp()));
        return read;
    }
}
