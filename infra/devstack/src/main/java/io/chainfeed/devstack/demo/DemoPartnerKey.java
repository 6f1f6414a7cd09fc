package io.chainfeed.devstack.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.chainfeed.devstack.keys.AdminKeysClient;
import io.chainfeed.devstack.keys.SecretFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo page's publishable partner key, kept in the run dir across runs as one line
 * {@code <id> <token>} in {@value #FILE} (owner read/write only).
 */
public final class DemoPartnerKey {

    /** File in the run dir keeping the demo page's partner key. */
    public static final String FILE = "demo-partner.key";

    private DemoPartnerKey() {
    }

    /**
     * The demo page's partner key: the one an earlier run issued, while the api still
     * lists it as not revoked; else a new one for {@code pageOrigin} (600 requests a
     * minute), written to the run dir.
     * @param run the run dir
     * @param keys the api's key administration, under this run's admin key
     * @param pageOrigin the origin the page is served from, e.g.
     * {@code http://localhost:8090}
     * @return the key's token (never empty)
     * @throws IllegalStateException when the api issues a key without a token
     * @throws IOException when the api cannot be reached or refuses, or the file cannot
     * be written
     */
    public static String token(Path run, AdminKeysClient keys, String pageOrigin)
            throws IOException, InterruptedException {
        Path file = run.resolve(FILE);
        if (Files.isRegularFile(file)) {
            String[] kept = Files.readString(file).strip().split("\\s+");
            if (kept.length == 2) {
                for (JsonNode key : keys.list()) {
                    if (kept[0].equals(key.path("id").asText())) {
                        return kept[1];
                    }
                }
            }
        }
        JsonNode created = keys.create("PARTNER", "demo partner page", List.of(pageOrigin), 600);
        String token = created.path("token").asText();
        if (token.isEmpty()) {
            throw new IllegalStateException("the api issued no token for the demo page's key");
        }
        SecretFiles.writeOwnerOnly(file, created.path("id").asText() + " " + token + "\n");
        return token;
    }

}
