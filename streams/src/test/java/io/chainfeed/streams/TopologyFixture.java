package io.chainfeed.streams;

import io.chainfeed.schemas.AvroSerde;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A {@link TopologyTestDriver} over one of the service's topologies, built by the same factory the
 * service calls (it takes the Streams configuration), with the record shape of every chainfeed topic:
 * String keys, Avro values. One fixture a test; {@link #close()} drops its state.
 */
public final class TopologyFixture implements AutoCloseable {
    private final TopologyTestDriver driver;

    private TopologyFixture(TopologyTestDriver driver) {
        this.driver = driver;
    }

    /**
     * @param applicationId the Streams application id (one a test class)
     * @param topology      the production factory, e.g. {@code TaggingTopology::buildTopology}
     * @param wallClock     the driver's wall clock at the start, or null for now
     * @return a driver over the topology; no broker is involved
     */
    public static TopologyFixture of(String applicationId, Function<Properties, Topology> topology, Instant wallClock) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        Topology built = topology.apply(props);
        return new TopologyFixture(wallClock == null ? new TopologyTestDriver(built, props)
                : new TopologyTestDriver(built, props, wallClock));
    }

    /** An input topic; each record is stamped with the driver's current wall-clock time. */
    public <V extends SpecificRecord> TestInputTopic<String, V> input(String topic, Class<V> type) {
        return driver.createInputTopic(topic, new StringSerializer(), AvroSerde.of(type));
    }

    /** An input topic whose record times start at {@code start} and advance by {@code autoAdvance} a record. */
    public <V extends SpecificRecord> TestInputTopic<String, V> input(String topic, Class<V> type, Instant start,
            Duration autoAdvance) {
        return driver.createInputTopic(topic, new StringSerializer(), AvroSerde.of(type), start, autoAdvance);
    }

    /** An output topic, read from its first record. */
    public <V extends SpecificRecord> TestOutputTopic<String, V> output(String topic, Class<V> type) {
        return driver.createOutputTopic(topic, new StringDeserializer(), AvroSerde.of(type));
    }

    /** Moves the wall clock on, firing the punctuators due. */
    public void advanceWallClockTime(Duration by) {
        driver.advanceWallClockTime(by);
    }

    /** A key-value store of the topology, by name. */
    public <V> KeyValueStore<String, V> store(String name) {
        return driver.getKeyValueStore(name);
    }

    @Override
    public void close() {
        driver.close();
    }
}
