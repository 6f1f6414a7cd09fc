package io.chainfeed.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.ingest.TermContent;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.SampleRecords;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TermPublisher} on a {@link MockProducer} and a {@link MockConsumer} standing for
 * the compacted topics it reads back as its ledger: what it writes, what it skips, and
 * the versions it stamps.
 */
class TermPublisherLedgerTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-02T00:00:00Z"), ZoneOffset.UTC);

    private static final TermContent RDMA = new TermContent("rdma", "RDMA", List.of(), "Memory access across machines.",
            List.of(), "network-fabric", List.of(), List.of(),
            List.of(new Source("Wikipedia", "https://example.org/rdma")), TermContent.DEFAULT_DISCLAIMER, "page");

    private static final ChainLayer MEMORY = SampleRecords.layer("memory", "Memory", "");

    private final MockProducer<String, byte[]> producer = new MockProducer<>(true, new StringSerializer(),
            new ByteArraySerializer());

    private final MockConsumer<String, byte[]> ledger = new MockConsumer<>(OffsetResetStrategy.EARLIEST);

    private final AvroSerde<TermUpdate> terms = AvroSerde.of(TermUpdate.class);

    private final Map<TopicPartition, Long> ends = new HashMap<>();

    private final IngestMeters meters = new IngestMeters(new SimpleMeterRegistry());

    @BeforeEach
    void topics() {
        Map<TopicPartition, Long> beginnings = new HashMap<>();
        for (String topic : List.of(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES)) {
            ledger.updatePartitions(topic,
                    List.of(new PartitionInfo(topic, 0, Node.noNode(), new Node[0], new Node[0])));
            beginnings.put(new TopicPartition(topic, 0), 0L);
            ends.put(new TopicPartition(topic, 0), 0L);
        }
        ledger.updateBeginningOffsets(beginnings);
        ledger.updateEndOffsets(ends);
    }

    /** A record already on a topic when the publisher starts. */
    private void onTopic(String topic, String key, byte[] value) {
        TopicPartition tp = new TopicPartition(topic, 0);
        long offset = ends.get(tp);
        ledger.schedulePollTask(() -> ledger.addRecord(new ConsumerRecord<>(topic, 0, offset, key, value)));
        ends.put(tp, offset + 1);
        ledger.updateEndOffsets(ends);
    }

    @Test
    void aNewTermIsOneRecordKeyedBySlugWithTheClockAsVersion() {
        TermPublisher publisher = new TermPublisher(producer, ledger, CLOCK, meters);

        TermPublisher.Result r = publisher.publish(RDMA);

        assertThat(r).isEqualTo(new TermPublisher.Result("rdma", CLOCK.millis(), TermPublisher.Outcome.PUBLISHED));
        assertThat(producer.history()).hasSize(1);
        assertThat(producer.history().get(0).topic()).isEqualTo(Topics.TERMS);
        assertThat(producer.history().get(0).key()).isEqualTo("rdma");
        TermUpdate sent = terms.deserialize(Topics.TERMS, producer.history().get(0).value());
        assertThat(sent.getVersion()).isEqualTo(CLOCK.millis());
        assertThat(sent.getContentHash()).isEqualTo(RDMA.contentHash());
    }

    @Test
    void unchangedContentIsNotWrittenAgain() {
        TermPublisher publisher = new TermPublisher(producer, ledger, CLOCK, meters);
        publisher.publish(RDMA);

        TermPublisher.Result again = publisher.publish(RDMA);

        assertThat(again.outcome()).isEqualTo(TermPublisher.Outcome.UNCHANGED);
        assertThat(again.version()).isEqualTo(CLOCK.millis());
        assertThat(producer.history()).hasSize(1);
    }

    @Test
    void theLedgerOnTheTopicDecidesWhatIsUnchangedAndVersionsOnlyGrow() {
        long later = CLOCK.millis() + 60_000;
        onTopic(Topics.TERMS, "rdma", terms.serialize(Topics.TERMS, RDMA.toTermUpdate(later, CLOCK.instant())));
        TermPublisher publisher = new TermPublisher(producer, ledger, CLOCK, meters);

        assertThat(publisher.publish(RDMA))
            .isEqualTo(new TermPublisher.Result("rdma", later, TermPublisher.Outcome.UNCHANGED));
        TermContent changed = new TermContent("rdma", "RDMA", List.of("remote DMA"), RDMA.definition(), List.of(),
                "network-fabric", List.of(), List.of(), RDMA.sources(), RDMA.disclaimer(), "page");
        // the topic's version is ahead of this clock: the next one is one above it, never
        // the clock's
        assertThat(publisher.publish(changed).version()).isEqualTo(later + 1);
        assertThat(producer.history()).hasSize(1);
    }

    @Test
    void referenceDataIsWrittenOnlyWhereItsBytesDiffer() {
        AvroSerde<ChainLayer> layers = AvroSerde.of(ChainLayer.class);
        onTopic(Topics.LAYERS, "memory", layers.serialize(Topics.LAYERS, MEMORY));
        TermPublisher publisher = new TermPublisher(producer, ledger, CLOCK, meters);
        ChainLayer renamed = ChainLayer.newBuilder(MEMORY).setName("Memory and storage").build();

        assertThat(publisher.publishReference(List.of(MEMORY), List.of())).isZero();
        assertThat(publisher.publishReference(List.of(renamed), List.of())).isEqualTo(1);
        assertThat(publisher.publishReference(List.of(renamed), List.of())).isZero();
        assertThat(producer.history()).extracting(r -> r.topic() + "/" + r.key())
            .containsExactly(Topics.LAYERS + "/memory");
    }

}
