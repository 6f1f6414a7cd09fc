package io.chainfeed.ingest.signal;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.ingest.decide.Decision;
import io.chainfeed.ingest.publish.AwaitedSends;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.publish.IngestMeters;
import io.chainfeed.ingest.publish.PublishException;
import io.chainfeed.ingest.publish.RecordSink;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Validates a batch of raw signals and publishes the valid ones to
 * {@value Topics#SIGNALS}, keyed by signal id, all of one batch in one Kafka transaction
 * in the service; the invalid ones are reported, and do not stop the rest of the batch.
 * Each published signal gets a version that grows with every publish (epoch milliseconds,
 * strictly increasing within the process), so a corrected re-post of an id supersedes the
 * earlier one downstream.
 */
public final class SignalIngest {

    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private final SignalValidator validator;

    private final RecordSink sink;

    private final Duration deadline;

    private final Clock clock;

    private final IngestMeters meters;

    private final AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);

    private final AtomicLong lastVersion = new AtomicLong();

    /**
     * @param validator checks each raw signal
     * @param producer idempotent producer; null to validate only
     * @param clock source of versions
     * @param meters where accepted, published and skipped items count
     * @throws NullPointerException if {@code meters} is null
     */
    public SignalIngest(SignalValidator validator, Producer<String, byte[]> producer, Clock clock,
            IngestMeters meters) {
        this(validator, producer == null ? null : new AwaitedSends(producer), SEND_TIMEOUT, clock, meters);
    }

    /**
     * @param validator checks each raw signal
     * @param sink where accepted signals go (one transaction per batch in the service);
     * null to validate only
     * @param deadline how long a batch may take to publish when the caller gives no
     * deadline
     * @param clock source of versions
     * @param meters where accepted, published and skipped items count
     * @throws NullPointerException if {@code meters} is null
     */
    public SignalIngest(SignalValidator validator, RecordSink sink, Duration deadline, Clock clock,
            IngestMeters meters) {
        this.validator = validator;
        this.sink = sink;
        this.deadline = deadline;
        this.clock = clock;
        this.meters = Objects.requireNonNull(meters, "meters");
    }

    /**
     * A signal of the batch that was accepted.
     *
     * @param index 0-based position in the batch
     * @param line 1-based input line, or 0
     * @param signal the signal as published (or as it would be, in a dry run)
     */
    public record Accepted(int index, int line, ConstraintSignal signal) {
        /**
         * @return the id of the read the signal becomes: {@code signal:<id>}
         */
        public String readId() {
            return "signal:" + signal.getId();
        }
    }

    /**
     * An item of the batch that was skipped: its text is not about a supply constraint on
     * the chain.
     *
     * @param index 0-based position in the batch
     * @param line 1-based input line, or 0
     * @param signal the item as read (its values are placeholders where none were given)
     * @param reason why it was skipped
     * @param decision what the decider found, with the words
     */
    public record Skipped(int index, int line, ConstraintSignal signal, String reason, Decision decision) {
    }

    /**
     * @param accepted the valid signals, published unless a dry run
     * @param rejected every problem with the invalid ones
     * @param published whether the accepted ones (and the skipped ones, to
     * {@value Topics#SIGNALS_SKIPPED}) were written
     * @param skipped the items skipped as not about a supply constraint
     */
    public record BatchResult(List<Accepted> accepted, List<SignalError> rejected, boolean published,
            List<Skipped> skipped) {
        /** A batch with nothing skipped. */
        public BatchResult(List<Accepted> accepted, List<SignalError> rejected, boolean published) {
            this(accepted, rejected, published, List.of());
        }
    }

    /**
     * @param inputs raw signals
     * @param dryRun validate only
     * @return accepted and rejected signals
     * @throws PublishException if the broker did not acknowledge an accepted signal
     */
    public BatchResult ingest(List<SignalInput> inputs, boolean dryRun) {
        return ingest(inputs, dryRun, Deadline.after(deadline));
    }

    /**
     * @param inputs raw signals
     * @param dryRun validate only
     * @param until when the publish must have answered
     * @return accepted and rejected signals
     * @throws PublishException if the accepted signals were not published (all of them:
     * the batch is one transaction in the service); see {@link RecordSink#publish} for
     * its subtypes
     */
    public BatchResult ingest(List<SignalInput> inputs, boolean dryRun, Deadline until) {
        List<Accepted> accepted = new ArrayList<>();
        List<SignalError> rejected = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (SignalInput in : inputs) {
            SignalOutcome c = validator.check(in);
            if (c instanceof SignalOutcome.Accepted a) {
                accepted.add(new Accepted(in.index(), in.line(), a.signal()));
            }
            else if (c instanceof SignalOutcome.Held h) {
                // published like an accepted one; its decision says it is held
                accepted.add(new Accepted(in.index(), in.line(), h.signal()));
            }
            else if (c instanceof SignalOutcome.Skipped k) {
                skipped.add(new Skipped(in.index(), in.line(), k.signal(), k.reason(), k.decision()));
            }
            else if (c instanceof SignalOutcome.Rejected r) {
                rejected.addAll(r.errors());
            }
        }
        boolean publish = !dryRun && sink != null && !(accepted.isEmpty() && skipped.isEmpty());
        if (publish) {
            publish(accepted, skipped, until);
        }
        return new BatchResult(accepted, rejected, publish, skipped);
    }

    /**
     * Publishes signals as they are (a reviewed version, already checked), in one
     * transaction.
     * @param signals signals, each given the next version
     * @param until when the publish must have answered
     */
    public void republish(List<ConstraintSignal> signals, Deadline until) {
        publish(signals.stream().map(s -> new Accepted(0, 0, s)).toList(), List.of(), until);
    }

    private void publish(List<Accepted> accepted, List<Skipped> skipped, Deadline until) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (Accepted a : accepted) {
            a.signal().setVersion(nextVersion());
            records.add(new ProducerRecord<>(Topics.SIGNALS, a.signal().getId(),
                    serde.serialize(Topics.SIGNALS, a.signal())));
        }
        for (Skipped s : skipped) {
            ProducerRecord<String, byte[]> r = new ProducerRecord<>(Topics.SIGNALS_SKIPPED, s.signal().getId(),
                    SkippedRecords.json(s));
            r.headers().add(Topics.SKIP_REASON_HEADER, s.reason().getBytes(StandardCharsets.UTF_8));
            records.add(r);
        }
        meters.accepted("signal", accepted.size());
        sink.publish(records, until);
        meters.published("signal", accepted.size());
        skipped.forEach(s -> meters.skipped(s.reason(), 1));
    }

    private long nextVersion() {
        long now = clock.millis();
        return lastVersion.updateAndGet(last -> Math.max(now, last + 1));
    }

}
