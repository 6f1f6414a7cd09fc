package io.chainfeed.ingest;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.chain.history.History;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.page.GlossaryPageParser;
import io.chainfeed.ingest.page.PageParseException;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.publish.RecordSink;
import io.chainfeed.ingest.publish.TermPublisher;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The ingest use cases, shared by the HTTP endpoint and the CLI: parse a glossary page
 * and publish its term; load a corpus (reference data first, then terms).
 *
 * <p>
 * Every read must be checkable: a page posted without a source URL of its own inherits
 * the public references the corpus keeps for the same term; a page with neither is
 * refused, on a dry run too.
 */
public final class IngestService {

    private final GlossaryPageParser parser;

    private final TermPublisher publisher;

    private final Corpus corpus;

    /**
     * @param corpus the corpus: its layers, companies and terms are the reference data
     * pages are parsed with, and a page without sources inherits the references it keeps
     * for the same term
     * @param publisher the publisher; may be null for a dry-run-only service
     */
    public IngestService(Corpus corpus, TermPublisher publisher) {
        this.corpus = corpus;
        this.parser = new GlossaryPageParser(corpus.referenceData());
        this.publisher = publisher;
    }

    /**
     * Result of ingesting one page.
     *
     * @param term what the page parsed to
     * @param result what was published, or null on a dry run
     */
    public record PageResult(TermContent term, TermPublisher.Result result) {
    }

    /**
     * Parses a page and, unless it is a dry run, publishes its term.
     * @param body the page, plain text or HTML
     * @param html whether the body is HTML
     * @param sourceUrl where the page came from, or null
     * @param dryRun parse only
     * @return the parsed term and the publish result
     * @throws PageParseException if the page cannot be parsed, or is to be published
     * without any source (nothing is published)
     * @throws io.chainfeed.ingest.publish.PublishException if Kafka does not acknowledge
     * the record
     */
    public PageResult ingestPage(String body, boolean html, String sourceUrl, boolean dryRun) {
        return ingestPage(body, html, sourceUrl, dryRun, null);
    }

    /**
     * As {@link #ingestPage(String, boolean, String, boolean)}, answering by a deadline.
     * @param until when the publish must have answered; null for the publisher's own
     * deadline
     * @return the parsed term and the publish result
     */
    public PageResult ingestPage(String body, boolean html, String sourceUrl, boolean dryRun, Deadline until) {
        TermContent parsed = html ? parser.parseHtml(body, sourceUrl) : parser.parseText(body, sourceUrl);
        TermContent term = withInheritedSources(parsed);
        if (term.sources().isEmpty()) {
            // Checked on dry runs too, so a dry run says whether the real publish would
            // be accepted.
            throw new PageParseException(
                    "the page names no source and the corpus does not know '" + term.slug()
                            + "': give the page's public URL (sourceUrl) so readers can check the read",
                    List.of("source"));
        }
        if (dryRun || publisher == null) {
            return new PageResult(term, null);
        }
        return new PageResult(term, until == null ? publisher.publish(term) : publisher.publish(term, until));
    }

    private TermContent withInheritedSources(TermContent t) {
        if (!t.sources().isEmpty()) {
            return t;
        }
        return corpus.term(t.slug())
            .map(known -> new TermContent(t.slug(), t.title(), t.aliases(), t.definition(), t.sections(), t.layerHint(),
                    t.companies(), t.related(), known.sources(), t.disclaimer(), t.origin()))
            .orElse(t);
    }

    /**
     * Result of loading a corpus.
     *
     * @param referenceRecords layer and company records written (unchanged ones are
     * skipped)
     * @param terms one result per term
     */
    public record CorpusResult(int referenceRecords, List<TermPublisher.Result> terms) {
        /**
         * @return how many terms were written (new or changed)
         */
        public long published() {
            return terms.stream().filter(r -> r.outcome() == TermPublisher.Outcome.PUBLISHED).count();
        }

        /**
         * @return how many terms kept a user's change the corpus does not override
         */
        public long kept() {
            return terms.stream().filter(r -> r.outcome() == TermPublisher.Outcome.KEPT).count();
        }
    }

    /**
     * Publishes a corpus: layers and companies first (so tagging knows them), then every
     * term, without reverting a term a user changed
     * ({@link io.chainfeed.ingest.publish.TermPublisher#publishCorpus}).
     * @param corpus a loaded corpus
     * @return counts of what was written
     * @throws io.chainfeed.ingest.publish.PublishException if Kafka does not acknowledge
     * a record
     */
    public CorpusResult loadCorpus(Corpus corpus) {
        if (publisher == null) {
            throw new IllegalStateException("this service has no publisher");
        }
        int ref = publisher.publishReference(corpus.layers(), corpus.companies());
        return new CorpusResult(ref, publisher.publishCorpus(corpus.terms()));
    }

    /**
     * Publishes the bundled history's signals to
     * {@value io.chainfeed.schemas.Topics#SIGNALS}, keyed by id, in one Kafka
     * transaction. Each keeps its entry's revision as version, so loading the same
     * history again writes records that change nothing downstream (the same version and
     * content), and an editor's correction (a later, larger version) is never overridden.
     * @param history the loaded history
     * @param sink the transactional sink
     * @param until when the publish must have answered
     * @return how many signals were published
     * @throws io.chainfeed.ingest.publish.PublishException if Kafka did not take them
     * (none became visible)
     */
    public static int loadHistory(History history, RecordSink sink, Deadline until) {
        AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        // Oldest first, so that readers of the signals topic (and the reads made from it)
        // meet them in date order.
        List<ConstraintSignal> byDate = new ArrayList<>(history.signals());
        byDate.sort(Comparator.comparing(ConstraintSignal::getObservedAt).thenComparing(ConstraintSignal::getId));
        for (ConstraintSignal s : byDate) {
            records.add(new ProducerRecord<>(Topics.SIGNALS, s.getId(), serde.serialize(Topics.SIGNALS, s)));
        }
        sink.publish(records, until);
        return records.size();
    }

}
