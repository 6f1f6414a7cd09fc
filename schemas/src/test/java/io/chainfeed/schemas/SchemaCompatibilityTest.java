package io.chainfeed.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.ChainLayer;
import io.chainfeed.avro.Company;
import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.avro.LayerState;
import io.chainfeed.avro.Listing;
import io.chainfeed.avro.Read;
import io.chainfeed.avro.ReadKind;
import io.chainfeed.avro.Source;
import io.chainfeed.avro.TermUpdate;
import io.chainfeed.avro.WebhookDeliveryState;
import io.chainfeed.avro.WebhookSubscription;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every top-level schema must read, and be readable by, each earlier version kept under
 * {@code io/chainfeed/avro/history}; and the current schema must itself be kept, so a
 * change cannot ship without a new history file.
 */
class SchemaCompatibilityTest {

    static Stream<Class<? extends SpecificRecord>> records() {
        return Stream.of(ChainLayer.class, Company.class, TermUpdate.class, ConstraintSignal.class, Read.class,
                LayerState.class, io.chainfeed.avro.ChainCause.class, io.chainfeed.avro.ApiKey.class,
                WebhookSubscription.class, WebhookDeliveryState.class);
    }

    @ParameterizedTest
    @MethodSource("records")
    void currentSchemaIsKeptAsTheLatestVersion(Class<? extends SpecificRecord> type) {
        Schema current = SpecificData.get().getSchema(type);
        List<Schema> history = AvroSerde.history(current.getName());
        assertThat(history).as("kept versions of %s", current.getName()).isNotEmpty();
        long latest = SchemaNormalization.parsingFingerprint64(history.get(history.size() - 1));
        assertThat(latest)
            .as("%s changed: add it as history/%s/v%d.avsc", current.getName(), current.getName(), history.size() + 1)
            .isEqualTo(SchemaNormalization.parsingFingerprint64(current));
    }

    @ParameterizedTest
    @MethodSource("records")
    void currentAndEveryKeptVersionReadEachOther(Class<? extends SpecificRecord> type) {
        Schema current = SpecificData.get().getSchema(type);
        for (Schema kept : AvroSerde.history(current.getName())) {
            assertThat(SchemaCompatibility.checkReaderWriterCompatibility(current, kept).getType())
                .as("current %s reads a kept version", current.getName())
                .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
            SchemaCompatibility.SchemaPairCompatibility back = SchemaCompatibility.checkReaderWriterCompatibility(kept,
                    current);
            if (back.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                continue;
            }
            // The one allowed exception: ReadKind gained STATE in Read v4. A reader
            // before it decodes every
            // read but a state read (readsOlderReadersDecodeEveryReadButAStateRead);
            // since v4 the enum has a
            // default, so a kind added later decodes as SIGNAL
            // (aKindAddedLaterDecodesAsTheDefault).
            assertThat(back.getResult().getIncompatibilities())
                .as("a kept %s reads the current version", current.getName())
                .isNotEmpty()
                .allSatisfy(i -> {
                    assertThat(i.getType())
                        .isEqualTo(SchemaCompatibility.SchemaIncompatibilityType.MISSING_ENUM_SYMBOLS);
                    assertThat(i.getReaderFragment().getFullName()).isEqualTo(ReadKind.getClassSchema().getFullName());
                    assertThat(i.getMessage()).isEqualTo("[STATE]");
                });
        }
    }

    @Test
    void olderReadersDecodeEveryReadButAStateRead() throws Exception {
        List<Schema> history = AvroSerde.history("Read");
        Schema v3 = history.get(2);
        Schema current = Read.getClassSchema();
        Read signal = Read.newBuilder()
            .setId("signal:s1")
            .setKind(ReadKind.SIGNAL)
            .setSlug("s1")
            .setTitle("HBM sold out")
            .setSummary("HBM sold out")
            .setDisclaimer("research, not advice")
            .setVersion(1)
            .setUpdatedAt(Instant.parse("2026-03-02T00:00:00Z"))
            .build();
        Read state = Read.newBuilder(signal).setId("state:memory:1").setKind(ReadKind.STATE).setSlug("memory").build();
        assertThat(String.valueOf(decode(encode(signal), current, v3).get("kind"))).isEqualTo("SIGNAL");
        assertThatThrownBy(() -> decode(encode(state), current, v3))
            .isInstanceOf(org.apache.avro.AvroTypeException.class)
            .hasMessageContaining("STATE");
        assertThat(String.valueOf(decode(encode(state), current, current).get("kind"))).isEqualTo("STATE");
    }

    @Test
    void aKindAddedLaterDecodesAsTheDefault() throws Exception {
        Schema reader = ReadKind.getClassSchema();
        assertThat(reader.getEnumDefault()).isEqualTo("SIGNAL");
        Schema later = Schema.createEnum("ReadKind", null, "io.chainfeed.avro",
                List.of("TERM", "SIGNAL", "STATE", "LATER"));
        var out = new java.io.ByteArrayOutputStream();
        var encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        new org.apache.avro.generic.GenericDatumWriter<Object>(later)
            .write(new org.apache.avro.generic.GenericData.EnumSymbol(later, "LATER"), encoder);
        encoder.flush();
        Object read = new org.apache.avro.generic.GenericDatumReader<Object>(later, reader).read(null,
                org.apache.avro.io.DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
        assertThat(read.toString()).isEqualTo("SIGNAL");
    }

    private static byte[] encode(Read read) throws java.io.IOException {
        var out = new java.io.ByteArrayOutputStream();
        var encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        new org.apache.avro.specific.SpecificDatumWriter<Read>(Read.class).write(read, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static org.apache.avro.generic.GenericRecord decode(byte[] bytes, Schema writer, Schema reader)
            throws java.io.IOException {
        return new org.apache.avro.generic.GenericDatumReader<org.apache.avro.generic.GenericRecord>(writer, reader)
            .read(null, org.apache.avro.io.DecoderFactory.get().binaryDecoder(bytes, null));
    }

    @Test
    void roundTripsWithSingleObjectEncoding() {
        AvroSerde<Company> serde = AvroSerde.of(Company.class);
        Company accton = Company.newBuilder()
            .setId("accton-technology")
            .setName("Accton Technology")
            .setListings(List.of(new Listing("2345", "XTAI", "2345.TW")))
            .setPrimaryLayer("network-fabric")
            .build();
        byte[] bytes = serde.serialize("t", accton);
        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
        assertThat(serde.deserialize("t", bytes)).isEqualTo(accton);
        assertThat(serde.deserialize("t", null)).isNull();
    }

    @Test
    void readsRecordsWrittenWithAnOlderWriterSchema() throws Exception {
        // A writer that knew an older ConstraintSignal without the version field: the
        // reader resolves it
        // once that schema is registered, and fills the default.
        Schema current = ConstraintSignal.getClassSchema();
        Schema older = new Schema.Parser()
            .parse(current.toString().replace(",{\"name\":\"version\",\"type\":\"long\",\"default\":1}", ""));
        assertThat(older.getField("version")).isNull();
        var model = SpecificData.getForSchema(current);
        var oldEncoder = new org.apache.avro.message.BinaryMessageEncoder<org.apache.avro.generic.GenericRecord>(
                org.apache.avro.generic.GenericData.get(), older);
        var rec = new org.apache.avro.generic.GenericRecordBuilder(older).set("id", "s1")
            .set("headline", "HBM allocation sold out")
            .set("body", "")
            .set("layerHints", List.of("memory"))
            .set("direction",
                    new org.apache.avro.generic.GenericData.EnumSymbol(older.getField("direction").schema(),
                            "TIGHTENING"))
            .set("magnitude", 4)
            .set("observedAt", Instant.parse("2026-01-02T03:04:05Z").toEpochMilli())
            .set("source",
                    new org.apache.avro.generic.GenericRecordBuilder(older.getField("source").schema())
                        .set("name", "Example")
                        .set("url", "https://example.com/a")
                        .build())
            .build();
        byte[] bytes = oldEncoder.encode(rec).array();

        AvroSerde<ConstraintSignal> serde = AvroSerde.of(ConstraintSignal.class);
        assertThatThrownBy(() -> serde.deserialize("t", bytes)).isInstanceOf(SerializationException.class)
            .hasMessageContaining("ConstraintSignal");

        var decoder = new org.apache.avro.message.BinaryMessageDecoder<ConstraintSignal>(model, current);
        decoder.addSchema(older);
        ConstraintSignal read = decoder.decode(bytes);
        assertThat(read.getVersion()).isEqualTo(1L);
        assertThat(read.getDirection()).isEqualTo(Direction.TIGHTENING);
        assertThat(read.getSource()).isEqualTo(new Source("Example", "https://example.com/a"));
    }

    @Test
    void refusesBytesThatAreNotSingleObjectEncoded() {
        AvroSerde<Read> serde = AvroSerde.of(Read.class);
        assertThatThrownBy(() -> serde.deserialize("chainfeed.reads.v1", new byte[] { 1, 2, 3 }))
            .isInstanceOf(SerializationException.class)
            .hasMessageContaining("chainfeed.reads.v1");
        // nor bytes that carry the marker but a fingerprint of no known Read version
        byte[] unknown = { (byte) 0xC3, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0 };
        assertThatThrownBy(() -> serde.deserialize("chainfeed.reads.v1", unknown))
            .isInstanceOf(SerializationException.class)
            .hasMessageContaining("chainfeed.reads.v1");
    }

}
