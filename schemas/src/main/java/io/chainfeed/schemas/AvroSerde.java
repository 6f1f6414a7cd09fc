package io.chainfeed.schemas;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for generated Avro records using Avro's single-object encoding (<a href=
 * "https://avro.apache.org/docs/1.12.0/specification/#single-object-encoding">spec</a>):
 * the two marker bytes {@code C3 01}, the 8-byte little-endian CRC-64-AVRO fingerprint of
 * the writer schema, then the binary payload. No schema registry is needed: the reader
 * knows the current schema and every earlier version kept under
 * {@code /io/chainfeed/avro/history/<Record>/v<N>.avsc} on the classpath, and resolves
 * old writer schemas to the current reader schema.
 *
 * <p>
 * Thread-safe: Avro's message encoder and decoder keep per-thread buffers.
 *
 * @param <T> the generated record type
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {

    private final Schema schema;

    private final BinaryMessageEncoder<T> encoder;

    private final BinaryMessageDecoder<T> decoder;

    private AvroSerde(Schema schema, List<Schema> history) {
        this.schema = schema;
        SpecificData model = SpecificData.getForSchema(schema);
        this.encoder = new BinaryMessageEncoder<>(model, schema);
        this.decoder = new BinaryMessageDecoder<>(model, schema);
        history.forEach(decoder::addSchema);
    }

    /**
     * Creates the serde for a generated record class, registering its kept schema
     * history.
     * @param type the generated class, e.g. {@code Read.class}
     * @param <T> the record type
     * @return a serde that writes the current schema and reads it and every kept version
     * @throws IllegalArgumentException if the class has no {@code SCHEMA$}
     */
    public static <T extends SpecificRecord> AvroSerde<T> of(Class<T> type) {
        Schema schema = SpecificData.get().getSchema(type);
        if (schema == null) {
            throw new IllegalArgumentException("not a generated Avro record: " + type);
        }
        return new AvroSerde<>(schema, history(schema.getName()));
    }

    /**
     * Loads the kept versions of a record's schema, {@code v1.avsc}, {@code v2.avsc} ...
     * until the first missing number.
     * @param recordName simple record name, e.g. {@code Read}
     * @return the parsed schemas, oldest first; empty if none are kept
     * @throws UncheckedIOException if a kept file cannot be read
     */
    public static List<Schema> history(String recordName) {
        List<Schema> versions = new ArrayList<>();
        for (int v = 1;; v++) {
            String path = "/io/chainfeed/avro/history/" + recordName + "/v" + v + ".avsc";
            try (InputStream in = AvroSerde.class.getResourceAsStream(path)) {
                if (in == null) {
                    return versions;
                }
                versions.add(new Schema.Parser().parse(in));
            }
            catch (IOException e) {
                throw new UncheckedIOException("cannot read kept schema " + path, e);
            }
        }
    }

    /**
     * @return the current (reader and writer) schema
     */
    public Schema schema() {
        return schema;
    }

    /**
     * Encodes a record; {@code null} (a tombstone) stays {@code null}.
     * @throws SerializationException if the record does not fit the schema
     */
    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        try {
            ByteBuffer buffer = encoder.encode(data);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        }
        catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot encode " + schema.getName() + " for topic " + topic, e);
        }
    }

    /**
     * Decodes a record written with the current or any kept schema version; {@code null}
     * stays {@code null}.
     * @throws SerializationException for bytes that are not single-object encoded, carry
     * an unknown schema fingerprint, or are truncated
     */
    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            return decoder.decode(data);
        }
        catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot decode " + schema.getName() + " from topic " + topic + " ("
                    + data.length + " bytes): " + e.getMessage(), e);
        }
    }

    /**
     * Decodes from a byte array; same contract as {@link #deserialize(String, byte[])}.
     */
    public T decode(byte[] data) {
        return deserialize(null, Objects.requireNonNull(data, "data"));
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // configured by construction: nothing to read from client configs
    }

    @Override
    public void close() {
        // nothing to release
    }

}
