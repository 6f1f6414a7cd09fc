package io.chainfeed.api.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.chainfeed.platform.kafka.KafkaConnectionProperties;
import io.chainfeed.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Which bucket another instance's usage report is charged to. */
class KeyUsageExchangeTest {

    private final KeyRateLimits keys = new KeyRateLimits();

    private final ClientRateLimits clients = new ClientRateLimits("client", 240, 1000);

    private final ClientRateLimits admins = new ClientRateLimits("admin", 30, 1000);

    private final KeyUsageExchange exchange = new KeyUsageExchange(keys, List.of(clients, admins),
            new RateLimitProperties(true, Duration.ofMillis(250), "here", 0L),
            new KafkaConnectionProperties("localhost:9092"));

    private static ConsumerRecord<String, byte[]> report(String key, String instance, int rate, long tokens) {
        String json = "{\"instance\":\"" + instance + "\",\"ratePerMinute\":" + rate + ",\"tokens\":" + tokens + "}";
        return new ConsumerRecord<>(Topics.API_KEY_USAGE, 0, 0L, key, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachPolicyPrefixChargesItsOwnBucketsAndABareIdTheKey() {
        exchange.apply(report("admin:198.51.100.9", "there", 30, 30));
        assertThat(admins.take("198.51.100.9").allowed()).as("the admin bucket spent elsewhere").isFalse();
        assertThat(clients.take("198.51.100.9").allowed()).as("the public bucket untouched").isTrue();

        exchange.apply(report("client:198.51.100.10", "there", 240, 240));
        assertThat(clients.take("198.51.100.10").allowed()).isFalse();
        assertThat(admins.take("198.51.100.10").allowed()).isTrue();

        exchange.apply(report("keyid0000001", "there", 5, 5));
        assertThat(keys.tryTake("keyid0000001", 5)).isPresent();
    }

    @Test
    void ownReportsAndUnknownPoliciesAreSkipped() {
        exchange.apply(report("admin:198.51.100.11", "here", 30, 30));
        assertThat(admins.take("198.51.100.11").allowed()).as("already counted here").isTrue();
        exchange.apply(report("other:198.51.100.12", "there", 30, 1000));
        assertThat(admins.take("198.51.100.12").allowed()).isTrue();
        assertThat(clients.take("198.51.100.12").allowed()).isTrue();
        assertThat(keys.tryTake("other:198.51.100.12", 30)).as("not taken for a key id").isEmpty();
    }

}
