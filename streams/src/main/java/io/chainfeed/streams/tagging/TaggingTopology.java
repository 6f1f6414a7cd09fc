package io.chainfeed.streams.tagging;

import io.chainfeed.avro.Read;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.reference.ReferenceStores;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The tagging topology.
 *
 * <pre>
 * {@value Topics#LAYERS}    (layer id   -> ChainLayer) ──► global store reference-layers-store
 * {@value Topics#COMPANIES} (company id -> Company)    ──► global store reference-companies-store
 * {@value Topics#REFERENCE_TERMS} (slug -> TermUpdate) ──► global store reference-terms-store
 * {@value Topics#TERMS}     (slug -> TermUpdate) ─┬─► tag ──► {@value Topics#READS} (term:&lt;slug&gt; -> Read)
 *                                                  └─► copy ─► {@value Topics#REFERENCE_TERMS}
 * </pre>
 *
 * Glossary terms are reference data too: every term title and alias is in the tagger's
 * dictionary. The input topic is partitioned, so each task sees only its own terms; the
 * topology therefore copies every term record (tombstones included) to the
 * single-partition compacted {@value Topics#REFERENCE_TERMS}, in the same transaction as
 * the read it tags (exactly-once when the application runs with EOS), and reads it back
 * into a global store that every instance holds whole.
 *
 * Reference data lives in compacted topics read into global stores; each update there
 * bumps a generation counter and the highest reference record timestamp. The tagging
 * processor keeps the latest term per slug in {@value #TERMS_STORE}; once a second (wall
 * clock) it checks the generation and, if reference data changed, rebuilds its
 * {@link Tagger} (an Aho-Corasick dictionary) and re-tags every stored term, so new
 * companies and aliases reach existing reads without a restart. A read's version is
 * {@code max(term version, newest reference timestamp)} (both epoch milliseconds), so a
 * re-tagged read supersedes the earlier one in the index. A tombstone for a slug becomes
 * a tombstone for its read.
 *
 * <p>
 * Term history: the processor also keeps the last read it sent per read id in
 * {@value #READS_STORE} and publishes through {@link ReadVersions}: a read whose content
 * equals the one last sent is not published at all; otherwise it gets the next
 * {@code sequence} (1, 2, 3 ...: the version people see), a {@code publishedAt} (the
 * processor's wall clock), names the version it supersedes ({@code previousVersion}) and
 * lists what changed against it ({@code changes}, computed by {@link ReadChanges}):
 * sections, summary, tags, sources after an edit, and the tags a reference change added
 * or removed after a re-tag. A re-tag that changes tags also moves {@code updatedAt} to
 * the newest reference timestamp (event time), so feeds show the read as updated; an edit
 * keeps the term's own {@code updatedAt}.
 */
public final class TaggingTopology {

    /**
     * The reference stores: {@code reference-layers-store},
     * {@code reference-companies-store}, {@code reference-terms-store}.
     */
    public static final ReferenceStores.Names REFERENCE_STORES = new ReferenceStores.Names("reference-");

    public static final String TERMS_STORE = "tagging-terms-store";

    /** The last read sent per read id: the base of the next version's {@code changes}. */
    public static final String READS_STORE = "tagging-reads-store";

    private TaggingTopology() {
    }

    /**
     * Builds the topology; pure, no I/O.
     * @param config streams config (unused for now; kept so callers pass serde and topic
     * overrides the same way as other topologies)
     * @param meters where the reads sent count
     * @return the topology, with every processor, source, sink and store named
     */
    public static Topology buildTopology(Properties config, StreamsMeters meters) {
        AvroSerde<TermUpdate> termSerde = AvroSerde.of(TermUpdate.class);
        StreamsBuilder builder = new StreamsBuilder();
        ReferenceStores reference = ReferenceStores.addTo(builder, REFERENCE_STORES);

        KStream<String, TermUpdate> input = builder.stream(Topics.TERMS,
                Consumed.with(Serdes.String(), termSerde).withName("terms-source"));
        input.to(Topics.REFERENCE_TERMS, Produced.with(Serdes.String(), termSerde).withName("reference-terms-sink"));
        RetaggingProcessor.addTo(builder, input, TermUpdate.class, TermTaggingProcessor.NAMES,
                () -> new TermTaggingProcessor(reference, meters));
        return builder.build();
    }

    /**
     * Tags each term update with the {@link Tagger} of the current reference generation,
     * keeps the term, and re-tags every kept term when the dictionary changes
     * ({@link RetaggingProcessor}). A change that leaves the dictionary as it was (a
     * term's body edited, a record re-sent) re-tags nothing; otherwise only reads whose
     * tags differ from the read last sent (or, for a term kept before the reads store
     * existed, from its tags under the old dictionary) are forwarded, with
     * {@code updatedAt} moved to the newest reference timestamp.
     */
    static final class TermTaggingProcessor extends RetaggingProcessor<TermUpdate, Tagger> {

        static final Names NAMES = new Names("tag-terms", TERMS_STORE, READS_STORE, "reads-sink");

        TermTaggingProcessor(ReferenceStores stores, StreamsMeters meters) {
            super(stores, NAMES,
                    new Tagging<>("term", Tagger::build, Tagger::tag, TermUpdate::getVersion, Tagger::readId), meters);
        }

        @Override
        protected boolean sameDictionary(Tagger before, Tagger after) {
            return before.signature() == after.signature();
        }

        @Override
        protected Read retagged(Read read, Read base) {
            if (ReadVersions.sameTags(read, base)) {
                return null;
            }
            long referenceTime = newestReferenceTimestamp();
            if (referenceTime > read.getUpdatedAt().toEpochMilli()) {
                read.setUpdatedAt(Instant.ofEpochMilli(referenceTime));
            }
            return read;
        }

    }

}
