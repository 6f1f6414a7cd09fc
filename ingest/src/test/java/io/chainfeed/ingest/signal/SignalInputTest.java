package io.chainfeed.ingest.signal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.avro.Direction;
import io.chainfeed.ingest.cli.IngestCli;
import io.chainfeed.ingest.corpus.Corpus;
import io.chainfeed.platform.auth.HashedKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignalInputTest {

    private static final SignalValidator VALIDATOR = new SignalValidator(Corpus.loadBundled().layers());

    @Test
    void commonDateFormsBecomeUtc() {
        Instant expected = Instant.parse("2026-03-01T00:30:00Z");
        assertThat(SignalDates.parse("2026-03-01T00:30:00Z")).isEqualTo(expected);
        assertThat(SignalDates.parse("2026-03-01T09:30:00+09:00")).isEqualTo(expected);
        assertThat(SignalDates.parse("2026-03-01T00:30:00")).isEqualTo(expected);
        assertThat(SignalDates.parse("2026-03-01 00:30")).isEqualTo(expected);
        assertThat(SignalDates.parse("Sun, 1 Mar 2026 00:30:00 GMT")).isEqualTo(expected);
        assertThat(SignalDates.parse("Sun, 01 Mar 2026 09:30:00 +0900")).isEqualTo(expected);
        assertThat(SignalDates.parse(String.valueOf(expected.toEpochMilli()))).isEqualTo(expected);
        assertThat(SignalDates.parse("2026-03-01")).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
        assertThat(SignalDates.parse("2026/03/01")).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
        assertThatThrownBy(() -> SignalDates.parse("last Tuesday")).hasMessageContaining("'last Tuesday'")
            .hasMessageContaining("ISO-8601");
        assertThatThrownBy(() -> SignalDates.parse("2026-02-30")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SignalDates.parse("1700000000")).hasMessageContaining("seconds");
    }

    @Test
    void aValidJsonSignalBecomesAConstraintSignal() {
        SignalInput in = SignalReader.json("""
                {"headline": "HBM sold out through 2027", "body": "SK hynix says so.", "layers": ["memory", "HBM"],
                 "direction": "Tightening", "magnitude": 4, "observedAt": "2026-03-01T09:30:00+09:00",
                 "source": {"name": "Example", "url": "https://example.com/hbm"}}
                """.replace("\"HBM\"]", "\"Memory\"]")).get(0);
        SignalOutcome c = VALIDATOR.check(in);
        assertThat(errors(c)).isEmpty();
        assertThat(accepted(c).getLayerHints()).containsExactly("memory");
        assertThat(accepted(c).getDirection()).isEqualTo(Direction.TIGHTENING);
        assertThat(accepted(c).getObservedAt()).isEqualTo(Instant.parse("2026-03-01T00:30:00Z"));
        assertThat(accepted(c).getId()).startsWith("sig-");
        // the derived id is stable, so a re-post is the same signal
        assertThat(accepted(VALIDATOR.check(in)).getId()).isEqualTo(accepted(c).getId());
    }

    @Test
    void everyFieldProblemIsNamed() {
        SignalInput in = SignalReader.json("""
                [{"id": "bad id!", "headline": " ", "layers": ["dram-land"], "direction": "sideways",
                  "magnitude": 9, "observedAt": "soon", "source": {"name": "x", "url": "ftp://example.com/a"}},
                 42]
                """).get(0);
        List<SignalError> errors = errors(VALIDATOR.check(in));
        assertThat(errors).extracting(SignalError::field)
            .containsExactlyInAnyOrder("headline", "layers", "direction", "magnitude", "observedAt", "source.url",
                    "id");
        assertThat(errors).filteredOn(e -> e.field().equals("magnitude"))
            .singleElement()
            .satisfies(e -> assertThat(e.reason()).contains("1 to 5"));
        assertThat(errors(VALIDATOR.check(new SignalInput(0, 0, java.util.Map.of("headline", "h"), null))))
            .extracting(SignalError::field)
            .contains("source", "layers", "direction", "magnitude", "observedAt");
    }

    @Test
    void anUntilBeforeObservedAtAndDatesOutsideTheModelsRangeAreFieldErrors() {
        String signal = """
                {"headline": "HBM sold out", "layers": ["memory"], "direction": "tightening", "magnitude": 3,
                 "observedAt": "%s", "until": "%s", "source": {"name": "Example", "url": "https://example.com/hbm"}}
                """;
        List<SignalError> inverted = errors(
                VALIDATOR.check(SignalReader.json(signal.formatted("2026-03-01T00:00:00Z", "2026-02-28")).get(0)));
        assertThat(inverted).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("until");
            assertThat(e.reason()).contains("before observedAt");
        });
        assertThat(VALIDATOR.check(SignalReader.json(signal.formatted("2026-03-01T00:00:00Z", "2026-03-01")).get(0)))
            .isInstanceOf(SignalOutcome.Accepted.class);
        List<SignalError> outOfRange = errors(VALIDATOR
            .check(SignalReader.json(signal.formatted("1969-12-31T00:00:00Z", "+10000-01-01T00:00:00Z")).get(0)));
        assertThat(outOfRange).extracting(SignalError::field).containsExactlyInAnyOrder("observedAt", "until");
        assertThat(outOfRange).allSatisfy(e -> assertThat(e.reason()).contains("1970-01-01T00:00:00Z"));
    }

    @Test
    void jsonLinesAndCsvReportLines() {
        List<SignalInput> lines = SignalReader.jsonLines(
                """
                        # comment
                        {"headline": "a", "layers": "memory", "direction": "easing", "magnitude": 2, "observedAt": "2026-03-01", "source": {"name": "n", "url": "https://e.com/a"}}

                        {not json
                        """);
        assertThat(lines).extracting(SignalInput::line).containsExactly(2, 4);
        assertThat(VALIDATOR.check(lines.get(0))).isInstanceOf(SignalOutcome.Accepted.class);
        assertThat(errors(VALIDATOR.check(lines.get(1)))).singleElement()
            .satisfies(e -> assertThat(e.describe()).startsWith("line 4, record: is not valid JSON"));

        List<SignalInput> rows = SignalReader.csv("""
                id,headline,layers,direction,magnitude,observed_at,source_name,source_url
                s-1,"HBM, sold out",memory;advanced-packaging,tightening,4,2026-03-01T00:00:00Z,Example,https://e.com/1
                s-2,Easing,memory,easing,0,2026-03-02,Example,https://e.com/2
                """);
        assertThat(rows).extracting(SignalInput::line).containsExactly(2, 3);
        SignalOutcome first = VALIDATOR.check(rows.get(0));
        assertThat(errors(first)).isEmpty();
        assertThat(accepted(first).getHeadline()).isEqualTo("HBM, sold out");
        assertThat(accepted(first).getLayerHints()).containsExactly("memory", "advanced-packaging");
        assertThat(errors(VALIDATOR.check(rows.get(1)))).singleElement()
            .satisfies(
                    e -> assertThat(e.describe()).isEqualTo("line 3, magnitude: 0 is out of range; it must be 1 to 5"));
    }

    @Test
    void theCliReportsFileLineFieldAndReasonAndStillAcceptsTheRest(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("signals.csv");
        Files.writeString(file, """
                headline,layers,direction,magnitude,observedAt,sourceName,sourceUrl
                HBM tight,memory,tightening,4,2026-03-01,Example,https://e.com/1
                Bad date,memory,easing,2,the other day,Example,https://e.com/2
                CoWoS capacity is sold out through 2027,,,,2026-03-01,Example,https://e.com/3
                Nvidia names a new chief financial officer,,,,2026-03-01,Example,https://e.com/4
                """);
        var out = new java.io.StringWriter();
        var err = new java.io.StringWriter();
        picocli.CommandLine cl = new picocli.CommandLine(new IngestCli());
        cl.setOut(new java.io.PrintWriter(out));
        cl.setErr(new java.io.PrintWriter(err));
        int code = cl.execute("signals", file.toString(), "--dry-run");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains(file + ":3: observedAt: 'the other day' is not a date");
        assertThat(out.toString()).contains("valid line 2: sig-")
            .contains("valid line 4: sig-")
            .contains("skipped line 5: sig-")
            .contains("(appointment)")
            .contains("2 signals valid (dry run, nothing published), 1 skipped, 1 refused");
    }

    @Test
    void editorKeysAreCheckedAgainstHashesOnly() {
        HashedKeys keys = new HashedKeys("editor", List.of(HashedKeys.hash("s3cret-editor-key")));
        assertThat(keys.allows("Bearer s3cret-editor-key")).isTrue();
        assertThat(keys.allows("bearer s3cret-editor-key")).isTrue();
        assertThat(keys.allows("Bearer wrong")).isFalse();
        assertThat(keys.allows("s3cret-editor-key")).isFalse();
        assertThat(keys.allows(null)).isFalse();
        assertThat(new HashedKeys("editor", List.of()).allows("Bearer anything")).isFalse();
        assertThatThrownBy(() -> new HashedKeys("editor", List.of("plain-key"))).hasMessageContaining("SHA-256");
    }

    @Test
    void observedAtBasisIsOptionalAndChecked() {
        String base = "{\"headline\":\"h\",\"layers\":[\"memory\"],\"direction\":\"easing\",\"magnitude\":1,"
                + "\"observedAt\":\"2026-03-01T00:30:00Z\",\"source\":{\"name\":\"n\",\"url\":\"https://e.com/a\"}";
        assertThat(accepted(VALIDATOR.check(SignalReader.json(base + "}").get(0))).getObservedAtBasis()).isNull();
        assertThat(accepted(VALIDATOR.check(SignalReader.json(base + ",\"observedAtBasis\":\"first-seen\"}").get(0)))
            .getObservedAtBasis()).isEqualTo(io.chainfeed.avro.ObservedAtBasis.FIRST_SEEN);
        assertThat(errors(VALIDATOR.check(SignalReader.json(base + ",\"observedAtBasis\":\"guess\"}").get(0))))
            .extracting(SignalError::field)
            .containsExactly("observedAtBasis");
    }

    @Test
    void aSegmentIsOptionalAndMustBeOneOfTheSignalsLayers() {
        String base = "{\"headline\":\"h\",\"layers\":[\"memory\",\"accelerators\"],\"direction\":\"easing\","
                + "\"magnitude\":1,\"observedAt\":\"2026-03-01T00:30:00Z\","
                + "\"source\":{\"name\":\"n\",\"url\":\"https://e.com/a\"}";
        assertThat(accepted(VALIDATOR.check(SignalReader.json(base + "}").get(0))).getSegment()).isNull();
        assertThat(accepted(VALIDATOR.check(SignalReader.json(base + ",\"segment\":\"hbm\"}").get(0))).getSegment())
            .isEqualTo("hbm");
        SignalOutcome unknown = VALIDATOR.check(SignalReader.json(base + ",\"segment\":\"dram\"}").get(0));
        assertThat(unknown).isInstanceOf(SignalOutcome.Rejected.class);
        assertThat(errors(unknown)).extracting(SignalError::reason)
            .singleElement()
            .asString()
            .contains("'dram' is not a segment")
            .contains("conventional");
        // A foundry segment on a signal that does not name foundry.
        SignalOutcome elsewhere = VALIDATOR.check(SignalReader.json(base + ",\"segment\":\"mature\"}").get(0));
        assertThat(elsewhere).isInstanceOf(SignalOutcome.Rejected.class);
        assertThat(errors(elsewhere)).extracting(SignalError::field).containsExactly("segment");
        assertThat(errors(elsewhere).get(0).reason()).contains("segment of foundry");
    }

    /** The accepted signal; fails when the outcome is another. */
    private static ConstraintSignal accepted(SignalOutcome c) {
        assertThat(c).isInstanceOf(SignalOutcome.Accepted.class);
        return ((SignalOutcome.Accepted) c).signal();
    }

    /** The errors of a rejected outcome; none for any other. */
    private static List<SignalError> errors(SignalOutcome c) {
        return c instanceof SignalOutcome.Rejected r ? r.errors() : List.of();
    }

}
