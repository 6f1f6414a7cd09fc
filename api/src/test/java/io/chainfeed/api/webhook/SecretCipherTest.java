package io.chainfeed.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.TestSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretCipherTest {

    private static byte[] key() {
        byte[] k = new byte[32];
        new SecureRandom().nextBytes(k);
        return k;
    }

    private static WebhookProperties props(String masterKey, Path file) {
        List<String> properties = new ArrayList<>();
        if (masterKey != null) {
            properties.addAll(List.of("chainfeed.webhooks.master-key", masterKey));
        }
        if (file != null) {
            properties.addAll(List.of("chainfeed.webhooks.master-key-file", file.toString()));
        }
        return TestSettings.bind("chainfeed.webhooks", WebhookProperties.class, properties.toArray(String[]::new));
    }

    @Test
    void sealsAndOpens() {
        SecretCipher c = new SecretCipher(key());
        byte[] secret = "s3cr3t".getBytes(StandardCharsets.UTF_8);
        byte[] sealed = c.seal(secret, "sub_a");
        assertThat(sealed).hasSize(12 + secret.length + 16);
        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("s3cr3t");
        assertThat(c.open(sealed, "sub_a")).isEqualTo(secret);
        assertThat(c.seal(secret, "sub_a")).as("a fresh nonce per seal").isNotEqualTo(sealed);
    }

    @Test
    void refusesAnotherSubscriptionAnotherKeyOrAlteredBytes() {
        SecretCipher c = new SecretCipher(key());
        byte[] sealed = c.seal(new byte[32], "sub_a");
        assertThatThrownBy(() -> c.open(sealed, "sub_b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SecretCipher(key()).open(sealed, "sub_a"))
            .isInstanceOf(IllegalArgumentException.class);
        byte[] altered = sealed.clone();
        altered[20] ^= 1;
        assertThatThrownBy(() -> c.open(altered, "sub_a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void loadsTheMasterKeyFromConfigOrAFile(@TempDir Path dir) throws Exception {
        byte[] k = key();
        String b64 = Base64.getEncoder().encodeToString(k);
        assertThat(SecretCipher.fromConfig(props(null, null))).isEmpty();
        SecretCipher fromText = SecretCipher.fromConfig(props(b64, null)).orElseThrow();
        Path file = dir.resolve("webhook-master.key");
        Files.writeString(file, b64 + "\n");
        SecretCipher fromFile = SecretCipher.fromConfig(props(null, file)).orElseThrow();
        assertThat(fromFile.keyId()).isEqualTo(fromText.keyId()).hasSize(16);
        assertThat(fromFile.open(fromText.seal(new byte[] { 1, 2 }, "x"), "x")).containsExactly(1, 2);
        assertThatThrownBy(() -> SecretCipher.fromConfig(props(Base64.getEncoder().encodeToString(new byte[16]), null)))
            .hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> SecretCipher.fromConfig(props("not base64!", null)))
            .isInstanceOf(IllegalArgumentException.class);
    }

}
