package io.chainfeed.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.ingest.TermContent;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TermPublisher#publishCorpus}: a reload of an unchanged corpus writes nothing, a
 * user's change is not reverted (also after a restart, with the ledger rebuilt from the
 * topic), a changed corpus term is published. The ledger consumer reads back what the
 * producer wrote, as the compacted topic would.
 */
class TermPublisherTest {

    private final MockProducer<String, byte[]> producer = new MockProducer<>(true, new StringSerializer(),
            new ByteArraySerializer());

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final IngestMeters meters = new IngestMeters(registry);

    private MockConsumer<String, byte[]> ledger;

    private int copied;

    private final Map<TopicPartition, Long> ends = new HashMap<>();

    private static final List<String> TOPICS = List.of(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES);

    @BeforeEach
    void newLedger() {
        ledger = newLedgerConsumer();
        copied = 0;
    }

    private MockConsumer<String, byte[]> newLedgerConsumer() {
        MockConsumer<String, byte[]> c = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
        for (String topic : TOPICS) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.updatePartitions(topic, List.of(new PartitionInfo(topic, 0, null, null, null)));
            c.updateBeginningOffsets(Map.of(tp, 0L));
            ends.putIfAbsent(tp, 0L);
        }
        c.updateEndOffsets(ends);
        return c;
    }

    /**
     * Makes what the producer wrote since the last call readable by the ledger (the
     * topic's log).
     */
    private void replicate(MockConsumer<String, byte[]> to) {
        List<ProducerRecord<String, byte[]>> history = producer.history();
        replicate(to, history.subList(copied, history.size()));
        copied = history.size();
    }

    private void replicate(MockConsumer<String, byte[]> to, List<ProducerRecord<String, byte[]>> records) {
        for (ProducerRecord<String, byte[]> r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), 0);
            long offset = ends.getOrDefault(tp, 0L);
            to.schedulePollTask(() -> to.addRecord(new ConsumerRecord<>(r.topic(), 0, offset, 0L,
                    TimestampType.CREATE_TIME, 0, 0, r.key(), r.value(), r.headers(), java.util.Optional.empty())));
            ends.merge(tp, 1L, Long::sum);
        }
        to.updateEndOffsets(ends);
    }

    private static TermContent term(String slug, String definition, String origin) {
        return new TermContent(slug, slug.toUpperCase(java.util.Locale.ROOT), List.of(), definition, List.of(), null,
                List.of(), List.of(), List.of(), TermContent.DEFAULT_DISCLAIMER, origin);
    }

    @Test
    void corpusReloadKeepsUserChangesAndPublishesCorpusChanges() {
        TermPublisher publisher = new TermPublisher(producer, ledger, Clock.systemUTC(), meters);
        List<TermContent> corpus = List.of(term("rdma", "Remote direct memory access.", "corpus"),
                term("roce", "RDMA over Converged Ethernet.", "corpus"));
        assertThat(publisher.publishCorpus(corpus)).extracting(TermPublisher.Result::outcome)
            .containsExactly(TermPublisher.Outcome.PUBLISHED, TermPublisher.Outcome.PUBLISHED);
        replicate(ledger);

        // Unchanged corpus: nothing written.
        assertThat(publisher.publishCorpus(corpus)).extracting(TermPublisher.Result::outcome)
            .containsExactly(TermPublisher.Outcome.UNCHANGED, TermPublisher.Outcome.UNCHANGED);
        assertThat(producer.history()).hasSize(2);
        // both loads offered two terms, the first alone published them: counted on the
        // registry the publisher was given
        assertThat(registry.get("chainfeed.records.accepted").tag("kind", "term").counter().count()).isEqualTo(4.0);
        assertThat(registry.get("chainfeed.records.published").tag("kind", "term").counter().count()).isEqualTo(2.0);

        // A user edits rdma through a page.
        publisher.publish(term("rdma", "A user's better definition.", "page"));
        replicate(ledger);
        assertThat(producer.history()).hasSize(3);
        assertThat(new String(producer.history().get(2).headers().lastHeader(TermPublisher.CORPUS_HASH_HEADER).value()))
            .as("the user's record carries the corpus baseline forward")
            .isEqualTo(corpus.get(0).contentHash());

        // A restart: a new publisher whose ledger sees only the latest record per key
        // (compaction).
        ends.replaceAll((tp, end) -> 0L);
        MockConsumer<String, byte[]> fresh = newLedgerConsumer();
        replicate(fresh, producer.history().subList(1, 3));
        producer.clear();
        TermPublisher restarted = new TermPublisher(producer, fresh, Clock.systemUTC(), meters);
        assertThat(restarted.publishCorpus(corpus)).extracting(TermPublisher.Result::outcome)
            .containsExactly(TermPublisher.Outcome.KEPT, TermPublisher.Outcome.UNCHANGED);
        assertThat(producer.history()).as("nothing written: the user's rdma is not reverted").isEmpty();

        // The corpus itself changes rdma: that is published (and becomes the new
        // baseline).
        TermContent changed = term("rdma", "Remote direct memory access, revised by the corpus.", "corpus");
        assertThat(restarted.publishCorpus(List.of(changed, corpus.get(1)))).extracting(TermPublisher.Result::outcome)
            .containsExactly(TermPublisher.Outcome.PUBLISHED, TermPublisher.Outcome.UNCHANGED);
        assertThat(producer.history()).hasSize(1);
        assertThat(new String(producer.history().get(0).headers().lastHeader(TermPublisher.CORPUS_HASH_HEADER).value()))
            .isEqualTo(changed.contentHash());
    }

    @Test
    void aTermAUserMadeBeforeTheCorpusHadItIsKept() {
        TermPublisher publisher = new TermPublisher(producer, ledger, Clock.systemUTC(), meters);
        publisher.publish(term("nvlink", "Written by a user first.", "page"));
        replicate(ledger);
        assertThat(producer.history().get(0).headers().lastHeader(TermPublisher.CORPUS_HASH_HEADER)).isNull();
        assertThat(publisher.publishCorpus(List.of(term("nvlink", "The corpus's text.", "corpus"))))
            .extracting(TermPublisher.Result::outcome)
            .containsExactly(TermPublisher.Outcome.KEPT);
        assertThat(producer.history()).hasSize(1);
    }

}
