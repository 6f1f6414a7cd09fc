package io.chainfeed.ingest.signal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.ingest.publish.IngestMeters;
import io.chainfeed.ingest.publish.PublishException;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** What {@link SignalIngest} writes to the signals topic, on a {@link MockProducer}. */
class SignalIngestTest {

    private static final SignalValidator VALIDATOR = new SignalValidator(Corpus.loadBundled().layers());

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-02T00:00:00Z"), ZoneOffset.UTC);

    private static final String BATCH = """
            [{"headline": "HBM sold out", "layers": ["memory"], "direction": "tightening", "magnitude": 4,
              "observedAt": "2026-03-01T00:00:00Z", "source": {"name": "Example", "url": "https://example.com/a"}},
             {"headline": "DRAM prices ease", "layers": ["memory"], "direction": "easing", "magnitude": 9,
              "observedAt": "2026-03-01T00:00:00Z", "source": {"name": "Example", "url": "https://example.com/b"}},
             {"headline": "Substrate lead times grow", "layers": ["memory"], "direction": "tightening",
              "magnitude": 2, "observedAt": "2026-03-01T00:00:00Z",
              "source": {"name": "Example", "url": "https://example.com/c"}}]
            """;

    private final MockProducer<String, byte[]> producer = new MockProducer<>(true, new StringSerializer(),
            new ByteArraySerializer());

    private final AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final IngestMeters meters = new IngestMeters(registry);

    @Test
    void eachValidSignalIsOneRecordKeyedByItsIdWithAGrowingVersion() {
        SignalIngest ingest = new SignalIngest(VALIDATOR, producer, CLOCK, meters);

        SignalIngest.BatchResult r = ingest.ingest(SignalReader.json(BATCH), false);

        assertThat(r.published()).isTrue();
        assertThat(r.accepted()).extracting(SignalIngest.Accepted::index).containsExactly(0, 2);
        assertThat(r.rejected()).extracting(SignalError::index, SignalError::field)
            .containsExactly(org.assertj.core.groups.Tuple.tuple(1, "magnitude"));
        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertThat(sent).extracting(ProducerRecord::topic).containsOnly(Topics.SIGNALS);
        assertThat(sent).extracting(ProducerRecord::key)
            .containsExactly(r.accepted().get(0).signal().getId(), r.accepted().get(1).signal().getId());
        List<ConstraintSignal> values = sent.stream().map(s -> serde.deserialize(s.topic(), s.value())).toList();
        assertThat(values).extracting(ConstraintSignal::getHeadline)
            .containsExactly("HBM sold out", "Substrate lead times grow");
        // versions come from the clock and never repeat, even within one millisecond
        assertThat(values).extracting(ConstraintSignal::getVersion).containsExactly(CLOCK.millis(), CLOCK.millis() + 1);
        // counted on the registry the ingest was given
        assertThat(registry.get("chainfeed.records.accepted").tag("kind", "signal").counter().count()).isEqualTo(2.0);
        assertThat(registry.get("chainfeed.records.published").tag("kind", "signal").counter().count()).isEqualTo(2.0);
    }

    @Test
    void aDryRunOrABatchWithNothingValidWritesNothing() {
        SignalIngest ingest = new SignalIngest(VALIDATOR, producer, CLOCK, meters);

        assertThat(ingest.ingest(SignalReader.json(BATCH), true).published()).isFalse();
        SignalIngest.BatchResult none = ingest.ingest(List.of(SignalReader.json(BATCH).get(1)), false);

        assertThat(none.published()).isFalse();
        assertThat(none.accepted()).isEmpty();
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void aRecordTheBrokerRefusesIsAPublishException() {
        MockProducer<String, byte[]> refusing = new MockProducer<>(false, new StringSerializer(),
                new ByteArraySerializer());
        SignalIngest ingest = new SignalIngest(VALIDATOR, refusing, CLOCK, meters);
        Thread broker = new Thread(() -> {
            while (refusing.history().isEmpty() || !refusing.errorNext(new NotEnoughReplicasException("isr"))) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        });
        broker.setDaemon(true);
        broker.start();

        assertThatThrownBy(() -> ingest.ingest(List.of(SignalReader.json(BATCH).get(0)), false))
            .isInstanceOf(PublishException.class)
            .hasMessageContaining("Kafka did not acknowledge " + Topics.SIGNALS)
            .hasMessageContaining("isr");
        assertThat(registry.get("chainfeed.records.accepted").tag("kind", "signal").counter().count()).isEqualTo(1.0);
        assertThat(registry.find("chainfeed.records.published").counter()).as("nothing counted as published").isNull();
    }

}
