package io.chainfeed.ingest.signal;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.ingest.publish.AwaitedSends;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.publish.IngestMeters;
import io.chainfeed.ingest.publish.PublishException;
import io.chainfeed.ingest.publish.RecordSink;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Validates a batch of raw signals and publishes the valid ones to {@value Topics#SIGNALS}, keyed by
 * signal id, all of one batch in one Kafka transaction in the service; the invalid ones are reported, and do not
 * stop the rest of the batch. Each published signal gets a version that grows with every publish
 * (epoch milliseconds, strictly increasing within the process), so a corrected re-post of an id
 * supersedes the earlier one downstream.
 */
public final class SignalIngest {
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private final SignalValidator validator;
    private final RecordSink sink;
    private final Duration deadline;
    private final Clock clock;
    private final AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);
    private final AtomicLong lastVersion = new AtomicLong();

    /**
     * @param validator checks each raw signal
     * @param producer  idempotent producer; null to validate only
     * @param clock     source of versions
     */
    public SignalIngest(SignalValidator validator, Producer<String, byte[]> producer, Clock clock) {
        this(validator, producer == null ? null : new AwaitedSends(producer), SEND_TIMEOUT, clock);
    }

    /**
     * @param validator checks each raw signal
     * @param sink      where accepted signals go (one transaction per batch in the service); null to validate only
     * @param deadline  how long a batch may take to publish when the caller gives no deadline
     * @param clock     source of versions
     */
    public SignalIngest(SignalValidator validator, RecordSink sink, Duration deadline, Clock clock) {
        this.validator = validator;
        this.sink = sink;
        this.deadline = deadline;
        this.clock = clock;
    }

    /**
     * A signal of the batch that was accepted.
     *
     * @param index   0-based position in the batch
     * @param line    1-based input line, or 0
     * @param signal  the signal as published (or as it would be, in a dry run)
     */
    public record Accepted(int index, int line, ConstraintSignal signal) {
        /** @return the id of the read the signal becomes: {@code signal:<id>} */
        public String readId() {
            return "signal:" + signal.getId();
        }
    }

    /**
     * @param accepted the valid signals, published unless a dry run
     * @param rejected every problem with the invalid ones
     * @param published whether the accepted ones were written
     */
    public record BatchResult(List<Accepted> accepted, List<SignalError> rejected, boolean published) {
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
     * @param until  when the publish must have answered
     * @return accepted and rejected signals
     * @throws PublishException if the accepted signals were not published (all of them: the batch is one
     *                          transaction in the service); see {@link RecordSink#publish} for its subtypes
     */
    public BatchResult ingest(List<SignalInput> inputs, boolean dryRun, Deadline until) {
        List<Accepted> accepted = new ArrayList<>();
        List<SignalError> rejected = new ArrayList<>();
        for (SignalInput in : inputs) {
            SignalValidator.Checked c = validator.check(in);
            if (c.valid()) {
                accepted.add(new Accepted(in.index(), in.line(), c.signal()));
            } else {
                rejected.addAll(c.errors());
            }
        }
        boolean publish = !dryRun && sink != null && !accepted.isEmpty();
        if (publish) {
            List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
            for (Accepted a : accepted) {
                a.signal().setVersion(nextVersion());
                records.add(new ProducerRecord<>(Topics.SIGNALS, a.signal().getId(),
                        serde.serialize(Topics.SIGNALS, a.signal())));
            }
            IngestMeters.accepted("signal", records.size());
            sink.publish(records, until);
            IngestMeters.published("signal", records.size());
        }
        return new BatchResult(accepted, rejected, publish);
    }

    private long nextVersion() {
        long now = clock.millis();
        return lastVersion.updateAndGet(last -> Math.max(now, last + 1));
    }
}
