package io.chainfeed.streams;

import io.chainfeed.schemas.AvroSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Properties;
import java.util.function.BiFunction;
import java.util.stream.Stream;
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
 * A {@link TopologyTestDriver} over one of the service's topologies, built by the same
 * factory the service calls (it takes the Streams configuration and the meters, here over
 * a {@link SimpleMeterRegistry} of the fixture's own, {@link #registry()}), with the
 * record shape of every chainfeed topic: String keys, Avro values. One fixture a test;
 * {@link #close()} drops its state.
 *
 * <p>
 * The topologies keep RocksDB stores, and the driver commits after every record: each
 * commit flushes the stores and writes checkpoint files with fsync. On a shared disk that
 * costs tens of milliseconds a record, so the state dir goes to memory-backed
 * {@code /dev/shm} where the machine has it (an fsync there returns at once; what the
 * stores hold and emit is the same), else to the temp dir.
 */
public final class TopologyFixture implements AutoCloseable {

    private static final Path MEMORY_BACKED = Path.of("/dev/shm");

    private final TopologyTestDriver driver;

    private final Path stateDir;

    private final SimpleMeterRegistry registry;

    private TopologyFixture(TopologyTestDriver driver, Path stateDir, SimpleMeterRegistry registry) {
        this.driver = driver;
        this.stateDir = stateDir;
        this.registry = registry;
    }

    /**
     * @param applicationId the Streams application id (one a test class)
     * @param topology the production factory, e.g. {@code TaggingTopology::buildTopology}
     * @param wallClock the driver's wall clock at the start, or null for now
     * @return a driver over the topology; no broker is involved
     */
    public static TopologyFixture of(String applicationId, BiFunction<Properties, StreamsMeters, Topology> topology,
            Instant wallClock) {
        Path stateDir = newStateDir();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Topology built = topology.apply(props, new StreamsMeters(registry));
        return new TopologyFixture(wallClock == null ? new TopologyTestDriver(built, props)
                : new TopologyTestDriver(built, props, wallClock), stateDir, registry);
    }

    /**
     * @return the registry the topology's meters count on
     */
    public SimpleMeterRegistry registry() {
        return registry;
    }

    private static Path newStateDir() {
        try {
            return Files.isDirectory(MEMORY_BACKED) && Files.isWritable(MEMORY_BACKED)
                    ? Files.createTempDirectory(MEMORY_BACKED, "chainfeed-ttd-")
                    : Files.createTempDirectory("chainfeed-ttd-");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An input topic; each record is stamped with the driver's current wall-clock time.
     */
    public <V extends SpecificRecord> TestInputTopic<String, V> input(String topic, Class<V> type) {
        return driver.createInputTopic(topic, new StringSerializer(), AvroSerde.of(type));
    }

    /**
     * An input topic whose record times start at {@code start} and advance by
     * {@code autoAdvance} a record.
     */
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

    /** Closes the driver and deletes its state dir. */
    @Override
    public void close() {
        driver.close();
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
