package io.chainfeed.streams.tagging;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.Topics;
import io.chainfeed.streams.chain.ChainStateTopology;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import java.util.Collection;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.Test;

/**
 * The streams applications register their dead-letter counters at start, at zero, for
 * every topic their topology reads (global stores and the chain's repartition topic
 * included) and every reason.
 */
class DeadLetterRegistrationTest {

    private static Topology topology(String applicationId, java.util.function.Function<Properties, Topology> build) {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        return build.apply(config);
    }

    @Test
    void theTaggingApplicationRegistersItsSourceAndReferenceTopics() {
        Set<String> topics = DeadLetterDeserializationHandler
            .registerAtStart(topology("unit-tagging", TaggingTopology::buildTopology), "unit-tagging");
        assertThat(topics).containsExactlyInAnyOrder(Topics.TERMS, Topics.LAYERS, Topics.COMPANIES,
                Topics.REFERENCE_TERMS);
        assertRegisteredAtZero("streams-unit-tagging", topics);
    }

    @Test
    void theChainApplicationRegistersItsRepartitionTopicUnderItsApplicationId() {
        Set<String> topics = DeadLetterDeserializationHandler
            .registerAtStart(topology("unit-chain", ChainStateTopology::buildTopology), "unit-chain");
        assertThat(topics).contains(Topics.SIGNALS, Topics.LAYERS, Topics.COMPANIES, Topics.REFERENCE_TERMS);
        assertThat(topics).filteredOn(t -> !t.startsWith("chainfeed."))
            .isNotEmpty()
            .allSatisfy(t -> assertThat(t).startsWith("unit-chain-").endsWith("-repartition"));
        assertRegisteredAtZero("streams-unit-chain", topics);
    }

    private static void assertRegisteredAtZero(String reader, Collection<String> topics) {
        Collection<Counter> counters = Metrics.globalRegistry.find("chainfeed.dead.letters")
            .tag("reader", reader)
            .counters();
        assertThat(counters).hasSize(topics.size() * DeadLetters.Reason.values().length);
        assertThat(counters).allSatisfy(c -> assertThat(c.count()).isZero());
        assertThat(counters).extracting(c -> c.getId().getTag("topic")).containsExactlyInAnyOrderElementsOf(topics);
    }

}
