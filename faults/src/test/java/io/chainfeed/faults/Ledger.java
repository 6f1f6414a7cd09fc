package io.chainfeed.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chainfeed.avro.Read;
import io.chainfeed.platform.ReadsIndex;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.http.HttpHost;
import org.apache.http.util.EntityUtils;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.RestClient;

/**
 * What the system acknowledged, and the audits that account for every acknowledged read
 * id after a fault: exactly once in the {@code read_committed} reads topic (one record
 * per key, so no version that changes nothing), present in Elasticsearch, and (per
 * subscriber) pushed exactly once over SSE. Thread-safe; the audits read the real Kafka
 * and Elasticsearch.
 */
public final class Ledger {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();

    private final Map<String, String> unacknowledged = new ConcurrentHashMap<>();

    /** Records an id the system answered 2xx for. */
    public void acknowledged(String readId) {
        acknowledged.add(readId);
    }

    /**
     * Records an attempt that got no 2xx (it may or may not have been published; it is
     * not owed).
     */
    public void unacknowledged(String readId, String why) {
        unacknowledged.put(readId, why);
    }

    /** The acknowledged read ids, sorted. */
    public Set<String> acknowledgedIds() {
        return new TreeSet<>(acknowledged);
    }

    /** Unacknowledged attempts and why. */
    public Map<String, String> unacknowledgedAttempts() {
        return Map.copyOf(unacknowledged);
    }

    /**
     * What an audit found for the acknowledged ids.
     *
     * @param where e.g. {@code reads topic}
     * @param owed how many ids were acknowledged
     * @param lost acknowledged ids not found
     * @param duplicated acknowledged ids found more than once (with the count)
     */
    public record Account(String where, int owed, List<String> lost, Map<String, Integer> duplicated) {
        /** Whether every owed id was found exactly once. */
        public boolean exact() {
            return lost.isEmpty() && duplicated.isEmpty();
        }

        @Override
        public String toString() {
            return where + ": " + owed + " owed, " + lost.size() + " lost" + (lost.isEmpty() ? "" : " " + head(lost))
                    + ", " + duplicated.size() + " duplicated" + (duplicated.isEmpty() ? "" : " " + duplicated);
        }

        private static List<String> head(List<String> ids) {
            return ids.subList(0, Math.min(10, ids.size()));
        }
    }

    /**
     * Accounts for the acknowledged ids in a multiset of ids that arrived somewhere.
     * @param where a name for the report
     * @param arrivals how many times each id arrived
     * @return the account
     */
    public Account account(String where, Map<String, Integer> arrivals) {
        List<String> lost = new ArrayList<>();
        Map<String, Integer> duplicated = new LinkedHashMap<>();
        for (String id : acknowledgedIds()) {
            int n = arrivals.getOrDefault(id, 0);
            if (n == 0) {
                lost.add(id);
            }
            else if (n > 1) {
                duplicated.put(id, n);
            }
        }
        return new Account(where, acknowledged.size(), lost, duplicated);
    }

    /**
     * Reads {@value Topics#READS} from the beginning to its last committed offset with a
     * {@code read_committed}, group-less consumer and counts the records per key for the
     * acknowledged ids. A signal's read is written once; a second record for the same key
     * is a duplicate version.
     * @param bootstrapServers Kafka
     * @return the account
     */
    public Account auditReadsTopic(String bootstrapServers) {
        Map<String, Integer> counts = new HashMap<>();
        AvroSerde<Read> serde = AvroSerde.of(Read.class);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(Topics.READS, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(p.topic(), p.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + Topics.READS + " to its end in 60 s");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() != null && acknowledged.contains(r.key()) && r.value() != null) {
                        Read read = serde.deserialize(r.topic(), r.value());
                        if (!read.getId().equals(r.key())) {
                            throw new IllegalStateException("record key " + r.key() + " holds read " + read.getId());
                        }
                        counts.merge(r.key(), 1, Integer::sum);
                    }
                }
            }
        }
        return account("reads topic (read_committed)", counts);
    }

    /**
     * Looks the acknowledged ids up in the reads alias ({@code _mget} by document id,
     * which is the read id) and counts, with a terms query on the {@code id} field, how
     * many documents carry each id.
     * @param elasticsearch the node's HTTP endpoint
     * @return the account
     * @throws IOException when Elasticsearch does not answer
     */
    public Account auditIndex(java.net.URI elasticsearch) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        try (RestClient rest = RestClient.builder(HttpHost.create(elasticsearch.toString())).build()) {
            rest.performRequest(new Request("POST", "/" + ReadsIndex.ALIAS + "/_refresh"));
            List<String> ids = new ArrayList<>(acknowledgedIds());
            for (int from = 0; from < ids.size(); from += 500) {
                List<String> chunk = ids.subList(from, Math.min(ids.size(), from + 500));
                Request search = new Request("POST", "/" + ReadsIndex.ALIAS + "/_search");
                search.setJsonEntity(JSON.writeValueAsString(Map.of("size", chunk.size() * 2, "_source", false, "query",
                        Map.of("ids", Map.of("values", chunk)))));
                JsonNode hits = JSON.readTree(EntityUtils.toString(rest.performRequest(search).getEntity()))
                    .path("hits")
                    .path("hits");
                for (JsonNode hit : hits) {
                    counts.merge(hit.path("_id").asText(), 1, Integer::sum);
                }
            }
        }
        return account("Elasticsearch (" + ReadsIndex.ALIAS + ")", counts);
    }

    /**
     * Counts occurrences in a collection of ids.
     * @param ids ids as they arrived, with repeats
     * @return id to count
     */
    public static Map<String, Integer> counts(Collection<String> ids) {
        return ids.stream().collect(Collectors.toMap(id -> id, id -> 1, Integer::sum));
    }

}
