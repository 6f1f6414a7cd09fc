package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.standardwebhooks.Webhook;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class WebhookSignaturesTest {

    // The test vector of the Standard Webhooks reference libraries (libraries/java
    // WebhookTest
    // verifyWebhookSignWorks, and the same values in the other languages' tests).
    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";

    private static final long SPEC_TIMESTAMP = 1614265330L;

    private static final String SPEC_PAYLOAD = "{\"test\": 2432232314}";

    private static final String SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    private static byte[] specKey() {
        return Base64.getDecoder().decode(SPEC_SECRET.substring("whsec_".length()));
    }

    @Test
    void signsTheSpecificationVector() {
        assertThat(WebhookSignatures.signatureHeader(List.of(specKey()), SPEC_ID, SPEC_TIMESTAMP, SPEC_PAYLOAD))
            .isEqualTo(SPEC_SIGNATURE);
    }

    @Test
    void matchesAPlainHmacOverIdTimestampAndBody() throws Exception {
        byte[] key = WebhookSignatures.newSecret();
        String body = "{\"type\":\"read.published\",\"data\":{\"title\":\"Ünïcödé & <tags>\"}}";
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        String expected = "v1," + Base64.getEncoder()
            .encodeToString(mac.doFinal(("msg_abc.1700000000." + body).getBytes(StandardCharsets.UTF_8)));
        assertThat(WebhookSignatures.signatureHeader(List.of(key), "msg_abc", 1700000000L, body)).isEqualTo(expected);
    }

    @Test
    void signsWithEveryLiveSecretSoReceiversVerifyAcrossARotation() throws Exception {
        byte[] current = WebhookSignatures.newSecret();
        byte[] previous = WebhookSignatures.newSecret();
        long now = Instant.now().getEpochSecond();
        String header = WebhookSignatures.signatureHeader(List.of(current, previous), "msg_x", now, "{}");
        assertThat(header.split(" ")).hasSize(2).allMatch(s -> s.startsWith("v1,"));
        Map<String, List<String>> headers = Map.of("webhook-id", List.of("msg_x"), "webhook-timestamp",
                List.of(Long.toString(now)), "webhook-signature", List.of(header));
        // The reference library verifies with either secret.
        new Webhook(WebhookSignatures.format(current)).verify("{}", headers);
        new Webhook(WebhookSignatures.format(previous)).verify("{}", headers);
        assertThatThrownBy(
                () -> new Webhook(WebhookSignatures.format(WebhookSignatures.newSecret())).verify("{}", headers))
            .hasMessageContaining("No matching signature");
        assertThatThrownBy(() -> WebhookSignatures.signatureHeader(List.of(), "msg_x", now, "{}"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void secretsAreWhsecPrefixedBase64Of32RandomBytes() {
        String a = WebhookSignatures.format(WebhookSignatures.newSecret());
        String b = WebhookSignatures.format(WebhookSignatures.newSecret());
        assertThat(a).startsWith("whsec_").isNotEqualTo(b);
        assertThat(Base64.getDecoder().decode(a.substring(6))).hasSize(32);
    }

    @Test
    void webhookIdsAreStablePerSubscriptionAndRecordAndHoldNoDot() {
        String id = WebhookSignatures.webhookId("sub_a", 2, 41, "term:rdma", 3);
        assertThat(id).matches("msg_[0-9a-f]{32}");
        assertThat(WebhookSignatures.webhookId("sub_a", 2, 41, "term:rdma", 3)).isEqualTo(id);
        assertThat(WebhookSignatures.webhookId("sub_b", 2, 41, "term:rdma", 3)).isNotEqualTo(id);
        assertThat(WebhookSignatures.webhookId("sub_a", 2, 42, "term:rdma", 3)).isNotEqualTo(id);
        assertThat(WebhookSignatures.webhookId("sub_a", 2, 41, "term:rdma", 4)).isNotEqualTo(id);
    }

}
