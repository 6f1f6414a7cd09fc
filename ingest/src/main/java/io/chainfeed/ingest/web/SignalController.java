package io.chainfeed.ingest.web;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.ingest.IngestProperties;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.signal.SignalError;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalInput;
import io.chainfeed.ingest.signal.SignalReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /ingest/v1/signals} for editors, under {@code Authorization: Bearer <editor key>}: one
 * signal or an array of them as {@code application/json}, or one a line as
 * {@code application/x-ndjson}. The valid signals are published (202, or 200 with
 * {@code dryRun=true}) and listed with their read ids; the invalid ones are listed under
 * {@code rejected} with their index (and line), field and reason. When none is valid the answer is
 * a 422 problem detail with the same list, and nothing is published. The valid signals of a request are
 * one Kafka transaction: 202 means all are committed; 503 (with {@code Retry-After}) means none will
 * ever be visible; 504 means Kafka stalled mid-commit and the outcome is unknown. The answer comes within
 * {@code chainfeed.ingest.deadline}.
 */
@RestController
@RequestMapping("/ingest/v1")
class SignalController {
    static final String NDJSON = "application/x-ndjson";

    private final SignalIngest ingest;
    private final HashedKeys keys;
    private final IngestProperties props;

    SignalController(SignalIngest ingest, HashedKeys keys, IngestProperties props) {
        this.ingest = ingest;
        this.keys = keys;
        this.props = props;
    }

    @PostMapping(path = "/signals", consumes = {MediaType.APPLICATION_JSON_VALUE, NDJSON},
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> signals(@RequestBody byte[] body,
            @RequestHeader(name = "Content-Type") String contentType,
            @RequestHeader(name = "Authorization", required = false) String authorization,
            @RequestParam(defaultValue = "false") boolean dryRun) {
        Deadline until = Deadline.after(props.deadline());
        if (!keys.allows(authorization)) {
            throw new UnauthorizedException(keys.configured()
                    ? "an editor key is required: Authorization: Bearer <key>"
                    : "signal posting is disabled: no editor keys are configured");
        }
        if (body.length > props.maxPageBytes()) {
            throw new PageIngestController.PageTooLargeException(body.length, props.maxPageBytes());
        }
        String text = new String(body, StandardCharsets.UTF_8);
        boolean ndjson = MediaType.parseMediaType(contentType).isCompatibleWith(MediaType.parseMediaType(NDJSON));
        List<SignalInput> inputs;
        try {
            inputs = ndjson ? SignalReader.jsonLines(text) : SignalReader.json(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidSignalsException(e.getMessage(), List.of());
        }
        if (inputs.isEmpty()) {
            throw new InvalidSignalsException("the batch holds no signal", List.of());
        }
        SignalIngest.BatchResult r = ingest.ingest(inputs, dryRun, until);
        if (r.accepted().isEmpty()) {
            throw new InvalidSignalsException(r.rejected().size() == 1 ? "the signal is invalid: "
                    + r.rejected().get(0).describe() : "no signal of the batch is valid", r.rejected());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dryRun", dryRun);
        out.put("published", r.published());
        out.put("accepted", r.accepted().stream().map(SignalController::view).toList());
        out.put("rejected", r.rejected());
        return ResponseEntity.status(r.published() ? HttpStatus.ACCEPTED : HttpStatus.OK).body(out);
    }

    private static Map<String, Object> view(SignalIngest.Accepted a) {
        ConstraintSignal s = a.signal();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", a.index());
        if (a.line() > 0) {
            m.put("line", a.line());
        }
        m.put("id", s.getId());
        m.put("readId", a.readId());
        m.put("version", s.getVersion());
        m.put("headline", s.getHeadline());
        m.put("layers", s.getLayerHints());
        m.put("direction", s.getDirection().name().toLowerCase(java.util.Locale.ROOT));
        m.put("magnitude", s.getMagnitude());
        m.put("observedAt", s.getObservedAt().toString());
        m.put("source", Map.of("name", s.getSource().getName(), "url", s.getSource().getUrl()));
        return m;
    }

    /** No or a wrong editor key. */
    static final class UnauthorizedException extends RuntimeException {
        UnauthorizedException(String message) {
            super(message);
        }
    }

    /** Nothing in the request could be accepted. */
    static final class InvalidSignalsException extends RuntimeException {
        private final transient List<SignalError> errors;

        InvalidSignalsException(String message, List<SignalError> errors) {
            super(message);
            this.errors = errors;
        }

        List<SignalError> errors() {
            return errors;
        }
    }
}
