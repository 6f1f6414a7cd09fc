package io.chainfeed.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The transaction pool's meters go to the registry it was given: the ready gauge, and the
 * outcome counters at zero from the start and counting after a commit. Its producers are
 * {@link MockProducer}s.
 */
class KafkaTransactionsMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void theGaugeAndTheOutcomeCountersAreInTheGivenRegistry() throws InterruptedException {
        try (KafkaTransactions txns = new KafkaTransactions("meters-test", 1,
                id -> new MockProducer<>(true, new StringSerializer(), new ByteArraySerializer()), null, registry)) {
            assertThat(txns.awaitReady(Duration.ofSeconds(10))).isTrue();
            assertThat(registry.get("chainfeed.ingest.producers.ready").gauge().value()).isEqualTo(1.0);
            assertThat(registry.get("chainfeed.ingest.transactions").counters())
                .hasSize(KafkaTransactions.TRANSACTION_OUTCOMES.size())
                .allSatisfy(c -> assertThat(c.count()).isZero());

            txns.publish(List.of(new ProducerRecord<>(Topics.SIGNALS, "k", new byte[] { 1 })),
                    Deadline.after(Duration.ofSeconds(10)));

            assertThat(registry.get("chainfeed.ingest.transactions").tag("outcome", "committed").counter().count())
                .isEqualTo(1.0);
        }
    }

    @Test
    void aMissingRegistryIsRefused() {
        assertThatThrownBy(() -> new KafkaTransactions("meters-test", 1,
                id -> new MockProducer<>(true, new StringSerializer(), new ByteArraySerializer()), null, null))
            .isInstanceOf(NullPointerException.class)
            .hasMessage("registry");
    }

}
