package io.chainfeed.streams.chain;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.reference.ReferenceStores;
import io.chainfeed.streams.tagging.ReadVersions;
import io.chainfeed.streams.tagging.RetaggingProcessor;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;

/**
 * Tags each constraint signal into a read ({@link SignalReads}), keeps the signal and the
 * read last published for it, and re-tags every kept signal when reference data (layers,
 * companies, glossary terms) changes. Reads are published through {@link ReadVersions}: a
 * read whose content equals the one last published for its signal is not written at all,
 * so a glossary page that leaves a signal's tags as they were yields no new version of
 * that signal's read (no record on the reads topic, so nothing pushed over SSE or sent as
 * a webhook). The keeping, re-tagging and publishing are {@link RetaggingProcessor}'s;
 * this class says how a signal is tagged.
 *
 * <p>
 * Stores: {@value ChainStateTopology#SIGNAL_READS_STORE} (signal id -> latest
 * ConstraintSignal) and {@value #SENT_STORE} (read id -> Read last published). A signal
 * kept from before the latter store existed is compared, on a re-tag, with its read under
 * the previous dictionary.
 */
final class SignalReadProcessor extends RetaggingProcessor<ConstraintSignal, SignalReads> {

    /**
     * The read last published per read id: the base of the next version's sequence and
     * changes.
     */
    static final String SENT_STORE = "signal-reads-sent-store";

    private static final Names NAMES = new Names("tag-signals", ChainStateTopology.SIGNAL_READS_STORE, SENT_STORE,
            "signal-reads-sink");

    SignalReadProcessor(ReferenceStores stores, StreamsMeters meters) {
        super(stores, NAMES, new Tagging<>("signal", SignalReads::new, SignalReads::read, ConstraintSignal::getVersion,
                SignalReads::readId), meters);
    }

    /**
     * Adds the processor, its two stores and its sink to {@code builder}.
     * @param builder the chain-state topology's builder, with the reference global stores
     * added
     * @param signals the signals stream (signal id -> ConstraintSignal)
     * @param reference the reference stores and their clock
     * @param meters where the reads sent count
     */
    static void addTo(StreamsBuilder builder, KStream<String, ConstraintSignal> signals, ReferenceStores reference,
            StreamsMeters meters) {
        RetaggingProcessor.addTo(builder, signals, ConstraintSignal.class, NAMES,
                () -> new SignalReadProcessor(reference, meters));
    }

    /** A signal of a lower version than the one kept arrived late: dropped. */
    @Override
    protected boolean stale(ConstraintSignal incoming, ConstraintSignal kept) {
        return kept.getVersion() > incoming.getVersion();
    }

}
