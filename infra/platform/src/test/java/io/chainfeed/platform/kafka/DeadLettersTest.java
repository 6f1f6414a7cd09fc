package io.chainfeed.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter counter goes to the registry the reader was given (the service's
 * injected one), never to Micrometer's global registry; a missing registry is refused.
 */
class DeadLettersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, new ByteArraySerializer(),
            new ByteArraySerializer());

    @Test
    void aDeadLetterCountsInTheGivenRegistry() throws Exception {
        DeadLetters deadLetters = new DeadLetters(producer, "dead-letters-test", registry);
        ConsumerRecord<String, byte[]> poison = new ConsumerRecord<>(Topics.TERMS, 0, 7L, "k", new byte[] { 1 });

        deadLetters
            .send(poison, "k".getBytes(StandardCharsets.UTF_8), poison.value(), DeadLetters.Reason.UNDECODABLE,
                    new IllegalArgumentException("bad bytes"))
            .get();

        assertThat(registry.get("chainfeed.dead.letters")
            .tags("topic", Topics.TERMS, "reason", "undecodable", "reader", "dead-letters-test")
            .counter()
            .count()).isEqualTo(1.0);
        assertThat(Metrics.globalRegistry.find("chainfeed.dead.letters").tag("reader", "dead-letters-test").counters())
            .isEmpty();
        assertThat(producer.history()).singleElement()
            .satisfies(r -> assertThat(r.topic()).isEqualTo(Topics.dlqOf(Topics.TERMS)));
    }

    @Test
    void registeringAtStartPutsEverySeriesAtZeroInTheGivenRegistry() {
        new DeadLetters(producer, "dead-letters-start", registry).registerAtStart(List.of(Topics.TERMS, Topics.LAYERS));

        assertThat(registry.get("chainfeed.dead.letters").tag("reader", "dead-letters-start").counters())
            .hasSize(2 * DeadLetters.Reason.values().length)
            .allSatisfy(c -> assertThat(c.count()).isZero());
    }

    @Test
    void theOnDemandWriterRegistersInTheGivenRegistryWithoutAProducer() {
        try (OnDemandDeadLetters onDemand = new OnDemandDeadLetters("127.0.0.1:9", "on-demand-test", registry)) {
            onDemand.registerAtStart(List.of(Topics.READS));
        }

        assertThat(registry.get("chainfeed.dead.letters")
            .tags("topic", Topics.READS, "reader", "on-demand-test")
            .counters()).hasSize(DeadLetters.Reason.values().length);
    }

    @Test
    void aMissingRegistryIsRefused() {
        assertThatThrownBy(() -> new DeadLetters(producer, "no-registry", null))
            .isInstanceOf(NullPointerException.class)
            .hasMessage("registry");
        assertThatThrownBy(() -> DeadLetters.registerAtStart(null, "no-registry", List.of(Topics.TERMS)))
            .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new OnDemandDeadLetters("127.0.0.1:9", "no-registry", null))
            .isInstanceOf(NullPointerException.class);
    }

}
