package io.chainfeed.ingest.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * A {@link RecordSink} on a plain idempotent producer: sends every record, then waits for
 * each acknowledgement until the deadline. Not atomic: when it fails, earlier records may
 * have been written (re-publishing them is harmless). For the CLI and tests; the service
 * publishes with {@link KafkaTransactions}.
 */
public final class AwaitedSends implements RecordSink {

    private final Producer<String, byte[]> producer;

    /**
     * @param producer an idempotent producer with {@code acks=all}; not closed here
     */
    public AwaitedSends(Producer<String, byte[]> producer) {
        this.producer = producer;
    }

    @Override
    public void publish(List<ProducerRecord<String, byte[]>> records, Deadline deadline) {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (ProducerRecord<String, byte[]> r : records) {
            sends.add(producer.send(r));
        }
        for (int i = 0; i < sends.size(); i++) {
            ProducerRecord<String, byte[]> r = records.get(i);
            try {
                sends.get(i).get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PublishException("interrupted while publishing " + r.topic() + "/" + r.key(), e);
            }
            catch (ExecutionException e) {
                if (e.getCause() instanceof RecordTooLargeException) {
                    throw new OversizedRecordException(r.topic(), RecordLimits.sizeOf(r), -1);
                }
                throw new PublishException(
                        "Kafka did not acknowledge " + r.topic() + "/" + r.key() + ": " + e.getCause().getMessage(),
                        e.getCause());
            }
            catch (TimeoutException e) {
                throw new PublishException("Kafka did not acknowledge " + r.topic() + "/" + r.key() + " in time", e);
            }
        }
    }

}
