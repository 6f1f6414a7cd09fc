package io.chainfeed.streams;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.Read;
import io.chainfeed.schemas.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.function.BiFunction;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.AfterEach;

/**
 * What every test of a chainfeed topology sets up: a {@link TopologyFixture} over the
 * topology, the reference inputs each topology reads (chain layers, companies) and the
 * reads topic each writes. The fixture last opened is closed after each test.
 */
public abstract class TopologyTest {

    protected TopologyFixture topology;

    protected TestInputTopic<String, ChainLayer> layers;

    protected TestInputTopic<String, Company> companies;

    protected TestOutputTopic<String, Read> reads;

    /**
     * Opens a fresh topology (empty stores); reference records are stamped with the
     * driver's wall clock.
     * @param applicationId the Streams application id
     * @param factory the production factory, e.g. {@code TaggingTopology::buildTopology}
     * @param wallClock the driver's wall clock at the start, or null for now
     */
    protected void open(String applicationId, BiFunction<Properties, StreamsMeters, Topology> factory,
            Instant wallClock) {
        open(applicationId, factory, wallClock, null);
    }

    /**
     * Opens a fresh topology (empty stores).
     * @param applicationId the Streams application id
     * @param factory the production factory
     * @param wallClock the driver's wall clock at the start, or null for now
     * @param referenceTime the timestamp of every layer and company record, or null for
     * the wall clock
     */
    protected void open(String applicationId, BiFunction<Properties, StreamsMeters, Topology> factory,
            Instant wallClock, Instant referenceTime) {
        topology = TopologyFixture.of(applicationId, factory, wallClock);
        layers = referenceTime == null ? topology.input(Topics.LAYERS, ChainLayer.class)
                : topology.input(Topics.LAYERS, ChainLayer.class, referenceTime, Duration.ZERO);
        companies = referenceTime == null ? topology.input(Topics.COMPANIES, Company.class)
                : topology.input(Topics.COMPANIES, Company.class, referenceTime, Duration.ZERO);
        reads = topology.output(Topics.READS, Read.class);
    }

    @AfterEach
    void closeTopology() {
        if (topology != null) {
            topology.close();
        }
    }

}
