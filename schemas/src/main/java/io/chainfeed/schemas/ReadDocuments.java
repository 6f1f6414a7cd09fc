package io.chainfeed.schemas;

import io.chainfeed.avro.CompanyTag;
import io.chainfeed.avro.Evidence;
import io.chainfeed.avro.LayerTag;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.SignalPart;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermTag;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Maps a {@link Read} to the {@link ReadDocument} stored in the reads index (written by
 * the streams indexer, read back by the api; mapping:
 * {@code io/chainfeed/platform/reads-index-v1.json}). Field names are the Avro field
 * names; {@code kind} is lower case; {@code updatedAt}, {@code publishedAt} and
 * {@code observedAt} are ISO-8601 UTC instants ({@code observedAt} null for a term);
 * {@code changes} lists {@code field}, {@code change}, {@code key}, {@code detail}
 * (computed by the streams module's {@code ReadChanges}); {@code signal} is a signal
 * read's values and who decided them ({@link SignalViews}), null for other reads.
 *
 * <p>
 * Versions: the document's {@code version} is the version people see, the read's
 * {@code sequence} (1, 2, 3 ...), and {@code previousVersion} the one before it (null for
 * version 1). The Avro {@code version}, an internal ordering key, is not in the document:
 * the indexer passes it as the document's external version. A read written before
 * sequences existed (sequence 0) keeps its old numbers until its next version.
 */
public final class ReadDocuments {

    private ReadDocuments() {
    }

    /**
     * The version a read's document shows as {@code version}: its sequence (1, 2, 3 ...)
     * when it has one, else its version.
     * @param read a read
     * @return the document's {@code version}
     */
    public static long version(Read read) {
        return read.getSequence() > 0 ? read.getSequence() : read.getVersion();
    }

    /**
     * @param read a tagged read
     * @return its document
     */
    public static ReadDocument toDocument(Read read) {
        return toDocument(read, null);
    }

    /**
     * @param read a tagged read
     * @param recordPublishedAt when the read's record was written to its topic (the Kafka
     * record timestamp), used as {@code publishedAt} when the read itself carries none
     * (written before the field existed); null: none known
     * @return its document
     */
    public static ReadDocument toDocument(Read read, Instant recordPublishedAt) {
        Long previousVersion;
        if (read.getSequence() > 0) {
            previousVersion = read.getSequence() > 1 ? read.getSequence() - 1 : null;
        }
        else {
            previousVersion = read.getPreviousVersion();
        }
        Instant published = read.getPublishedAt() != null ? read.getPublishedAt() : recordPublishedAt;
        SignalPart signal = read.getSignal();
        // The derived fields are flat copies of the tags: filters (a company as primary
        // subject needs its own field, the tags being plain objects, not nested), facet
        // labels and the api's suggest catalogue.
        return new ReadDocument(read.getId(), read.getKind().name().toLowerCase(Locale.ROOT), read.getSlug(),
                read.getTitle(), List.copyOf(read.getAliases()), read.getSummary(),
                read.getSections()
                    .stream()
                    .map(s -> new ReadDocument.Section(s.getKey(), s.getHeading(), s.getBody()))
                    .toList(),
                read.getLayers()
                    .stream()
                    .map(t -> new ReadDocument.LayerTag(t.getId(), t.getName(), t.getConfidence(), t.getPrimary(),
                            evidence(t.getEvidence())))
                    .toList(),
                read.getCompanies()
                    .stream()
                    .map(t -> new ReadDocument.CompanyTag(t.getId(), t.getName(), t.getSymbol(), t.getMic(),
                            t.getConfidence(), t.getPrimary(), evidence(t.getEvidence())))
                    .toList(),
                read.getTerms()
                    .stream()
                    .map(t -> new ReadDocument.TermTag(t.getSlug(), t.getTitle(), t.getSummary(), t.getConfidence(),
                            evidence(t.getEvidence())))
                    .toList(),
                read.getSources().stream().map(s -> new ReadDocument.Source(s.getName(), s.getUrl())).toList(),
                read.getDisclaimer(), version(read), previousVersion, read.getUpdatedAt().toString(),
                published == null ? null : published.toString(),
                read.getObservedAt() == null ? null : read.getObservedAt().toString(),
                read.getChanges()
                    .stream()
                    .map(c -> new ReadDocument.Change(c.getField(), c.getChange(), c.getKey(), c.getDetail()))
                    .toList(),
                signal == null ? null
                        : SignalViews.view(signal.getDirection(), signal.getMagnitude(), signal.getUntil(),
                                signal.getDecision()),
                read.getLayers().stream().map(LayerTag::getId).distinct().toList(),
                read.getLayers().stream().filter(LayerTag::getPrimary).map(LayerTag::getId).distinct().toList(),
                read.getCompanies().stream().map(CompanyTag::getSymbol).distinct().toList(),
                read.getCompanies()
                    .stream()
                    .filter(CompanyTag::getPrimary)
                    .map(CompanyTag::getSymbol)
                    .distinct()
                    .toList(),
                read.getTerms().stream().map(TermTag::getSlug).distinct().toList(),
                read.getLayers().stream().map(t -> ref(t.getId(), t.getName())).distinct().toList(),
                read.getCompanies().stream().map(t -> ref(t.getSymbol(), t.getName())).distinct().toList(),
                read.getTerms().stream().map(t -> ref(t.getSlug(), t.getTitle())).distinct().toList(), story(read));
    }

    private static List<ReadDocument.Evidence> evidence(List<Evidence> evidence) {
        return evidence.stream()
            .map(e -> new ReadDocument.Evidence(e.getRule(), e.getField(), e.getStart(), e.getEnd(), e.getText()))
            .toList();
    }

    /**
     * The story a read belongs to, for collapsing reposts in search: a signal read's
     * headline story key ({@link Stories#headlineKey} of its first source and its title,
     * the headline), any other read its own id.
     * @param read a tagged read
     * @return the key
     */
    public static String story(Read read) {
        if (read.getKind() != ReadKind.SIGNAL) {
            return "read\n" + read.getId();
        }
        Source source = read.getSources().isEmpty() ? null : read.getSources().get(0);
        return Stories.headlineKey(source == null ? null : source.getName(), source == null ? null : source.getUrl(),
                read.getTitle());
    }

    /** {@code <id>|<label>}: ids and symbols never contain {@code |}. */
    static String ref(String id, String label) {
        return id + "|" + label;
    }

}
