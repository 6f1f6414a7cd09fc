package io.chainfeed.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The contract of the reads index: services read and write through the alias
 * {@value #ALIAS}; the concrete index {@value #INDEX} is created from
 * {@value #MAPPING_RESOURCE} (explicit, strict mapping). New fields are added to the
 * existing index at start ({@link IndexSetup#ensureReadsIndex}); a change to an existing
 * field means a new concrete index ({@code -v2}), filled by re-consuming the compacted
 * reads topic, then the alias is swapped.
 */
public final class ReadsIndex {

    public static final String ALIAS = "chainfeed-reads";

    public static final String INDEX = "chainfeed-reads-v1";

    public static final String MAPPING_RESOURCE = "/io/chainfeed/platform/reads-index-v1.json";

    private ReadsIndex() {
    }

    /**
     * @return the settings-and-mappings JSON body for creating {@value #INDEX}
     * @throws UncheckedIOException if the resource is missing from the classpath
     */
    public static String settingsAndMappings() {
        try (InputStream in = ReadsIndex.class.getResourceAsStream(MAPPING_RESOURCE)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("missing classpath resource " + MAPPING_RESOURCE));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
