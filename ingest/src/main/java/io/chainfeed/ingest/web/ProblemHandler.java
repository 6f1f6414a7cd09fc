package io.chainfeed.ingest.web;

import io.chainfeed.ingest.fetch.FetchException;
import io.chainfeed.ingest.page.PageParseException;
import io.chainfeed.ingest.publish.PublishException;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** Maps ingest errors to RFC 9457 problem details. */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {
    private static final String TYPE_BASE = "https://chainfeed.io/problems/";
    /** Seconds a client is asked to wait before posting again after a 503 or 504. */
    private static final String RETRY_AFTER_SECONDS = "5";

    @ExceptionHandler(PageParseException.class)
    ProblemDetail unparseable(PageParseException e) {
        ProblemDetail p = problem(HttpStatus.UNPROCESSABLE_ENTITY, "unparseable-page", "The page cannot be parsed",
                e.getMessage());
        p.setProperty("missing", e.missing());
        return p;
    }

    @ExceptionHandler(PageController.PageTooLargeException.class)
    ProblemDetail tooLarge(PageController.PageTooLargeException e) {
        return problem(HttpStatus.PAYLOAD_TOO_LARGE, "page-too-large", "Page too large", e.getMessage());
    }

    @ExceptionHandler(SignalController.UnauthorizedException.class)
    org.springframework.http.ResponseEntity<ProblemDetail> unauthorized(SignalController.UnauthorizedException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, e.getMessage());
        p.setType(URI.create(TYPE_BASE + "editor-key-required"));
        p.setTitle("Editor key required");
        return org.springframework.http.ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                .header("WWW-Authenticate", "Bearer realm=\"chainfeed-ingest\"").body(p);
    }

    @ExceptionHandler(SignalController.InvalidSignalsException.class)
    ProblemDetail invalidSignals(SignalController.InvalidSignalsException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_ENTITY, e.getMessage());
        p.setType(URI.create(TYPE_BASE + "invalid-signals"));
        p.setTitle("No valid signal");
        p.setProperty("errors", e.errors());
        return p;
    }

    /** Nothing of the request was published (its transaction is aborted or never began): try again later. */
    @ExceptionHandler(PublishException.class)
    org.springframework.http.ResponseEntity<ProblemDetail> unpublished(PublishException e) {
        ProblemDetail p = problem(HttpStatus.SERVICE_UNAVAILABLE, "publish-failed",
                "Nothing was published", e.getMessage());
        p.setProperty("published", false);
        return org.springframework.http.ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(org.springframework.http.HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).body(p);
    }

    /**
     * Kafka stalled after the commit was requested: the records may or may not become visible. 504 (the
     * upstream, Kafka, did not answer in time) rather than 503, which promises that nothing was published.
     */
    @ExceptionHandler(io.chainfeed.ingest.publish.PublishOutcomeUnknownException.class)
    org.springframework.http.ResponseEntity<ProblemDetail> outcomeUnknown(
            io.chainfeed.ingest.publish.PublishOutcomeUnknownException e) {
        ProblemDetail p = problem(HttpStatus.GATEWAY_TIMEOUT, "publish-outcome-unknown",
                "Kafka did not confirm the commit in time", e.getMessage());
        return org.springframework.http.ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT)
                .header(org.springframework.http.HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS).body(p);
    }

    /** A record over its topic's {@code max.message.bytes}, read from the broker: nothing was sent. */
    @ExceptionHandler(io.chainfeed.ingest.publish.OversizedRecordException.class)
    ProblemDetail oversized(io.chainfeed.ingest.publish.OversizedRecordException e) {
        ProblemDetail p = problem(HttpStatus.PAYLOAD_TOO_LARGE, "record-too-large", "Record too large for Kafka",
                e.getMessage());
        p.setProperty("topic", e.oversize().topic());
        p.setProperty("size", e.oversize().size());
        p.setProperty("limit", e.oversize().limit());
        return p;
    }

    /** A parameter the parser or a validator refused, e.g. a sourceUrl that is not an absolute http(s) URL. */
    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail invalidArgument(IllegalArgumentException e) {
        return problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    @ExceptionHandler(FetchException.class)
    ProblemDetail fetchRefused(FetchException e) {
        return problem(HttpStatus.BAD_REQUEST, "fetch-refused", "The URL was not fetched", e.getMessage());
    }

    /**
     * Spring's own errors (missing or malformed parameters, unsupported media types ...) come as problem
     * details of type {@code about:blank}; give them this API's type so every error names one.
     */
    @Override
    protected org.springframework.http.ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body,
            org.springframework.http.HttpHeaders headers, org.springframework.http.HttpStatusCode statusCode,
            org.springframework.web.context.request.WebRequest request) {
        // For most of Spring's own exceptions the body arrives null and the superclass makes it from the
        // exception, so the type is set on what it returns.
        org.springframework.http.ResponseEntity<Object> response =
                super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail p
                && (p.getType() == null || "about:blank".equals(p.getType().toString()))) {
            p.setType(URI.create(TYPE_BASE + "invalid-request"));
        }
        return response;
    }

    private static ProblemDetail problem(HttpStatus status, String type, String title, String detail) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(status, detail);
        p.setType(URI.create(TYPE_BASE + type));
        p.setTitle(title);
        return p;
    }
}
