package io.chainfeed.streams.tagging;

import io.chainfeed.platform.kafka.DeadLetters;
import io.chainfeed.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a record that cannot be deserialized to its topic's dead-letter topic
 * ({@link Topics#dlqOf(String)}), as the raw key and value bytes with the reason and
 * origin (topic/partition/offset) in headers, then lets the topology go on. If the
 * dead-letter write itself fails, processing stops (FAIL) so the record is not lost. The
 * reader the dead letters name is {@code streams-<application id>} ({@link #readerOf});
 * {@link #registerAtStart} registers its counter for the topology's topics at start.
 *
 * <p>
 * Kafka Streams makes the handler by reflection from its configuration, so the service's
 * {@link MeterRegistry}, where the dead-letter counter goes, travels in that
 * configuration under {@value #METER_REGISTRY_CONFIG}; without it {@link #configure}
 * fails.
 */
public final class DeadLetterDeserializationHandler implements DeserializationExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterDeserializationHandler.class);

    /**
     * The Streams configuration key whose value is the {@link MeterRegistry} the handler
     * counts dead letters on (an object, not a string: put it in the {@code Properties}
     * the application is built with).
     */
    public static final String METER_REGISTRY_CONFIG = "chainfeed.meter.registry";

    private KafkaProducer<byte[], byte[]> producer;

    private DeadLetters deadLetters;

    /**
     * Makes the dead-letter producer and writer.
     * @param configs the application's Streams configuration, with the registry under
     * {@value #METER_REGISTRY_CONFIG}
     * @throws ConfigException if the registry is missing
     */
    @Override
    public void configure(Map<String, ?> configs) {
        MeterRegistry registry = registryOf(configs);
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, configs.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, configs.get(StreamsConfig.APPLICATION_ID_CONFIG) + "-dlq");
        producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        deadLetters = new DeadLetters(producer,
                readerOf(String.valueOf(configs.get(StreamsConfig.APPLICATION_ID_CONFIG))), registry);
    }

    /**
     * @param configs a Streams configuration
     * @return the registry under {@value #METER_REGISTRY_CONFIG}
     * @throws ConfigException if there is none, or something else is there
     */
    static MeterRegistry registryOf(Map<String, ?> configs) {
        Object value = configs.get(METER_REGISTRY_CONFIG);
        if (value instanceof MeterRegistry registry) {
            return registry;
        }
        throw new ConfigException(METER_REGISTRY_CONFIG, value,
                "the dead-letter handler needs the service's MeterRegistry in the Streams configuration");
    }

    /**
     * @param applicationId a Kafka Streams {@code application.id}
     * @return the reader name its dead letters carry: {@code streams-<application id>}
     */
    public static String readerOf(String applicationId) {
        return "streams-" + applicationId;
    }

    /**
     * Registers the dead-letter counter of an application at zero for every topic its
     * topology reads, global stores and internal repartition topics included, and every
     * reason.
     * @param topology the application's topology
     * @param applicationId its {@code application.id}
     * @param registry the registry the handler counts on (the one under
     * {@value #METER_REGISTRY_CONFIG})
     * @return the topics registered, as the records' topic names read at run time
     */
    public static Set<String> registerAtStart(Topology topology, String applicationId, MeterRegistry registry) {
        Set<String> external = new HashSet<>();
        Topics.all(1).forEach(t -> external.add(t.name()));
        Set<String> topics = new TreeSet<>();
        TopologyDescription description = topology.describe();
        for (TopologyDescription.Subtopology sub : description.subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
                    source.topicSet().forEach(t -> topics.add(external.contains(t) ? t : applicationId + "-" + t));
                }
            }
        }
        for (TopologyDescription.GlobalStore store : description.globalStores()) {
            topics.addAll(store.source().topicSet());
        }
        DeadLetters.registerAtStart(registry, readerOf(applicationId), topics);
        return topics;
    }

    @Override
    public DeserializationHandlerResponse handle(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
            Exception exception) {
        String dlq = Topics.dlqOf(record.topic());
        String origin = DeadLetters.origin(record);
        try {
            deadLetters.send(record, record.key(), record.value(), DeadLetters.Reason.UNDECODABLE, exception)
                .get(30, TimeUnit.SECONDS);
            return DeserializationHandlerResponse.CONTINUE;
        }
        catch (Exception e) {
            log.error("cannot write undecodable record {} to {}; stopping so it is not lost", origin, dlq, e);
            return DeserializationHandlerResponse.FAIL;
        }
    }

}
