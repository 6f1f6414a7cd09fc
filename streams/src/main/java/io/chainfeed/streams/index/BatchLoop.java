package io.chainfeed.streams.index;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll loop the indexer and the embedder share: poll a batch of records, process it,
 * commit the offsets the processing returns (synchronously: the next batch starts only
 * once they are committed); when processing throws, seek back to the batch's first
 * records and retry after an exponential backoff (200 ms doubling to 30 s), so nothing is
 * skipped. {@link #close()} stops the loop, which then closes the consumer.
 */
abstract class BatchLoop implements Runnable, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BatchLoop.class);

    /** The loop's consumer ({@code enable.auto.commit=false}); closed by the loop. */
    protected final Consumer<String, byte[]> consumer;

    private final String topic;

    private final String work;

    private final AtomicBoolean running = new AtomicBoolean(true);

    /**
     * @param consumer the consumer, owned by the loop
     * @param topic the topic it subscribes to
     * @param work what a batch's processing is, for the log (e.g. "bulk")
     */
    BatchLoop(Consumer<String, byte[]> consumer, String topic, String work) {
        this.consumer = consumer;
        this.topic = topic;
        this.work = work;
    }

    /**
     * Processes a batch.
     * @param records the batch, not empty
     * @return the offsets to commit (the next offset to read per partition); empty: none
     * @throws Exception to have the batch retried from its first records
     */
    protected abstract Map<TopicPartition, OffsetAndMetadata> process(ConsumerRecords<String, byte[]> records)
            throws Exception;

    /** Called after a batch was processed and its offsets committed. */
    protected void succeeded() {
    }

    /** Called when a batch failed and is about to be retried. */
    protected void failed() {
    }

    /** Called once the loop has stopped and closed its consumer. */
    protected void closed() {
    }

    @Override
    public final void run() {
        consumer.subscribe(List.of(topic));
        long backoffMs = 200;
        try {
            while (running.get()) {
                ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(500));
                if (records.isEmpty()) {
                    continue;
                }
                try {
                    Map<TopicPartition, OffsetAndMetadata> done = process(records);
                    if (!done.isEmpty()) {
                        consumer.commitSync(done);
                    }
                    succeeded();
                    backoffMs = 200;
                }
                catch (Exception e) {
                    failed();
                    log.warn("{} of {} records failed, retrying in {} ms: {}", work, records.count(), backoffMs,
                            e.getMessage());
                    for (TopicPartition tp : records.partitions()) {
                        consumer.seek(tp, records.records(tp).get(0).offset());
                    }
                    TimeUnit.MILLISECONDS.sleep(backoffMs);
                    backoffMs = Math.min(backoffMs * 2, 30_000);
                }
            }
        }
        catch (WakeupException e) {
            if (running.get()) {
                throw e;
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finally {
            consumer.close(Duration.ofSeconds(5));
            closed();
        }
    }

    /** Stops the poll loop; the loop closes the consumer. */
    @Override
    public void close() {
        running.set(false);
        consumer.wakeup();
    }

}
