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

    @ExceptionHandler(PageParseException.class)
    ProblemDetail unparseable(PageParseException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_ENTITY, e.getMessage());
        p.setType(URI.create(TYPE_BASE + "unparseable-page"));
        p.setTitle("The page cannot be parsed");
        p.setProperty("missing", e.missing());
        return p;
    }

    @ExceptionHandler(PageController.PageTooLargeException.class)
    ProblemDetail tooLarge(PageController.PageTooLargeException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.PAYLOAD_TOO_LARGE, e.getMessage());
        p.setType(URI.create(TYPE_BASE + "page-too-large"));
        p.setTitle("Page too large");
        return p;
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

    @ExceptionHandler(PublishException.class)
    ProblemDetail unpublished(PublishException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        p.setType(URI.create(TYPE_BASE + "publish-failed"));
        p.setTitle("Kafka did not acknowledge the record; nothing is reported as published");
        return p;
    }

    @ExceptionHandler(FetchException.class)
    ProblemDetail fetchRefused(FetchException e) {
        ProblemDetail p = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        p.setType(URI.create(TYPE_BASE + "fetch-refused"));
        p.setTitle("The URL was not fetched");
        return p;
    }
}
