package io.chainfeed.api.support.health;

import io.chainfeed.schemas.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Actuator health component {@code pipeline}: how far the processing behind the api lags
 * what ingest accepted, per stage, from Kafka alone: the committed end offsets
 * (read_committed, so aborted transactions do not count) of each stage's input topic
 * minus the offsets its consumer group has committed.
 * <ul>
 * <li>{@code termsNotYetTagged}: {@value Topics#TERMS} against the tagging topology's
 * group;</li>
 * <li>{@code signalsNotYetProcessed}: {@value Topics#SIGNALS} against the chain-state
 * topology's group;</li>
 * <li>{@code readsNotYetIndexed}: {@value Topics#READS} against the indexer's group
 * (records accepted and tagged but not yet searchable).</li>
 * </ul>
 * UP while every backlog is zero or shrinking; DOWN when a stage has had a backlog whose
 * group made no progress for {@code stallAfter} (e.g. streams is down), or when Kafka
 * does not answer in time. A group that has committed nothing yet (streams never ran) is
 * reported as such and does not count.
 */
public final class PipelineHealthIndicator implements HealthIndicator {

    /**
     * Whether a partition holds a committed (visible to {@code read_committed}) record in
     * an offset range. A group's committed offset can stop short of the end for good when
     * all that follows is transaction markers or aborted records (Kafka Streams and
     * transactional producers write them; a consumer commits only after records it
     * processed), so such a gap is no backlog.
     */
    @FunctionalInterface
    public interface VisibleRecords {

        /**
         * @param partition the partition
         * @param from first offset, inclusive
         * @param to last offset, exclusive
         * @return true if a committed record lies in [from, to)
         */
        boolean any(TopicPartition partition, long from, long to);

    }

    private final Admin admin;

    private final VisibleRecords visible;

    private final Map<String, Stage> stages;

    private final Duration timeout;

    private final Clock clock;

    /** One stage: a topic read by one consumer group, with its progress memory. */
    static final class Stage {

        final String detail;

        final String topic;

        final String group;

        final Progress progress;

        Stage(String detail, String topic, String group, Duration stallAfter) {
            this.detail = detail;
            this.topic = topic;
            this.group = group;
            this.progress = new Progress(stallAfter);
        }

    }

    /**
     * Remembers when a stage last made progress, to tell a stall from a backlog being
     * worked off. Thread-safe.
     */
    static final class Progress {

        private final Duration stallAfter;

        private long lastCommitted = -1;

        private Instant progressAt;

        Progress(Duration stallAfter) {
            this.stallAfter = stallAfter;
        }

        /**
         * @param backlog records not yet consumed
         * @param committed the group's committed offsets, summed
         * @param now time of the observation
         * @return how long the stage has been stalled (a backlog and no progress), or
         * zero
         */
        synchronized Duration observe(long backlog, long committed, Instant now) {
            if (backlog <= 0 || committed != lastCommitted || progressAt == null) {
                lastCommitted = committed;
                progressAt = now;
                return Duration.ZERO;
            }
            return Duration.between(progressAt, now);
        }

        /** Whether a stall that long makes the stage DOWN. */
        boolean stalled(Duration stalledFor) {
            return stalledFor.compareTo(stallAfter) >= 0;
        }

    }

    /**
     * @param admin a long-lived admin client (not closed here)
     * @param taggingGroup application id of the tagging topology
     * @param chainGroup application id of the chain-state topology
     * @param indexerGroup group id of the read indexer
     * @param stallAfter how long a backlog may sit without progress before the pipeline
     * is DOWN
     * @param timeout how long one check may wait for Kafka
     * @param clock time source
     */
    public PipelineHealthIndicator(Admin admin, VisibleRecords visible, String taggingGroup, String chainGroup,
            String indexerGroup, Duration stallAfter, Duration timeout, Clock clock) {
        this.admin = admin;
        this.visible = visible;
        this.timeout = timeout;
        this.clock = clock;
        this.stages = new LinkedHashMap<>();
        for (Stage s : List.of(new Stage("termsNotYetTagged", Topics.TERMS, taggingGroup, stallAfter),
                new Stage("signalsNotYetProcessed", Topics.SIGNALS, chainGroup, stallAfter),
                new Stage("readsNotYetIndexed", Topics.READS, indexerGroup, stallAfter))) {
            stages.put(s.detail, s);
        }
    }

    @Override
    public Health health() {
        try {
            Map<String, TopicDescription> topics = admin
                .describeTopics(stages.values().stream().map(s -> s.topic).collect(Collectors.toSet()))
                .allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            topics.values()
                .forEach(d -> d.partitions()
                    .forEach(p -> latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest())));
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .forEach((tp, info) -> ends.put(tp, info.offset()));
            Instant now = clock.instant();
            boolean up = true;
            Health.Builder b = Health.up();
            for (Stage s : stages.values()) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(s.group)
                    .partitionsToOffsetAndMetadata()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (committed.values().stream().noneMatch(Objects::nonNull)) {
                    // Not started yet (or processed by differently named groups): nothing
                    // to measure.
                    b.withDetail(s.detail, "group " + s.group + " has committed no offsets");
                    continue;
                }
                long backlog = 0;
                long committedSum = 0;
                for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
                    if (!e.getKey().topic().equals(s.topic)) {
                        continue;
                    }
                    OffsetAndMetadata c = committed.get(e.getKey());
                    long at = c == null ? 0 : c.offset();
                    committedSum += at;
                    if (e.getValue() > at && visible.any(e.getKey(), at, e.getValue())) {
                        backlog += e.getValue() - at;
                    }
                }
                Duration stalled = s.progress.observe(backlog, committedSum, now);
                b.withDetail(s.detail, backlog);
                if (s.progress.stalled(stalled)) {
                    up = false;
                    b.withDetail(s.detail + "StalledSeconds", stalled.toSeconds());
                }
            }
            return (up ? b : b.down()).build();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.down().withDetail("error", "interrupted").build();
        }
        catch (ExecutionException | TimeoutException e) {
            return Health.down()
                .withDetail("error",
                        "Kafka did not answer within " + timeout.toMillis() + " ms: "
                                + (e.getCause() != null ? e.getCause().getMessage() : e.toString()))
                .build();
        }
    }

    /** The stage names reported as details. */
    Set<String> stageNames() {
        return stages.keySet();
    }

}
