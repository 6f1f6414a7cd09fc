package io.chainfeed.api.webhook;

import io.chainfeed.platform.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals webhook signing secrets for storage on a Kafka topic: AES-256-GCM (NIST SP
 * 800-38D) under a master key that lives only in configuration. Each seal draws a fresh
 * 96-bit nonce; the output is the nonce followed by the ciphertext and its 128-bit tag.
 * The associated data (the subscription id) binds a sealed secret to its subscription, so
 * it cannot be moved to another one.
 *
 * <p>
 * Thread-safe: a new {@link Cipher} per call.
 */
public final class SecretCipher {

    private static final int NONCE_BYTES = 12;

    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;

    private final String keyId;

    private final SecureRandom random = new SecureRandom();

    /**
     * @param masterKey 32 bytes
     * @throws IllegalArgumentException if the key is not 32 bytes
     */
    public SecretCipher(byte[] masterKey) {
        if (masterKey.length != 32) {
            throw new IllegalArgumentException("the webhook master key must be 32 bytes (base64 of 32 random bytes),"
                    + " not " + masterKey.length);
        }
        this.key = new SecretKeySpec(masterKey.clone(), "AES");
        this.keyId = fingerprint(masterKey);
    }

    /**
     * Loads the master key from {@code chainfeed.webhooks.master-key} (base64) or,
     * failing that, from {@code chainfeed.webhooks.master-key-file} (a file holding the
     * base64).
     * @param props the webhook settings
     * @return the cipher, or empty when neither is set
     * @throws IllegalArgumentException if a key is set but is not base64 of 32 bytes
     * @throws UncheckedIOException if the key file cannot be read
     */
    public static Optional<SecretCipher> fromConfig(WebhookProperties props) {
        String text = props.masterKey();
        if ((text == null || text.isBlank()) && props.masterKeyFile() != null) {
            try {
                text = Files.readString(props.masterKeyFile(), StandardCharsets.US_ASCII);
            }
            catch (IOException e) {
                throw new UncheckedIOException("cannot read the webhook master key file " + props.masterKeyFile(), e);
            }
        }
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SecretCipher(Base64.getDecoder().decode(text.trim())));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("chainfeed.webhooks master key: " + e.getMessage());
        }
    }

    /**
     * @return the master key's fingerprint: the first 16 hex digits of its SHA-256
     */
    public String keyId() {
        return keyId;
    }

    /**
     * @param plaintext the secret
     * @param associatedData bound to the ciphertext (the subscription id)
     * @return nonce, then ciphertext and tag
     */
    public byte[] seal(byte[] plaintext, String associatedData) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = c.doFinal(plaintext);
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /**
     * @param sealed output of {@link #seal}
     * @param associatedData the same associated data
     * @return the secret
     * @throws IllegalArgumentException if the data was sealed under another key or
     * associated data, or was altered
     */
    public byte[] open(byte[] sealed, String associatedData) {
        if (sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new IllegalArgumentException("sealed secret too short");
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            c.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            return c.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        }
        catch (javax.crypto.AEADBadTagException e) {
            throw new IllegalArgumentException("sealed secret does not open under this key for " + associatedData);
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    private static String fingerprint(byte[] key) {
        return Sha256.hexPrefix(key, 8);
    }

}
