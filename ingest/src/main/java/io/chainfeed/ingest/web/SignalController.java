package io.chainfeed.ingest.web;

import io.chainfeed.avro.ConstraintSignal;
import io.chainfeed.ingest.IngestProperties;
import io.chainfeed.ingest.publish.Deadline;
import io.chainfeed.ingest.signal.SignalError;
import io.chainfeed.ingest.signal.SignalFields;
import io.chainfeed.ingest.signal.SignalIngest;
import io.chainfeed.ingest.signal.SignalInput;
import io.chainfeed.ingest.signal.SignalLookup;
import io.chainfeed.ingest.signal.SignalOutcome;
import io.chainfeed.ingest.signal.SignalReader;
import io.chainfeed.ingest.signal.SignalValidator;
import io.chainfeed.ingest.signal.SkippedRecords;
import io.chainfeed.platform.IndexingProbe;
import io.chainfeed.platform.auth.HashedKeys;
import io.chainfeed.schemas.SignalViews;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /ingest/v1/signals} for editors, under
 * {@code Authorization: Bearer <editor key>}: one signal or an array of them as
 * {@code application/json}, or one a line as {@code application/x-ndjson}. The valid
 * signals are published (202, or 200 with {@code dryRun=true}) and listed with their read
 * ids; the invalid ones are listed under {@code rejected} with their index (and line),
 * field and reason. When none is valid the answer is a 422 problem detail with the same
 * list, and nothing is published. Values left out ({@code layers}, {@code direction},
 * {@code magnitude}, {@code until}) are decided from the headline and body; an item that
 * is not about a supply constraint is answered under {@code skipped} with the reason (and
 * written to {@code chainfeed.signals-skipped.v1}); {@code items} answers every item in
 * order: {@code accepted} (with its {@code signal} object: values, who decided them,
 * confidence, held, evidence), {@code skipped} or {@code rejected}. {@code POST
 * /ingest/v1/signals/{id}/review} confirms or corrects a signal (a new version). The
 * valid signals of a request are one Kafka transaction: 202 means all are committed; 503
 * (with {@code Retry-After}) means none will ever be visible; 504 means Kafka stalled
 * mid-commit and the outcome is unknown. The answer comes within
 * {@code chainfeed.ingest.deadline}.
 */
@RestController
@RequestMapping("/ingest/v1")
@RequiredArgsConstructor
class SignalController {

    static final String NDJSON = "application/x-ndjson";

    private final SignalIngest ingest;

    private final HashedKeys keys;

    private final IngestProperties props;

    private final SignalLookup reviews;

    private final SignalValidator validator;

    private final org.springframework.beans.factory.ObjectProvider<IndexingProbe> indexing;

    @PostMapping(path = "/signals", consumes = { MediaType.APPLICATION_JSON_VALUE, NDJSON },
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> signals(@RequestBody byte[] body,
            @RequestHeader(name = "Content-Type") String contentType,
            @RequestHeader(name = "Authorization", required = false) String authorization,
            @RequestParam(defaultValue = "false") boolean dryRun) {
        Deadline until = Deadline.after(props.deadline());
        if (!keys.allows(authorization)) {
            throw new UnauthorizedException(keys.configured() ? "an editor key is required: Authorization: Bearer <key>"
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
        }
        catch (IllegalArgumentException e) {
            throw new InvalidSignalsException(e.getMessage(), List.of());
        }
        if (inputs.isEmpty()) {
            throw new InvalidSignalsException("the batch holds no signal", List.of());
        }
        SignalIngest.BatchResult r = ingest.ingest(inputs, dryRun, until);
        if (r.accepted().isEmpty() && r.skipped().isEmpty()) {
            throw new InvalidSignalsException(r.rejected().size() == 1
                    ? "the signal is invalid: " + r.rejected().get(0).describe() : "no signal of the batch is valid",
                    r.rejected());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dryRun", dryRun);
        out.put("published", r.published());
        out.put("accepted", r.accepted().stream().map(SignalController::view).toList());
        out.put("skipped", r.skipped().stream().map(SignalController::skipped).toList());
        out.put("rejected", r.rejected());
        out.put("items", items(inputs, r));
        if (r.published()) {
            // Committed, but searchable only once Elasticsearch takes writes: say whether
            // that is now.
            indexing.ifAvailable(probe -> out.put("indexing", probe.state().view()));
        }
        return ResponseEntity.status(r.published() ? HttpStatus.ACCEPTED : HttpStatus.OK).body(out);
    }

    /**
     * {@code POST /ingest/v1/signals/{id}/review}: an editor confirms a signal's values
     * (empty body or {@code {}}) or corrects some of them ({@code direction},
     * {@code magnitude}, {@code layers}, {@code until}). Either way a new version is
     * published, no longer held, saying who decided what; 202 with it, 404 when there is
     * no such signal, 422 for an invalid correction.
     */
    @PostMapping(path = "/signals/{id}/review", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> review(@PathVariable String id, @RequestBody(required = false) byte[] body,
            @RequestHeader(name = "Authorization", required = false) String authorization) {
        Deadline until = Deadline.after(props.deadline());
        if (!keys.allows(authorization)) {
            throw new UnauthorizedException(keys.configured() ? "an editor key is required: Authorization: Bearer <key>"
                    : "signal review is disabled: no editor keys are configured");
        }
        SignalFields fields = SignalFields.bind(Map.of());
        if (body != null && body.length > 0 && !new String(body, StandardCharsets.UTF_8).isBlank()) {
            List<SignalInput> in = SignalReader.json(new String(body, StandardCharsets.UTF_8));
            if (in.size() != 1 || in.get(0).fields() == null) {
                throw new InvalidSignalsException("the review must be one JSON object", List.of());
            }
            fields = in.get(0).bound();
        }
        ConstraintSignal current = reviews.latest(id, props.deadline())
            .orElseThrow(() -> new SignalNotFoundException(id));
        SignalOutcome c = validator.review(current, fields, Instant.now(), 0);
        if (c instanceof SignalOutcome.Rejected r) {
            throw new InvalidSignalsException("the review is invalid: " + r.errors().get(0).describe(), r.errors());
        }
        if (!(c instanceof SignalOutcome.Accepted a)) {
            throw new IllegalStateException("a review is accepted or rejected, not " + c);
        }
        ingest.republish(List.of(a.signal()), until);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(view(new SignalIngest.Accepted(0, 0, a.signal())));
    }

    private static List<Map<String, Object>> items(List<SignalInput> inputs, SignalIngest.BatchResult r) {
        Map<Integer, Map<String, Object>> byIndex = new TreeMap<>();
        for (SignalInput in : inputs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("index", in.index());
            if (in.line() > 0) {
                m.put("line", in.line());
            }
            byIndex.put(in.index(), m);
        }
        r.accepted().forEach(a -> {
            Map<String, Object> m = byIndex.get(a.index());
            m.put("outcome", "accepted");
            m.put("id", a.signal().getId());
            m.put("readId", a.readId());
            m.put("held", a.signal().getDecision() != null && a.signal().getDecision().getHeld());
        });
        r.skipped().forEach(k -> {
            Map<String, Object> m = byIndex.get(k.index());
            m.put("outcome", "skipped");
            m.put("id", k.signal().getId());
            m.put("reason", k.reason());
        });
        r.rejected().forEach(e -> {
            Map<String, Object> m = byIndex.get(e.index());
            m.putIfAbsent("outcome", "rejected");
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> errors = (List<Map<String, Object>>) m.computeIfAbsent("errors",
                    k -> new ArrayList<Map<String, Object>>());
            errors.add(Map.of("field", e.field(), "reason", e.reason()));
        });
        return List.copyOf(byIndex.values());
    }

    private static Map<String, Object> skipped(SignalIngest.Skipped k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", k.index());
        if (k.line() > 0) {
            m.put("line", k.line());
        }
        m.putAll(SkippedRecords.view(k.signal(), k.reason(), k.decision()));
        m.remove("body");
        if (k.decision() != null) {
            m.put("reader", k.decision().reader());
            m.put("readerVersion", k.decision().readerVersion());
        }
        return m;
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
        m.put("direction", s.getDirection().name().toLowerCase(Locale.ROOT));
        m.put("magnitude", s.getMagnitude());
        m.put("until", s.getUntil() == null ? null : s.getUntil().toString());
        m.put("segment", s.getSegment());
        m.put("observedAt", s.getObservedAt().toString());
        m.put("source", Map.of("name", s.getSource().getName(), "url", s.getSource().getUrl()));
        m.put("held", s.getDecision() != null && s.getDecision().getHeld());
        if (s.getDecision() != null && s.getDecision().getDecidedBy().equals("text")) {
            // who read the text; not (yet) part of the read document, so kept out of
            // SignalViews
            m.put("reader", s.getDecision().getReader());
            m.put("readerVersion", s.getDecision().getReaderVersion());
        }
        m.put("signal", SignalViews.view(s.getDirection().name(), s.getMagnitude(), s.getUntil(), s.getDecision()));
        return m;
    }

    /** No signal with that id. */
    static final class SignalNotFoundException extends RuntimeException {

        SignalNotFoundException(String id) {
            super("no signal with id '" + id + "'");
        }

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
