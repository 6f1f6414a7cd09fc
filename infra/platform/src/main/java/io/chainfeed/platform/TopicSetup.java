package io.chainfeed.platform;

import io.chainfeed.schemas.TopicSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics of a catalogue ({@link io.chainfeed.schemas.Topics#all(int)})
 * idempotently.
 *
 * <p>
 * Missing topics are created with their partitions and configs; a topic created meanwhile
 * by someone else is fine. For existing topics, {@code cleanup.policy} is checked against
 * the spec and set when it differs (the catalogue is the truth: a compacted topic that
 * silently deletes would lose reference data); other differing configs and a lower
 * partition count are reported, not changed. Safe to call from several services at once.
 */
public final class TopicSetup {

    private static final Logger LOG = LoggerFactory.getLogger(TopicSetup.class);

    private static final long TIMEOUT_SECONDS = 30;

    private TopicSetup() {
    }

    /**
     * Ensures the topics exist, using a short-lived admin client.
     * @param bootstrapServers e.g. {@code 127.0.0.1:19092}
     * @param specs the topics
     * @param replicationFactor replicas per partition (1 on a single node)
     * @return the names of the topics this call created
     */
    public static Set<String> ensure(String bootstrapServers, List<TopicSpec> specs, short replicationFactor) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            return ensure(admin, specs, replicationFactor);
        }
    }

    /**
     * Ensures the topics exist and their {@code cleanup.policy} matches.
     * @param admin an admin client
     * @param specs the topics
     * @param replicationFactor replicas per partition (1 on a single node)
     * @return the names of the topics this call created
     * @throws IllegalStateException when the cluster refuses or does not answer in 30 s
     */
    public static Set<String> ensure(Admin admin, List<TopicSpec> specs, short replicationFactor) {
        Map<String, TopicSpec> byName = new LinkedHashMap<>();
        specs.forEach(spec -> byName.put(spec.name(), spec));
        Set<String> existing = get(admin.listTopics(new ListTopicsOptions().listInternal(false)).names(),
                "list topics");

        List<NewTopic> missing = byName.values()
            .stream()
            .filter(spec -> !existing.contains(spec.name()))
            .map(spec -> new NewTopic(spec.name(), spec.partitions(), replicationFactor).configs(spec.configs()))
            .toList();
        Set<String> created = new LinkedHashSet<>();
        if (!missing.isEmpty()) {
            CreateTopicsResult result = admin.createTopics(missing);
            for (Map.Entry<String, KafkaFuture<Void>> entry : result.values().entrySet()) {
                try {
                    entry.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    created.add(entry.getKey());
                }
                catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("could not create topic " + entry.getKey(), e.getCause());
                    }
                    LOG.debug("topic {} was created meanwhile by someone else", entry.getKey());
                }
                catch (TimeoutException e) {
                    throw new IllegalStateException("no answer in " + TIMEOUT_SECONDS + " s creating " + entry.getKey(),
                            e);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }
            if (!created.isEmpty()) {
                LOG.info("created {} topic(s): {}", created.size(), created);
            }
        }

        List<String> toCheck = byName.keySet().stream().filter(name -> !created.contains(name)).toList();
        if (!toCheck.isEmpty()) {
            checkExisting(admin, toCheck.stream().map(byName::get).toList());
        }
        return created;
    }

    private static void checkExisting(Admin admin, List<TopicSpec> specs) {
        Map<String, TopicDescription> descriptions = get(
                admin.describeTopics(specs.stream().map(TopicSpec::name).toList()).allTopicNames(), "describe topics");
        List<ConfigResource> resources = specs.stream()
            .map(spec -> new ConfigResource(ConfigResource.Type.TOPIC, spec.name()))
            .toList();
        Map<ConfigResource, Config> configs = get(admin.describeConfigs(resources).all(), "describe topic configs");

        Map<ConfigResource, Collection<AlterConfigOp>> fixes = new LinkedHashMap<>();
        for (TopicSpec spec : specs) {
            int partitions = descriptions.get(spec.name()).partitions().size();
            if (partitions < spec.partitions()) {
                LOG.warn("topic {} has {} partition(s), the catalogue asks for {}; left as is (adding partitions"
                        + " would move keys)", spec.name(), partitions, spec.partitions());
            }
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, spec.name());
            Config actual = configs.get(resource);
            List<AlterConfigOp> ops = new ArrayList<>();
            for (Map.Entry<String, String> wanted : spec.configs().entrySet()) {
                ConfigEntry entry = actual.get(wanted.getKey());
                String value = entry == null ? null : entry.value();
                if (wanted.getValue().equals(value)) {
                    continue;
                }
                if (TopicConfig.CLEANUP_POLICY_CONFIG.equals(wanted.getKey())) {
                    LOG.warn("topic {} has {}={}, the catalogue says {}; setting it", spec.name(), wanted.getKey(),
                            value, wanted.getValue());
                    ops.add(new AlterConfigOp(new ConfigEntry(wanted.getKey(), wanted.getValue()),
                            AlterConfigOp.OpType.SET));
                }
                else {
                    LOG.warn("topic {} has {}={}, the catalogue says {}; left as is", spec.name(), wanted.getKey(),
                            value, wanted.getValue());
                }
            }
            if (!ops.isEmpty()) {
                fixes.put(resource, ops);
            }
        }
        if (!fixes.isEmpty()) {
            get(admin.incrementalAlterConfigs(fixes).all(), "alter topic configs");
            LOG.info("set cleanup.policy on {}",
                    fixes.keySet().stream().map(ConfigResource::name).collect(Collectors.joining(", ")));
        }
    }

    private static <T> T get(KafkaFuture<T> future, String what) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (ExecutionException e) {
            throw new IllegalStateException("Kafka refused to " + what + ": " + e.getCause(), e.getCause());
        }
        catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer in " + TIMEOUT_SECONDS + " s to " + what, e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + what, e);
        }
    }

}
