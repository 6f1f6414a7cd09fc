package io.chainfeed.devstack.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The embedded default's admin key: made on the first start (and again after
 * {@code --fresh}), kept in {@code <run dir>/admin-key} (owner read/write only) for the
 * {@code keys} CLI across restarts, and given to the api only as its SHA-256.
 */
public final class AdminKey {

    /** The file name inside the run dir. */
    public static final String FILE = "admin-key";

    private AdminKey() {
    }

    /**
     * Makes a new admin key ({@code cfadmin_} and 32 random bytes, base64url) and writes
     * it to the run dir.
     * @param runDir the run dir
     * @return the key
     */
    public static String renew(Path runDir) throws IOException {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        String key = "cfadmin_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        SecretFiles.writeOwnerOnly(runDir.resolve(FILE), key + "\n");
        return key;
    }

    /**
     * The run dir's admin key: the one kept there by an earlier start, else a new one
     * ({@link #renew}).
     * @param runDir the run dir
     * @return the key
     * @throws IOException when the file cannot be read or written
     */
    public static String readOrCreate(Path runDir) throws IOException {
        Path file = runDir.resolve(FILE);
        if (Files.isRegularFile(file)) {
            String key = Files.readString(file).strip();
            if (key.startsWith("cfadmin_")) {
                return key;
            }
        }
        return renew(runDir);
    }

    /**
     * @param runDir the run dir
     * @return the admin key written there by the running stack
     * @throws IOException when there is none (the stack is not running from that run dir)
     */
    public static String read(Path runDir) throws IOException {
        Path file = runDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no admin key at " + file + ": start the stack first (./chainfeed run), or pass "
                    + "--admin-key-file or CHAINFEED_ADMIN_KEY");
        }
        return Files.readString(file).strip();
    }

}
