package io.chainfeed.platform.auth;

import io.chainfeed.platform.Sha256;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * A set of secret keys held only as SHA-256 hashes (e.g. ingest's editor keys from
 * {@code chainfeed.ingest.editor-key-hashes}, the api's admin keys from
 * {@code chainfeed.api.admin-key-hashes}). A presented key is hashed and compared with
 * every configured hash in constant time, so neither the keys nor the timing of a
 * mismatch leak. Make a hash with {@code printf %s "$KEY" | sha256sum}.
 */
public final class HashedKeys {

    private final List<byte[]> hashes = new ArrayList<>();

    /**
     * @param property the setting the hashes come from, named in errors
     * @param hexHashes SHA-256 hashes as 64 hex digits; blank entries are ignored
     * @throws IllegalArgumentException if one is not 64 hex digits (a plain key
     * configured by mistake)
     */
    public HashedKeys(String property, List<String> hexHashes) {
        for (String h : hexHashes) {
            String t = h.strip().toLowerCase(Locale.ROOT);
            if (t.isEmpty()) {
                continue;
            }
            if (!t.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException(property + " holds SHA-256 hashes (64 hex digits), not keys");
            }
            hashes.add(HexFormat.of().parseHex(t));
        }
    }

    /**
     * @return whether any key is configured
     */
    public boolean configured() {
        return !hashes.isEmpty();
    }

    /**
     * @param authorization the {@code Authorization} header value, {@code Bearer <key>};
     * may be null
     * @return whether it carries a configured key
     */
    public boolean allows(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] presented = sha256(authorization.substring(7).strip());
        boolean match = false;
        for (byte[] h : hashes) {
            match |= MessageDigest.isEqual(h, presented);
        }
        return match;
    }

    /**
     * @return the SHA-256 of a key, as configured hashes are written (64 hex digits)
     */
    public static String hash(String key) {
        return HexFormat.of().formatHex(sha256(key));
    }

    /**
     * @param s any text, encoded as UTF-8
     * @return its SHA-256 digest (32 bytes)
     */
    public static byte[] sha256(String s) {
        return Sha256.digest(s);
    }

}
