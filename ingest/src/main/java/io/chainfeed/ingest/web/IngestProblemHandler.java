package io.chainfeed.ingest.web;

import io.chainfeed.ingest.fetch.FetchException;
import io.chainfeed.ingest.page.PageParseException;
import io.chainfeed.ingest.publish.OversizedRecordException;
import io.chainfeed.ingest.publish.PublishException;
import io.chainfeed.ingest.publish.PublishOutcomeUnknownException;
import io.chainfeed.platform.web.ProblemDetailsHandler;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Maps ingest errors to RFC 9457 problem details; Spring's own errors get their type in
 * the base class.
 */
@RestControllerAdvice
class IngestProblemHandler extends ProblemDetailsHandler {

    /** Seconds a client is asked to wait before posting again after a 503 or 504. */
    private static final long RETRY_AFTER_SECONDS = 5;

    @ExceptionHandler(PageParseException.class)
    ProblemDetail unparseable(PageParseException e) {
        return with(problem(HttpStatus.UNPROCESSABLE_ENTITY, "unparseable-page", "The page cannot be parsed",
                e.getMessage()), "missing", e.missing());
    }

    @ExceptionHandler(PageIngestController.PageTooLargeException.class)
    ProblemDetail tooLarge(PageIngestController.PageTooLargeException e) {
        return problem(HttpStatus.PAYLOAD_TOO_LARGE, "page-too-large", "Page too large", e.getMessage());
    }

    @ExceptionHandler(SignalController.UnauthorizedException.class)
    ResponseEntity<ProblemDetail> unauthorized(SignalController.UnauthorizedException e) {
        return bearerChallenge(
                problem(HttpStatus.UNAUTHORIZED, "editor-key-required", "Editor key required", e.getMessage()),
                "chainfeed-ingest");
    }

    @ExceptionHandler(SignalController.InvalidSignalsException.class)
    ProblemDetail invalidSignals(SignalController.InvalidSignalsException e) {
        return with(problem(HttpStatus.UNPROCESSABLE_ENTITY, "invalid-signals", "No valid signal", e.getMessage()),
                "errors", e.errors());
    }

    /**
     * Nothing of the request was published (its transaction is aborted or never began):
     * try again later.
     */
    @ExceptionHandler(SignalController.SignalNotFoundException.class)
    ProblemDetail signalNotFound(SignalController.SignalNotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, "signal-not-found", "No such signal", e.getMessage());
    }

    @ExceptionHandler(PublishException.class)
    ResponseEntity<ProblemDetail> unpublished(PublishException e) {
        return retryAfter(
                with(problem(HttpStatus.SERVICE_UNAVAILABLE, "publish-failed", "Nothing was published", e.getMessage()),
                        "published", false),
                RETRY_AFTER_SECONDS);
    }

    /**
     * Kafka stalled after the commit was requested: the records may or may not become
     * visible. 504 (the upstream, Kafka, did not answer in time) rather than 503, which
     * promises that nothing was published.
     */
    @ExceptionHandler(PublishOutcomeUnknownException.class)
    ResponseEntity<ProblemDetail> outcomeUnknown(PublishOutcomeUnknownException e) {
        return retryAfter(problem(HttpStatus.GATEWAY_TIMEOUT, "publish-outcome-unknown",
                "Kafka did not confirm the commit in time", e.getMessage()), RETRY_AFTER_SECONDS);
    }

    /**
     * A record over its topic's {@code max.message.bytes}, read from the broker: nothing
     * was sent.
     */
    @ExceptionHandler(OversizedRecordException.class)
    ProblemDetail oversized(OversizedRecordException e) {
        ProblemDetail p = problem(HttpStatus.PAYLOAD_TOO_LARGE, "record-too-large", "Record too large for Kafka",
                e.getMessage());
        p.setProperty("topic", e.oversize().topic());
        p.setProperty("size", e.oversize().size());
        p.setProperty("limit", e.oversize().limit());
        return p;
    }

    /**
     * A parameter the parser or a validator refused, e.g. a sourceUrl that is not an
     * absolute http(s) URL.
     */
    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail invalidArgument(IllegalArgumentException e) {
        return problem(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request", e.getMessage());
    }

    @ExceptionHandler(FetchException.class)
    ProblemDetail fetchRefused(FetchException e) {
        return problem(HttpStatus.BAD_REQUEST, "fetch-refused", "The URL was not fetched", e.getMessage());
    }

}
