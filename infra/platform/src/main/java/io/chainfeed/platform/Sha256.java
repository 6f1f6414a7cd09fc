package io.chainfeed.platform;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 (FIPS 180-4) digests and their lower-case hex forms, the one place the project
 * computes them: content hashes, derived ids, entity tags, key hashes. Text is encoded as
 * UTF-8.
 */
public final class Sha256 {

    private Sha256() {
    }

    /**
     * @param bytes any bytes
     * @return their SHA-256 digest (32 bytes)
     */
    public static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * @param text any text
     * @return the SHA-256 digest of its UTF-8 bytes (32 bytes)
     */
    public static byte[] digest(String text) {
        return digest(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param bytes any bytes
     * @return their SHA-256 digest as 64 lower-case hex digits
     */
    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(digest(bytes));
    }

    /**
     * @param text any text
     * @return the SHA-256 digest of its UTF-8 bytes as 64 lower-case hex digits
     */
    public static String hex(String text) {
        return hex(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param bytes any bytes
     * @param length how many leading bytes of the digest to keep, 1 to 32
     * @return those bytes as {@code 2 × length} lower-case hex digits
     */
    public static String hexPrefix(byte[] bytes, int length) {
        return HexFormat.of().formatHex(digest(bytes), 0, length);
    }

    /**
     * @param text any text
     * @param length how many leading bytes of the digest to keep, 1 to 32
     * @return those bytes of the digest of its UTF-8 bytes as {@code 2 × length}
     * lower-case hex digits
     */
    public static String hexPrefix(String text, int length) {
        return hexPrefix(text.getBytes(StandardCharsets.UTF_8), length);
    }

}
