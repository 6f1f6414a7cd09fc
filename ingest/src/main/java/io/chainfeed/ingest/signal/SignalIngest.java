package io.chainfeed.ingest.signal;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.ingest.publish.PublishException;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Validates a batch of raw signals and publishes the valid ones to {@value Topics#SIGNALS}, keyed by
 * signal id, with an idempotent {@code acks=all} producer; the invalid ones are reported, and do not
 * stop the rest of the batch. Each published signal gets a version that grows with every publish
 * (epoch milliseconds, strictly increasing within the process), so a corrected re-post of an id
 * supersedes the earlier one downstream.
 */
public final class SignalIngest {
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private final SignalValidator validator;
    private final Producer<String, byte[]> producer;
    private final Clock clock;
    private final AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);
    private final AtomicLong lastVersion = new AtomicLong();

    /**
     * @param validator checks each raw signal
     * @param producer  idempotent producer; null to validate only
     * @param clock     source of versions
     */
    public SignalIngest(SignalValidator validator, Producer<String, byte[]> producer, Clock clock) {
        this.validator = validator;
        this.producer = producer;
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
        boolean publish = !dryRun && producer != null && !accepted.isEmpty();
        if (publish) {
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (Accepted a : accepted) {
                a.signal().setVersion(nextVersion());
                sends.add(producer.send(new ProducerRecord<>(Topics.SIGNALS, a.signal().getId(),
                        serde.serialize(Topics.SIGNALS, a.signal()))));
            }
            for (int i = 0; i < sends.size(); i++) {
                await(sends.get(i), "signal " + accepted.get(i).signal().getId());
            }
        }
        return new BatchResult(accepted, rejected, publish);
    }

    private long nextVersion() {
        long now = clock.millis();
        return lastVersion.updateAndGet(last -> Math.max(now, last + 1));
    }

    private static void await(Future<RecordMetadata> f, String what) {
        try {
            f.get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted while publishing " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new PublishException("Kafka did not acknowledge " + what + ": " + e.getMessage(), e);
        }
    }
}
