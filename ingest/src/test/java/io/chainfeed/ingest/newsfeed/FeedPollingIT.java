package io.chainfeed.ingest.newsfeed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.ObservedAtBasis;
import io.chainfeed.schemas.AvroSerde;
import io.chainfeed.schemas.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The ingest service with two feeds configured, served from loopback by
 * {@link FeedServer}, against a real Kafka broker: the items arrive on
 * {@value Topics#SIGNALS} as readers would read them, the scheduled re-polls are
 * conditional GETs answered 304, and {@code /actuator/feeds} and the counters say so.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@EmbeddedKafka(kraft = true, partitions = 1, bootstrapServersProperty = "spring.kafka.bootstrap-servers")
class FeedPollingIT {

    @RegisterExtension
    static final FeedServer SERVER = new FeedServer();

    static {
        SERVER.put("/blog/index.atom", fixture("atom-xml-base.xml"));
        SERVER.put("/undated.rss", fixture("rss2-undated.xml"));
    }

    @DynamicPropertySource
    static void feeds(DynamicPropertyRegistry registry) {
        SERVER.registerFeeds(registry, "/blog/index.atom", "/undated.rss");
    }

    @Autowired
    TestRestTemplate http;

    @Autowired
    EmbeddedKafkaBroker broker;

    @Test
    void feedItemsBecomeSignalsAndUnchangedFeedsCostA304() {
        Map<String, ConstraintSignal> signals = new ConcurrentHashMap<>();
        AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                        ConsumerConfig.GROUP_ID_CONFIG, "feeds-it", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.SIGNALS));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> signals.put(r.key(), serde.decode(r.value())));
                return signals.size() >= 3;
            });
        }
        assertThat(signals.values()).extracting(s -> s.getSource().getUrl())
            .containsExactlyInAnyOrder("http://www.example.com/blog/2026-11-05/hbm-entry",
                    "http://www.example.com/news/substrates", "https://bulletin.example.net/sockets");
        assertThat(signals.values()).filteredOn(s -> s.getHeadline().startsWith("Test sockets"))
            .singleElement()
            .satisfies(s -> assertThat(s.getObservedAtBasis()).isEqualTo(ObservedAtBasis.FIRST_SEEN));

        await().atMost(Duration.ofSeconds(30))
            .until(() -> SERVER.requests("/undated.rss").stream().anyMatch(r -> r.status() == 304)
                    && SERVER.requests("/blog/index.atom").stream().anyMatch(r -> r.status() == 304));
        List<Map<String, Object>> status = http.exchange("/actuator/feeds", org.springframework.http.HttpMethod.GET,
                null, new ParameterizedTypeReference<List<Map<String, Object>>>() {
                })
            .getBody();
        assertThat(status).hasSize(2).allSatisfy(s -> {
            assertThat(((Number) s.get("notModified")).longValue()).isPositive();
            assertThat(s.get("etag")).isNotNull();
            assertThat(s.get("consecutiveFailures")).isEqualTo(0);
        });
        assertThat(status.get(0)).containsEntry("url", SERVER.url("/blog/index.atom"))
            .containsEntry("itemsPublished", 2);
        Map<String, Object> metric = http.exchange("/actuator/metrics/chainfeed.feed.fetches?tag=outcome:not-modified",
                org.springframework.http.HttpMethod.GET, null, new ParameterizedTypeReference<Map<String, Object>>() {
                })
            .getBody();
        assertThat(metric).containsKey("measurements");
        assertThat(String.valueOf(metric.get("measurements"))).doesNotContain("value=0.0");
    }

    private static String fixture(String name) {
        try (InputStream in = FeedPollingIT.class.getResourceAsStream("/feeds/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
