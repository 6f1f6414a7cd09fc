package io.chainfeed.streams.tagging;

import static io.chainfeed.streams.reference.ReferenceStores.values;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.reference.ReferenceStores;
import java.util.Properties;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The tagging topology.
 *
 * <pre>
 * {@value #LAYERS_TOPIC}    (layer id   -> ChainLayer) ──► global store {@value #LAYERS_STORE}
 * {@value #COMPANIES_TOPIC} (company id -> Company)    ──► global store {@value #COMPANIES_STORE}
 * {@value #REFERENCE_TERMS_TOPIC} (slug -> TermUpdate) ──► global store {@value #REFERENCE_TERMS_STORE}
 * {@value #INPUT_TOPIC}     (slug -> TermUpdate) ─┬─► tag ──► {@value #OUTPUT_TOPIC} (term:&lt;slug&gt; -> Read)
 *                                                  └─► copy ─► {@value #REFERENCE_TERMS_TOPIC}
 * </pre>
 *
 * Glossary terms are reference data too: every term title and alias is in the tagger's dictionary.
 * The input topic is partitioned, so each task sees only its own terms; the topology therefore
 * copies every term record (tombstones included) to the single-partition compacted
 * {@value #REFERENCE_TERMS_TOPIC}, in the same transaction as the read it tags (exactly-once when
 * the application runs with EOS), and reads it back into a global store that every instance holds
 * whole.
 *
 * Reference data lives in compacted topics read into global stores; each update there bumps a
 * generation counter and the highest reference record timestamp. The tagging processor keeps the
 * latest term per slug in {@value #TERMS_STORE}; once a second (wall clock) it checks the
 * generation and, if reference data changed, rebuilds its {@link Tagger} (an Aho-Corasick
 * dictionary) and re-tags every stored term, so new companies and aliases reach existing reads
 * without a restart. A read's version is {@code max(term version, newest reference timestamp)}
 * (both epoch milliseconds), so a re-tagged read supersedes the earlier one in the index. A
 * tombstone for a slug becomes a tombstone for its read.
 *
 * <p>Term history: the processor also keeps the last read it sent per read id in {@value #READS_STORE}
 * and publishes through {@link ReadVersions}: a read whose content equals the one last sent is not
 * published at all; otherwise it gets the next {@code sequence} (1, 2, 3 ...: the version people see),
 * a {@code publishedAt} (the processor's wall clock), names the version it supersedes
 * ({@code previousVersion}) and lists what changed against it ({@code changes}, computed by
 * {@link ReadChanges}): sections, summary, tags, sources after an edit, and the tags a reference change
 * added or removed after a re-tag. A re-tag that changes tags
 * also moves {@code updatedAt} to the newest reference timestamp (event time), so feeds show the read as
 * updated; an edit keeps the term's own {@code updatedAt}.
 */
public final class TaggingTopology {
    public static final String INPUT_TOPIC = Topics.TERMS;
    public static final String OUTPUT_TOPIC = Topics.READS;
    public static final String LAYERS_TOPIC = Topics.LAYERS;
    public static final String COMPANIES_TOPIC = Topics.COMPANIES;
    public static final String REFERENCE_TERMS_TOPIC = Topics.REFERENCE_TERMS;
    public static final String LAYERS_STORE = "reference-layers-store";
    public static final String COMPANIES_STORE = "reference-companies-store";
    public static final String REFERENCE_TERMS_STORE = "reference-terms-store";
    public static final String TERMS_STORE = "tagging-terms-store";
    /** The last read sent per read id: the base of the next version's {@code changes}. */
    public static final String READS_STORE = "tagging-reads-store";
    /** How often the processor checks for changed reference data (wall clock). */
    static final Duration RETAG_CHECK = Duration.ofSeconds(1);

    private TaggingTopology() {
    }

    /**
     * Builds the topology; pure, no I/O.
     *
     * @param config streams config (unused for now; kept so callers pass serde and topic overrides
     *               the same way as other topologies)
     * @return the topology, with every processor, source, sink and store named
     */
    public static Topology buildTopology(Properties config) {
        AvroSerde<ChainLayer> layerSerde = AvroSerde.of(ChainLayer.class);
        AvroSerde<Company> companySerde = AvroSerde.of(Company.class);
        AvroSerde<TermUpdate> termSerde = AvroSerde.of(TermUpdate.class);
        AvroSerde<Read> readSerde = AvroSerde.of(Read.class);
        StreamsBuilder builder = new StreamsBuilder();
        ReferenceStores.Clock generation = ReferenceStores.addTo(builder, "reference-", "reference-").clock();

        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(TERMS_STORE), Serdes.String(), termSerde));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(READS_STORE), Serdes.String(), readSerde));
        KStream<String, TermUpdate> input =
                builder.stream(INPUT_TOPIC, Consumed.with(Serdes.String(), termSerde).withName("terms-source"));
        input.to(REFERENCE_TERMS_TOPIC, Produced.with(Serdes.String(), termSerde).withName("reference-terms-sink"));
        input.process(() -> new TermTaggingProcessor(generation), Named.as("tag-terms"), TERMS_STORE,
                        READS_STORE)
                .to(OUTPUT_TOPIC, Produced.with(Serdes.String(), readSerde).withName("reads-sink"));
        return builder.build();
    }

    /**
     * Tags each term update with the dictionary of the current reference generation, keeps the term,
     * and re-tags every kept term when the dictionary changes.
     *
     * <p>Two generations are tracked: the one the current {@link Tagger} was built for (rebuilt lazily
     * before tagging, so a new term is always tagged with the newest reference data) and the one all
     * kept terms were last re-tagged for. The punctuation compares the latter, so a term arriving
     * between a reference change and the next check does not swallow the re-tag. A change that leaves
     * the dictionary as it was (a term's body edited, a record re-sent) re-tags nothing; otherwise every
     * kept term is tagged with the new dictionary and only reads whose tags differ from the read last sent
     * (or, for a term kept before the reads store existed, from its tags under the old dictionary) are
     * forwarded.
     */
    static final class TermTaggingProcessor implements Processor<String, TermUpdate, String, Read> {
        private final ReferenceStores.Clock reference;
        private ProcessorContext<String, Read> context;
        private KeyValueStore<String, ChainLayer> layers;
        private KeyValueStore<String, Company> companies;
        private KeyValueStore<String, TermUpdate> referenceTerms;
        private KeyValueStore<String, TermUpdate> terms;
        private KeyValueStore<String, Read> sent;
        private Tagger tagger;
        private long builtFor = -1;
        /** The dictionary every kept term was last tagged with, and its generation. */
        private Tagger retagBase;
        private long retaggedFor = -1;

        TermTaggingProcessor(ReferenceStores.Clock reference) {
            this.reference = reference;
        }

        @Override
        public void init(ProcessorContext<String, Read> context) {
            this.context = context;
            this.layers = context.getStateStore(LAYERS_STORE);
            this.companies = context.getStateStore(COMPANIES_STORE);
            this.referenceTerms = context.getStateStore(REFERENCE_TERMS_STORE);
            this.terms = context.getStateStore(TERMS_STORE);
            this.sent = context.getStateStore(READS_STORE);
            builtFor = reference.generation();
            tagger = Tagger.build(values(layers), values(companies), values(referenceTerms));
            retagBase = tagger;
            retaggedFor = builtFor;
            context.schedule(RETAG_CHECK, PunctuationType.WALL_CLOCK_TIME, this::retagIfReferenceChanged);
        }

        @Override
        public void process(Record<String, TermUpdate> record) {
            if (!ReferenceStores.apply(terms, record)) {
                return;
            }
            if (record.value() == null) {
                sent.delete(Tagger.readId(record.key()));
                context.forward(record.withKey(Tagger.readId(record.key())).withValue(null));
                return;
            }
            Read read = tag(record.value());
            send(record.withKey(read.getId()).withValue(read), sent.get(read.getId()), context.currentSystemTimeMs());
        }

        /**
         * Publishes {@code read} as the version after {@code last} ({@link ReadVersions#next}), unless it
         * changes nothing: then nothing is written, so no subscriber sees a version that differs only in
         * its number. {@code publishedAtMs} is the wall clock when it is written: the record's processing
         * time, or the punctuation's own time for a re-tag (the context's cached system time is refreshed
         * only when the task processes records, so it can be old inside a punctuation).
         */
        private void send(Record<String, Read> record, Read last, long publishedAtMs) {
            Read next = ReadVersions.next(record.value(), last, Instant.ofEpochMilli(publishedAtMs));
            if (next == null) {
                return;
            }
            sent.put(record.key(), next);
            context.forward(record.withValue(next));
            StreamsMeters.tagged("term", 1);
        }

        private void ensureCurrent() {
            long current = reference.generation();
            if (current != builtFor) {
                tagger = Tagger.build(values(layers), values(companies), values(referenceTerms));
                builtFor = current;
            }
        }

        private Read tag(TermUpdate term) {
            ensureCurrent();
            return versioned(tagger.tag(term), term);
        }

        private Read versioned(Read read, TermUpdate term) {
            read.setVersion(Math.max(term.getVersion(), reference.newestTimestamp()));
            return read;
        }

        private void retagIfReferenceChanged(long now) {
            if (reference.generation() == retaggedFor) {
                return;
            }
            ensureCurrent();
            Tagger before = retagBase;
            retagBase = tagger;
            retaggedFor = builtFor;
            if (tagger.signature() == before.signature()) {
                return; // the dictionary did not change
            }
            try (KeyValueIterator<String, TermUpdate> it = terms.all()) {
                while (it.hasNext()) {
                    KeyValue<String, TermUpdate> kv = it.next();
                    Read read = tagger.tag(kv.value);
                    Read last = sent.get(read.getId());
                    Read base = last != null ? last : versioned(before.tag(kv.value), kv.value);
                    if (!ReadVersions.sameTags(read, base)) {
                        versioned(read, kv.value);
                        long referenceTime = reference.newestTimestamp();
                        if (referenceTime > read.getUpdatedAt().toEpochMilli()) {
                            read.setUpdatedAt(Instant.ofEpochMilli(referenceTime));
                        }
                        send(new Record<>(read.getId(), read, now), base, now);
                    }
                }
            }
        }

    }
}
