package io.chainfeed.ingest.publish;

import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Where the ingest publishers write: a plain producer (CLI) or one Kafka transaction per
 * call (service).
 */
public interface RecordSink {

    /**
     * Publishes the records and returns once Kafka has them.
     * @param records records of one request (String keys, Avro bytes)
     * @param deadline when the caller must have its answer
     * @throws OversizedRecordException if a record is over the topic's size limit
     * (nothing is sent)
     * @throws PublishOutcomeUnknownException if the deadline passed while Kafka was
     * committing: the records may or may not become visible
     * @throws PublishException if nothing was published (aborted, or not acknowledged in
     * time)
     */
    void publish(List<ProducerRecord<String, byte[]>> records, Deadline deadline);

}
