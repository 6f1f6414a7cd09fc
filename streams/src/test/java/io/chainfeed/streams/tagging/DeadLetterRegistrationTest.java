package io.chainfeed.streams.tagging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.StreamsMeters;
import io.chainfeed.streams.chain.ChainStateTopology;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;

/**
 * The streams applications register their dead-letter counters at start, at zero, for
 * every topic their topology reads (global stores and the chain's repartition topic
 * included) and every reason, on the registry they are given; the handler Kafka Streams
 * makes finds that registry in the Streams configuration, and refuses to start without
 * it.
 */
class DeadLetterRegistrationTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Topology topology(String applicationId, BiFunction<Properties, StreamsMeters, Topology> build) {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        return build.apply(config, new StreamsMeters(registry));
    }

    @Test
    void theTaggingApplicationRegistersItsSourceAndReferenceTopics() {
        Set<String> topics = DeadLetterDeserializationHandler
            .registerAtStart(topology("unit-tagging", TaggingTopology::buildTopology), "unit-tagging", registry);
        assertThat(topics).containsExactlyInAnyOrder(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES,
                Topics.REFERENCE_TERMS);
        assertRegisteredAtZero("streams-unit-tagging", topics);
    }

    @Test
    void theChainApplicationRegistersItsRepartitionTopicUnderItsApplicationId() {
        Set<String> topics = DeadLetterDeserializationHandler
            .registerAtStart(topology("unit-chain", ChainStateTopology::buildTopology), "unit-chain", registry);
        assertThat(topics).contains(Topics.SIGNALS, Topics.LAYERS, Topics.COMPANIES, Topics.REFERENCE_TERMS);
        assertThat(topics).filteredOn(t -> !t.startsWith("chainfeed."))
            .isNotEmpty()
            .allSatisfy(t -> assertThat(t).startsWith("unit-chain-").endsWith("-repartition"));
        assertRegisteredAtZero("streams-unit-chain", topics);
    }

    @Test
    void theHandlerFindsTheRegistryInTheStreamsConfiguration() {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "unit-config");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        config.put(DeadLetterDeserializationHandler.METER_REGISTRY_CONFIG, registry);

        // what Kafka Streams hands the handler's configure(): the configuration's
        // originals
        assertThat(DeadLetterDeserializationHandler.registryOf(new StreamsConfig(config).originals()))
            .isSameAs(registry);
    }

    @Test
    void theHandlerRefusesAConfigurationWithoutARegistry() {
        DeadLetterDeserializationHandler handler = new DeadLetterDeserializationHandler();
        assertThatThrownBy(() -> handler.configure(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "unit-none",
                StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092")))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining(DeadLetterDeserializationHandler.METER_REGISTRY_CONFIG);
        assertThatThrownBy(() -> DeadLetterDeserializationHandler
            .registryOf(Map.of(DeadLetterDeserializationHandler.METER_REGISTRY_CONFIG, "not a registry")))
            .isInstanceOf(ConfigException.class);
    }

    private void assertRegisteredAtZero(String reader, Collection<String> topics) {
        Collection<Counter> counters = registry.find("chainfeed.dead.letters").tag("reader", reader).counters();
        assertThat(counters).hasSize(topics.size() * DeadLetters.Reason.values().length);
        assertThat(counters).allSatisfy(c -> assertThat(c.count()).isZero());
        assertThat(counters).extracting(c -> c.getId().getTag("topic")).containsExactlyInAnyOrderElementsOf(topics);
        assertThat(Metrics.globalRegistry.find("chainfeed.dead.letters").tag("reader", reader).counters()).isEmpty();
    }

}
