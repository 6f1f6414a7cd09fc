package io.chainfeed.platform;

import io.chainfeed.schemas.ReadFields;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The contract of the reads index: services read and write through the alias
 * {@value #ALIAS}; the concrete index {@value #INDEX} is created from
 * {@value #MAPPING_RESOURCE} (explicit, strict mapping). New fields are added to the
 * existing index at start ({@link IndexSetup#ensureReadsIndex}); a change to an existing
 * field means a new concrete index ({@code -v2}), filled by re-consuming the compacted
 * reads topic, then the alias is swapped. Documents carry {@link #externalVersion} as
 * their Elasticsearch version.
 */
public final class ReadsIndex {

    public static final String ALIAS = "chainfeed-reads";

    public static final String INDEX = "chainfeed-reads-v1";

    public static final String MAPPING_RESOURCE = "/io/chainfeed/platform/reads-index-v1.json";

    /** The field holding a read's sentence vector ({@code dense_vector}, 384 floats). */
    public static final String EMBEDDING = ReadFields.EMBEDDING;

    /**
     * The fields the embedder adds: the vector, its model and the read version it was
     * made for. Answers that return stored reads leave them out ({@code _source}
     * excludes): a vector is about 8 KB of JSON.
     */
    public static final List<String> VECTOR_FIELDS = List.of(EMBEDDING, ReadFields.EMBEDDING_MODEL,
            ReadFields.EMBEDDED_VERSION);

    /**
     * What a list of whole reads leaves out of {@code _source}: the vector fields and the
     * tag evidence (layers, companies and terms), which only the single read's answer
     * shows.
     */
    public static final List<String> VECTOR_AND_TAG_EVIDENCE_FIELDS = Stream
        .concat(VECTOR_FIELDS.stream(),
                Stream.of(ReadFields.LAYERS_EVIDENCE, ReadFields.COMPANIES_EVIDENCE, ReadFields.TERMS_EVIDENCE))
        .toList();

    private ReadsIndex() {
    }

    /**
     * The external version a read's lexical document is written with: twice the read's
     * version, so that the embedder's update of the same document (which adds its vector
     * and raises Elasticsearch's version by one) stays below the next read version's
     * write. A replay of the same read then meets a 409 and leaves the vector in place.
     * @param readVersion the read's version, at least 0
     * @return {@code 2 * readVersion}
     * @throws ArithmeticException past {@code Long.MAX_VALUE / 2}
     */
    public static long externalVersion(long readVersion) {
        return Math.multiplyExact(readVersion, 2L);
    }

    /**
     * The read version a document's Elasticsearch version stands for: the inverse of
     * {@link #externalVersion}, whether or not the embedder has added the vector since.
     * @param documentVersion the {@code _version} of a hit
     * @return {@code documentVersion / 2}, rounded down
     */
    public static long readVersion(long documentVersion) {
        return documentVersion / 2;
    }

    /**
     * The cosine similarity of a hit of a kNN search on {@value #EMBEDDING} (a
     * {@code cosine} field): Elasticsearch scores such a hit {@code (1 + cosine) / 2}
     * (Elasticsearch reference, {@code dense_vector} similarity).
     * @param score the hit's {@code _score}, 0 to 1
     * @return the cosine, -1 to 1
     */
    public static double cosineOfScore(double score) {
        return 2 * score - 1;
    }

    /**
     * A sentence vector as a kNN search's {@code query_vector}.
     * @param vector the vector (384 floats for {@value #EMBEDDING})
     * @return the same values, boxed, in order
     */
    public static List<Float> queryVector(float[] vector) {
        List<Float> values = new ArrayList<>(vector.length);
        for (float f : vector) {
            values.add(f);
        }
        return values;
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
