package io.chainfeed.api.support.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * {@link VisibleRecordsProbe} on a real (embedded KRaft) broker: a range holding only a
 * transaction's commit marker, or an aborted transaction, holds nothing visible; a
 * committed record is visible; an answer that a range is empty stays right on the next
 * checks (the probe remembers it).
 */
class VisibleRecordsProbeIT {

    @Test
    void markersAndAbortedRecordsAreNotVisibleCommittedRecordsAre() throws Exception {
        EmbeddedKafkaBroker broker = new EmbeddedKafkaKraftBroker(1, 1, "probe-topic").brokerProperties(
                Map.of("transaction.state.log.replication.factor", "1", "transaction.state.log.min.isr", "1"));
        broker.afterPropertiesSet();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                        ProducerConfig.TRANSACTIONAL_ID_CONFIG, "probe-it"),
                new StringSerializer(), new StringSerializer());
                VisibleRecordsProbe probe = new VisibleRecordsProbe(broker.getBrokersAsString())) {
            TopicPartition tp = new TopicPartition("probe-topic", 0);
            producer.initTransactions();

            producer.beginTransaction();
            producer.send(new ProducerRecord<>("probe-topic", "k", "committed")).get();
            producer.commitTransaction();
            // offset 0: the record, offset 1: its commit marker
            assertThat(probe.any(tp, 0, 2)).isTrue();
            assertThat(probe.any(tp, 1, 2)).isFalse();
            assertThat(probe.any(tp, 1, 2)).as("remembered: still empty").isFalse();

            producer.beginTransaction();
            producer.send(new ProducerRecord<>("probe-topic", "k", "aborted")).get();
            producer.abortTransaction();
            // offset 2: the aborted record, offset 3: its abort marker
            assertThat(probe.any(tp, 1, 4)).isFalse();

            producer.beginTransaction();
            producer.send(new ProducerRecord<>("probe-topic", "k", "visible")).get();
            producer.commitTransaction();
            // offset 4: a committed record after the remembered empty range
            assertThat(probe.any(tp, 1, 6)).isTrue();
            assertThat(probe.any(tp, 3, 4)).isFalse();
        }
        finally {
            broker.destroy();
        }
    }

}
